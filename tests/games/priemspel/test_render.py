"""PriemSpel's drawing: the track's squares, the pawn, the last jump and the legend."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET

import pytest

from tests.games.svg import split_legend
from harness.games import get_game
from harness.games.priemspel.render import END, PAWN, PRIME, SQUARE, svg
from harness.games.priemspel.rules import RULES, State, is_prime

NS = "{http://www.w3.org/2000/svg}"


def start(n: int = 5, begin: int = 0) -> State:
    return RULES.initial(RULES.parse_settings({"N": n, "start": begin}), random.Random(0))


def parts(state: State, highlight: object = None) -> tuple[ET.Element, ET.Element]:
    """The drawing without its legend, and the legend."""
    return split_legend(svg(state, highlight))


def test_the_track_shades_primes_and_the_end_square() -> None:
    state = start()
    board, _ = parts(state)
    fills = [r.get("fill") for r in board.findall(NS + "rect")]
    assert len(fills) == state.end + 1
    assert fills == [END if i == state.end else PRIME if is_prime(i) else SQUARE for i in range(state.end + 1)]
    assert len(board.findall(NS + "circle")) == 1 and not board.findall(NS + "path")  # the pawn, no jump yet
    moved = RULES.apply(state, 2)
    assert len(parts(moved, 2)[0].findall(NS + "path")) == 1  # the last jump


def test_the_legend_names_every_colour_and_mark() -> None:
    _, legend = parts(start())
    assert [t.text for t in legend.findall(NS + "text")] == ["square", "prime", "end square", "pawn", "last jump"]
    shapes = [e for g in legend.findall(NS + "g") for e in g]
    assert [e.get("fill") for e in shapes[:4]] == [SQUARE, PRIME, END, PAWN] and shapes[4].get("stroke") == PAWN


@pytest.mark.parametrize("n", [2, 5, 9])
def test_the_legend_fits_a_short_or_long_track(n: int) -> None:
    root = ET.fromstring(svg(start(n)))
    width, height = float(root.get("width") or 0), float(root.get("height") or 0)
    _, legend = parts(start(n))
    for label in legend.findall(NS + "text"):
        x, y = float(label.get("x") or 0), float(label.get("y") or 0)
        assert x + 0.52 * 13 * len(label.text or "") <= width and y <= height


def test_the_game_renders_through_its_spec() -> None:
    assert get_game("priemspel").render is svg
