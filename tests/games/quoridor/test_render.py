"""The Quoridor renderers: well-formed SVG with walls, pawns, goal rows and highlights; the text board."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET

import pytest

from tests.games.svg import split_legend
from harness.games.quoridor import GAME
from harness.games.quoridor.moves import PASS, Step, Wall
from harness.games.quoridor.render import (COLOURS, HIGHLIGHT, WALL_COLOUR, board_text, svg,
                                           text)
from harness.games.quoridor.rules import RULES, State

NS = "{http://www.w3.org/2000/svg}"


def position() -> State:
    state = State.build(4, 4, [(0, 0), (0, 3)], [("H", 0, 1), ("V", 0, 1)], max_obstacles=5)
    state = RULES.apply(state, Wall.of((2, 2, 3, 2), (2, 3, 3, 3)))  # player A's wall
    return RULES.apply(state, Step(1, 3))


@pytest.mark.parametrize(("highlight", "lines", "circles"), [
    (None, 3, 2),
    (Step(1, 0), 3, 3),  # a ring around the step's target
    (Wall.of((1, 0, 1, 1), (2, 0, 2, 1)), 4, 2),  # the wall, dashed
    (PASS, 3, 2),
    (Wall.of((0, 0, 2, 0), (0, 1, 2, 1)), 3, 2),  # not a wall: nothing to draw
])
def test_svg_is_well_formed(highlight: object, lines: int, circles: int) -> None:
    root = ET.fromstring(svg(position(), highlight))
    assert root.tag == f"{NS}svg"
    assert len(root.findall(f"{NS}line")) == lines  # three walls on the board
    assert len(root.findall(f"{NS}circle")) == circles
    assert {t.text for t in root.findall(f"{NS}text")} >= {"A", "B", "0", "3"}


def test_svg_of_random_positions() -> None:
    settings = RULES.parse_settings({"sizex": 11, "sizey": 6, "start_columns": "random", "initial_walls": {"random": 9}})
    for seed in range(10):
        state = RULES.initial(settings, random.Random(seed))
        root = ET.fromstring(GAME.render(state, None))
        assert len(root.findall(f"{NS}line")) == 9


def legend_of(state: State) -> tuple[list[str], list[ET.Element]]:
    """The labels of the drawing's legend and its swatches' shapes."""
    legend = split_legend(svg(state))[1]
    shapes = [e for g in legend.findall(f"{NS}g") for e in g if e.tag != f"{NS}text"]
    return [t.text or "" for t in legend.findall(f"{NS}text")], shapes


def test_svg_legend_names_pawns_walls_and_the_last_move() -> None:
    labels, shapes = legend_of(position())  # two initial walls, one of A's
    assert labels == ["A, to reach row 3 (tinted)", "B, to reach row 0 (tinted)", "A's wall", "B's wall",
                      "initial wall", "last move: step, wall"]
    assert [e.get("fill") for e in shapes[:2]] == list(COLOURS)  # the pawns
    assert [e.get("stroke") for e in shapes[2:5]] == [*COLOURS, WALL_COLOUR]  # the walls
    assert {e.get("stroke") for e in shapes[5:]} == {HIGHLIGHT} and shapes[-1].get("stroke-dasharray")
    labels, _ = legend_of(RULES.initial(RULES.parse_settings({}), random.Random(1)))
    assert "initial wall" not in labels  # only when the board has some


def test_svg_caption_says_the_ply_the_turn_and_walls_left() -> None:
    words = "".join(ET.fromstring(svg(position())).itertext())
    assert "ply 2; A to move; walls left: A 4, B 5" in words
    won = RULES.apply(State.build(3, 3, [(0, 1), (2, 2)], turn=0), Step(0, 2))
    assert "ply 1; A reached its goal row" in "".join(ET.fromstring(svg(won)).itertext())


@pytest.mark.parametrize("size", [2, 4, 11, 50])
def test_svg_legend_fits_and_grows_with_the_board(size: int) -> None:
    state = RULES.initial(RULES.parse_settings({"sizex": size, "sizey": size}), random.Random(1))
    root = ET.fromstring(svg(state))
    width, height = float(root.get("width") or 0), float(root.get("height") or 0)
    legend = next(g for g in root.findall(f"{NS}g") if g.get("class") == "legend")
    font = float(legend.get("font-size") or 0)
    assert font >= 13 and font >= size * 40 / 34 - 0.01
    for label in legend.findall(f"{NS}text"):
        x, y = float(label.get("x") or 0), float(label.get("y") or 0)
        assert x + 0.52 * font * len(label.text or "") <= width and y <= height


def test_text_board() -> None:
    drawn = board_text(position())
    assert drawn.split("\n") == [
        "    0   1   2   3",  # each number over its cell's middle, where a pawn stands
        "  +---+---+---+---+",
        "0 | A             |",
        "  +   +   +   +   +",
        "1 |   #           |",
        "  +===X===+   +   +",
        "2 |   #       #   |",
        "  +   +   +   #   +",
        "3 |     B     #   |",
        "  +---+---+---+---+",
    ]
    assert text(position()).endswith("\nply 2: A at (0, 0) to row 3 (4 walls left), "
                                     "B at (1, 3) to row 0 (5 walls left); A to move")


def test_text_highlights_and_marks() -> None:
    drawn = board_text(position(), Wall.of((1, 0, 1, 1), (2, 0, 2, 1)), marks={(3, 0): "x"})
    assert drawn.split("\n")[2] == "0 | A           x |"
    assert drawn.split("\n")[3] == "  +   +*******+   +"
    assert "*" in board_text(position(), Step(1, 0)).split("\n")[2]
    assert GAME.render_text is not None and GAME.render_text(position(), None) == text(position())
    legend = "(=== and #: walls; *: the highlighted move, a step or a wall)"
    assert legend in text(position(), Step(1, 0)).split("\n") and legend not in text(position())


def test_the_text_ruler_stands_over_its_columns_on_a_wide_board() -> None:
    state = RULES.initial(RULES.parse_settings({"sizex": 11, "sizey": 11}), random.Random(1))
    ruler, _, row = board_text(state).split("\n")[:3]
    pawn = row.index("A") if "A" in row else row.index("B")
    x = state.pawns[0][0] if "A" in row else state.pawns[1][0]
    assert ruler[pawn] == str(x)[-1], (ruler, row)
    assert ruler.rstrip().endswith("9  10")
