"""The Quoridor renderers: well-formed SVG with walls, pawns, goal rows and highlights; the text board."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET

import pytest

from harness.games.quoridor import GAME
from harness.games.quoridor.moves import PASS, Step, Wall
from harness.games.quoridor.render import board_text, svg, text
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


def test_text_board() -> None:
    drawn = board_text(position())
    assert drawn.split("\n") == [
        "   0   1   2   3",
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
