"""Štreky positions drawn as SVG (well-formed, the course's colours) and as text."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET

import pytest

from tests.games.svg import split_legend
from harness.games import get_game
from harness.games.streky.cards import as_matrix
from harness.games.streky.placements import PASS, Place
from harness.games.streky.render import FRAME, PALETTE, REJECTED, svg, text
from harness.games.streky.rules import RULES, State, new_game

NS = "{http://www.w3.org/2000/svg}"


def midgame(settings: dict | None = None, plies: int = 12) -> State:
    state = RULES.initial(RULES.parse_settings(settings or {"cards": "tournament"}), random.Random(2))
    rng = random.Random(2)
    for _ in range(plies):
        moves = RULES.legal_moves(state)
        state = RULES.apply(state, moves[rng.randrange(len(moves))])
    return state


def drawing(state: State, highlight: object = None) -> ET.Element:
    """The SVG of ``state`` without its legend (whose swatches look like cards and frames)."""
    return split_legend(svg(state, highlight))[0]


def test_the_game_renders_through_its_spec() -> None:
    game = get_game("streky")
    assert game.render is svg and game.render_text is text
    assert game.submission.ascii_only and game.interface.required_methods == ("play",) and dict(game.wire_classes) == {}


@pytest.mark.parametrize("state", [new_game(3, 4, [as_matrix([[1]])]), midgame(), midgame({}, 9)])
def test_svg_is_well_formed_and_draws_every_card_cell(state: State) -> None:
    root = drawing(state)
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
        root = drawing(state, highlight)
        frames = [r for r in root.iter(NS + "rect") if r.get("stroke") == "#E6007E"]
        assert len(frames) == 1 and frames[0].get("width") == str(len(last.matrix[0]) * 20)


def test_a_rejected_move_is_drawn_on_top_with_a_dashed_frame() -> None:
    state = midgame()
    last = state.placed[-1]
    overlapping = Place(last.row, last.col, ((1, 2), (3, 4)))
    root = drawing(state, overlapping)
    dashed = [r for r in root.iter(NS + "rect") if r.get("stroke-dasharray")]
    assert len(dashed) == 1
    assert len(drawing(state).findall(NS + "g")) == 0 and len(root.findall(NS + "g")) == 1


@pytest.mark.parametrize("highlight", [None, PASS, "junk", [1, 2], [1.5, 2, [[1]]], [0, 0, [[1], [1, 2]]]])
def test_unusable_highlights_are_ignored(highlight: object) -> None:
    state = midgame()
    assert svg(state, highlight) == svg(state)


def test_the_legend_names_the_colours_the_cells_and_the_frames() -> None:
    root = ET.fromstring(svg(midgame()))
    legend = next(g for g in root.findall(NS + "g") if g.get("class") == "legend")
    labels = [t.text for t in legend.iter(NS + "text")]
    assert labels[:4] == ["1", "2", "3", "4"]  # the numbered swatches of colours 1..4
    assert labels[4:] == ["colours 1-4", "0", "colour 0 (never joins a region)", "empty",
                          "a card, dot on its top-left cell", "last card", "rejected card"]
    fills = [e.get("fill") for e in legend.iter(NS + "rect")]
    assert fills[:5] == [PALETTE[1], PALETTE[2], PALETTE[3], PALETTE[4], PALETTE[0]]
    strokes = {e.get("stroke"): e.get("stroke-dasharray") for e in legend.iter(NS + "rect")}
    assert strokes[FRAME] is None and strokes[REJECTED]  # solid: last card; dashed: rejected


@pytest.mark.parametrize("state", [new_game(1, 1, [as_matrix([[1]])]), midgame(),
                                   new_game(100, 100, [as_matrix([[1]])])], ids=["1x1", "33x33", "100x100"])
def test_the_legend_fits_and_grows_with_the_board(state: State) -> None:
    root = ET.fromstring(svg(state))
    width, height = float(root.get("width") or 0), float(root.get("height") or 0)
    font = float(root.get("font-size") or 0)
    assert font >= 13 and font >= state.cols * 20 / 34 - 0.01  # still readable when a big board is scaled to fit
    legend = next(g for g in root.findall(NS + "g") if g.get("class") == "legend")
    for label in legend.findall(NS + "text"):
        x, y = float(label.get("x") or 0), float(label.get("y") or 0)
        assert x + 0.52 * font * len(label.text or "") <= width and y <= height  # inside the drawing


def test_the_caption_says_the_real_size_of_a_drawn_board() -> None:
    settings = RULES.parse_settings({"cards": "random"})
    assert settings["rows"] is None and settings["cols"] is None  # the deal draws them
    state = RULES.initial(settings, random.Random(5))
    words = "".join(ET.fromstring(svg(state)).itertext())
    assert f"board {state.rows} \u00d7 {state.cols}, ply 0, score 0 : 0" in words


def test_text_board() -> None:
    state = new_game(4, 6, [as_matrix([[1, 0], [2, 3]])])
    state = RULES.apply(state, Place(1, 1, as_matrix([[1, 0], [2, 3]])))
    drawing = text(state)
    lines = drawing.splitlines()
    assert lines[2] == "  1  . 1 0 . . ."
    assert lines[3] == "  2  . 2 3 . . ."
    assert lines[-1] == "ply 1, score 0 : 0"
    marked = text(state, Place(0, 1, as_matrix([[4, 4]]))).splitlines()
    assert marked[0] == "     0         5"  # each number's last digit above its column's values
    assert marked[1] == "  0  .*4*4 . . ."
    assert marked[-1] == "(*N: a cell of the highlighted card, colour N)"
    clash = text(state, Place(1, 2, as_matrix([[4, 4]]))).splitlines()
    assert "!4" in clash[2] and "*4" in clash[2]
    assert clash[-1] == "(*N: a cell of the highlighted card, colour N; !N: on a placed card)"
    off = text(state, Place(3, 5, as_matrix([[4, 4]]))).splitlines()
    assert off[-2] == "highlighted: [3, 5, ...] 1 of its cells lie off the board"


def test_the_text_ruler_stands_over_its_columns() -> None:
    card = as_matrix([[1, 0], [2, 3]])
    state = new_game(3, 28, [card])
    for c in (0, 5, 10, 15, 25):
        ruler, row = text(state, Place(0, c, card)).splitlines()[:2]
        at = row.index("*1") + 1  # the value of the marked card's first cell, in column c
        assert at == 5 + 2 * c and ruler[at] == str(c)[-1], (c, ruler, row)
