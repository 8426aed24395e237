"""Blokovanie positions drawn as SVG (cells, last move, legend) and as the seed's text board."""

from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ET

import pytest

from tests.games.svg import split_legend
from harness.games.blokovanie.render import BLOCKED_FILL, FREE_FILL, HIGHLIGHT, svg, text
from harness.games.blokovanie.rules import RULES, State

NS = "{http://www.w3.org/2000/svg}"


def played(rows: int, cols: int, plies: int, seed: int = 1) -> State:
    state = RULES.initial(RULES.parse_settings({"rows": rows, "cols": cols}), random.Random(seed))
    rng = random.Random(seed)
    for _ in range(plies):
        if RULES.is_over(state):
            break
        state = RULES.apply(state, rng.choice(list(RULES.legal_moves(state))))
    return state


def drawing(state: State, highlight: object = None) -> ET.Element:
    """The SVG of ``state`` without its legend (whose swatches look like cells and marks)."""
    return split_legend(svg(state, highlight))[0]


STATES = [played(5, 6, 0), played(5, 6, 2), played(1, 1, 1), played(3, 11, 3), played(12, 4, 2),
          played(50, 50, 30)]


@pytest.mark.parametrize("state", STATES, ids=lambda s: f"{s.rows}x{s.cols}@{s.ply}")
def test_svg_draws_every_cell_free_or_blocked(state: State) -> None:
    root = drawing(state)
    assert root.tag == NS + "svg"
    fills = [r.get("fill") for r in root.iter(NS + "rect") if r.get("width") == "32"]
    cells = "".join(state.lines())
    assert fills.count(FREE_FILL) == cells.count("-") and fills.count(BLOCKED_FILL) == cells.count("X")


def test_svg_highlights_the_last_move_and_its_block() -> None:
    state = RULES.apply(played(5, 6, 0), (4, 5))
    root = drawing(state, (4, 5))
    rings = [c for c in root.iter(NS + "circle") if c.get("stroke") == HIGHLIGHT]
    assert len(rings) == 1
    block = [r for r in root.iter(NS + "rect") if r.get("stroke") == HIGHLIGHT]
    assert len(block) == 1 and (block[0].get("width"), block[0].get("height")) == ("64", "64")  # clipped 2x2


@pytest.mark.parametrize("highlight", [None, (9, 9), (-1, 0), "nonsense", (True, 1), [1, 1]])
def test_svg_without_a_drawable_highlight_draws_none(highlight: object) -> None:
    root = drawing(played(5, 6, 1), highlight)
    assert not [r for r in root.iter(NS + "rect") if r.get("stroke") == HIGHLIGHT]


def test_svg_has_a_legend_and_says_who_moves_or_won() -> None:
    root = ET.fromstring(svg(played(5, 6, 1)))
    legend = next(g for g in root.findall(NS + "g") if g.get("class") == "legend")
    labels = [t.text for t in legend.iter(NS + "text")]
    assert labels == ["free", "blocked", "last move", "the cells it blocked"]
    swatches = [e for g in legend.findall(NS + "g") for e in g]
    assert [e.get("fill") for e in swatches[:2]] == [FREE_FILL, BLOCKED_FILL]
    assert {e.get("stroke") for e in swatches[2:]} == {HIGHLIGHT}
    words = "".join(t.text or "" for t in root.iter(NS + "text"))
    assert "B to move" in words
    end = State.from_lines(["XXX"] * 3, turn=1, ply=1)
    words = "".join(t.text or "" for t in ET.fromstring(svg(end)).iter(NS + "text"))
    assert "0 free; A won" in words


@pytest.mark.parametrize("state", STATES, ids=lambda s: f"{s.rows}x{s.cols}@{s.ply}")
def test_text_is_the_seeds_board_and_nothing_else(state: State) -> None:
    drawn = text(state, (0, 0))
    assert drawn.split("\n") == state.lines()
    assert re.fullmatch(r"[-X]+(\n[-X]+)*", drawn)
    assert len(drawn.split("\n")) == state.rows and {len(line) for line in drawn.split("\n")} == {state.cols}


def test_text_of_the_seeds_position() -> None:
    state = State.from_lines(["XXX---", "XXX---", "XXX---", "----XX", "----XX"])
    assert text(state) == "XXX---\nXXX---\nXXX---\n----XX\n----XX"


@pytest.mark.parametrize("state", [played(1, 1, 0), played(5, 6, 0), played(50, 50, 0)],
                         ids=lambda s: f"{s.rows}x{s.cols}")
def test_the_legend_fits_and_grows_with_the_board(state: State) -> None:
    root = ET.fromstring(svg(state))
    width, height = float(root.get("width") or 0), float(root.get("height") or 0)
    legend = next(g for g in root.findall(NS + "g") if g.get("class") == "legend")
    font = float(legend.get("font-size") or 0)
    assert font >= 13 and font >= state.cols * 32 / 34 - 0.01  # readable when scaled to fit
    for text in legend.iter(NS + "text"):
        x, y = float(text.get("x") or 0), float(text.get("y") or 0)
        assert x + 0.52 * font * len(text.text or "") <= width and y <= height  # inside the drawing
