"""Človeče's drawings: the board's geometry, well-formed SVG with the legend and rolls, text."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET

from tests.games.svg import split_legend
from harness.games.clovece import GAME
from harness.games.clovece.render import HOME_CELLS, STABLE_CELLS, TRACK_CELLS, cell_of, svg, text
from harness.games.clovece.rules import RULES, STARTS, Move
from tests.games.clovece.helpers import move, position


def adjacent(a: tuple[int, int], b: tuple[int, int]) -> bool:
    return abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1


def test_the_track_is_a_closed_path_with_homes_and_stables_off_it() -> None:
    assert len(set(TRACK_CELLS)) == 40
    assert all(adjacent(TRACK_CELLS[k], TRACK_CELLS[(k + 1) % 40]) for k in range(40))
    cells = set(TRACK_CELLS)
    for seat in range(4):
        last = TRACK_CELLS[(STARTS[seat] + 39) % 40]
        chain = [last, *HOME_CELLS[seat]]
        assert all(adjacent(a, b) for a, b in zip(chain, chain[1:]))  # 39 -> 40 -> ... -> 43
        assert not cells & set(HOME_CELLS[seat]) and not cells & set(STABLE_CELLS[seat])
        cells |= set(HOME_CELLS[seat]) | set(STABLE_CELLS[seat])
    assert len(cells) == 40 + 32 and (5, 5) not in cells  # the centre is free
    assert TRACK_CELLS[0] == (0, 4) and TRACK_CELLS[10] == (6, 0)  # black left, yellow top (clockwise)
    assert cell_of(1, 0, 4) == TRACK_CELLS[14] and cell_of(1, 0, 44) is None and cell_of(2, 3, None) == (10, 10)


def states() -> list:
    start = RULES.initial(RULES.parse_settings({}), random.Random(1))
    capture = position("yellow", [6, 3], yellow=[4, None, None, None], red=[30, None, None, None],
                       black=[10, None, None, None])
    after = RULES.apply(capture, move("yellow", 0, 10))
    over = position("red", [1], finished=["yellow", "green", "black"], black=(40, 41, 42, 43),
                    yellow=(40, 41, 42, 43), green=(40, 41, 42, 43), red=[39, 41, 42, 43])
    return [(start, None), (capture, None), (after, move("yellow", 0, 10)), (capture, move("yellow", 0, 99)),
            (capture, Move(0, 3, 5)), (capture, Move(7, 9, 5)), (after, None),
            (RULES.apply(over, move("red", 0, 40)), move("red", 0, 40))]


def test_svg_is_well_formed_with_legend_pieces_and_rolls() -> None:
    for state, highlight in states():
        drawing = svg(state, highlight)
        root = ET.fromstring(drawing)
        assert root.tag.endswith("svg")
        assert all(f"seat {s}: {c}" in drawing for s, c in enumerate(("black", "yellow", "green", "red")))
    state, highlight = states()[2]
    drawing = svg(state, highlight)
    assert "last: yellow piece 0 4 -&gt; 10 with a 6," in drawing and "captured red piece 0" in drawing
    assert "yellow to play the 3; rolls 6 [3]" in drawing and 'stroke-dasharray="4 3"' in drawing
    assert "attempted: yellow piece 0 4 -&gt; 99" in svg(*states()[3])
    assert "everyone is home" in svg(*states()[-1])


def test_svg_legend_names_the_cells_and_the_moves_rings() -> None:
    state, highlight = states()[2]
    legend = split_legend(svg(state, highlight))[1]
    words = [t.text for t in legend.iter("{http://www.w3.org/2000/svg}text")]
    assert words == ["start", "home", "stable", "last move: from (dashed), to"]
    rings = [c for c in legend.iter("{http://www.w3.org/2000/svg}circle") if c.get("fill") == "none"]
    assert [bool(c.get("stroke-dasharray")) for c in rings] == [True, False]  # as the board draws them


def test_text_drawing() -> None:
    state, highlight = states()[2]
    drawing = text(state, highlight)
    lines = drawing.splitlines()
    assert len(lines) >= 13 and "B = black (seat 0, start 0)" in lines[11]
    assert lines[6].endswith("[Y0]") and lines[4].count("< .>") == 1  # target (track 20), source (track 14)
    assert lines[9].startswith(" R0  R1")  # the captured red piece is back in its stable
    assert "last: yellow piece 0 4 -> 10 with a 6, captured red piece 0" in drawing
    assert GAME.render_text is text and GAME.render is svg
