"""Štreky positions drawn as SVG (well-formed, the course's colours) and as text."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET

import pytest

from harness.games import get_game
from harness.games.streky.cards import as_matrix
from harness.games.streky.placements import PASS, Place
from harness.games.streky.render import PALETTE, svg, text
from harness.games.streky.rules import RULES, State, new_game

NS = "{http://www.w3.org/2000/svg}"


def midgame(settings: dict | None = None, plies: int = 12) -> State:
    state = RULES.initial(RULES.parse_settings(settings or {"cards": "tournament"}), random.Random(2))
    rng = random.Random(2)
    for _ in range(plies):
        moves = RULES.legal_moves(state)
        state = RULES.apply(state, moves[rng.randrange(len(moves))])
    return state


def test_the_game_renders_through_its_spec() -> None:
    game = get_game("streky")
    assert game.render is svg and game.render_text is text
    assert game.ascii_only and game.required_methods == ("play",) and dict(game.wire_classes) == {}


@pytest.mark.parametrize("state", [new_game(3, 4, [as_matrix([[1]])]), midgame(), midgame({}, 9)])
def test_svg_is_well_formed_and_draws_every_card_cell(state: State) -> None:
    root = ET.fromstring(svg(state))
    assert root.tag == NS + "svg"
    fills = [r.get("fill") for r in root.iter(NS + "rect")]
    cells = sum(len(p.matrix) * len(p.matrix[0]) for p in state.placed)
    assert sum(f in PALETTE.values() for f in fills) == cells
    assert len(list(root.iter(NS + "circle"))) == len(state.placed)  # one anchor dot per card
    assert f"ply {state.ply}, score {state.points[0]} : {state.points[1]}" in "".join(root.itertext())


def test_tournament_position_uses_all_four_colours() -> None:
    document = svg(midgame())
    for colour in (PALETTE[1], PALETTE[2], PALETTE[3], PALETTE[4]):
        assert f'fill="{colour}"' in document


def test_a_move_on_the_board_is_framed() -> None:
    state = midgame()
    last = state.placed[-1]
    move = Place(last.row, last.col, last.matrix)
    for highlight in (move, RULES.move_to_json(move)):
        root = ET.fromstring(svg(state, highlight))
        frames = [r for r in root.iter(NS + "rect") if r.get("stroke") == "#E6007E"]
        assert len(frames) == 1 and frames[0].get("width") == str(len(last.matrix[0]) * 20)


def test_a_rejected_move_is_drawn_on_top_with_a_dashed_frame() -> None:
    state = midgame()
    last = state.placed[-1]
    overlapping = Place(last.row, last.col, ((1, 2), (3, 4)))
    root = ET.fromstring(svg(state, overlapping))
    dashed = [r for r in root.iter(NS + "rect") if r.get("stroke-dasharray")]
    assert len(dashed) == 1
    assert len(ET.fromstring(svg(state)).findall(NS + "g")) == 0 and len(root.findall(NS + "g")) == 1


@pytest.mark.parametrize("highlight", [None, PASS, "junk", [1, 2], [1.5, 2, [[1]]], [0, 0, [[1], [1, 2]]]])
def test_unusable_highlights_are_ignored(highlight: object) -> None:
    state = midgame()
    assert svg(state, highlight) == svg(state)


def test_text_board() -> None:
    state = new_game(4, 6, [as_matrix([[1, 0], [2, 3]])])
    state = RULES.apply(state, Place(1, 1, as_matrix([[1, 0], [2, 3]])))
    drawing = text(state)
    lines = drawing.splitlines()
    assert lines[2] == "  1  . 1 0 . . ."
    assert lines[3] == "  2  . 2 3 . . ."
    assert lines[-1] == "ply 1, score 0 : 0"
    marked = text(state, Place(0, 1, as_matrix([[4, 4]]))).splitlines()
    assert marked[0] == "    0         5"
    assert marked[1] == "  0  .*4*4 . . ."
    clash = text(state, Place(1, 2, as_matrix([[4, 4]]))).splitlines()
    assert "!4" in clash[2] and "*4" in clash[2]
    off = text(state, Place(3, 5, as_matrix([[4, 4]]))).splitlines()
    assert off[-1] == "highlighted: [3, 5, ...] 1 of its cells lie off the board"
