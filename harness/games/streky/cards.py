"""Štreky cards: rotations, card identity up to rotation, and the named and generated card sets.

A card is a matrix of colours: 0 is a cell without colour (it still belongs to the card and
covers the board), 1..4 are colours. Matrices are tuples of tuples inside the referee and lists
of lists on the wire and in settings.

Card sets (the ``cards`` setting):

* ``"course"``: the course's sample self-play cards: seven small cards with colour-0 cells and
  two colours (3x3, 4x4, 5x3), played on 19x23 by default.
* ``"tournament"``: the course tournament's deal: the 48 distinct cards obtained by renaming
  the colours 1..4 of two base cards (a 4x4 one and a 3x5 one) through each of the 24
  permutations of (1, 2, 3, 4), shuffled with the game's generator (the game's seed); the
  first 24 are dealt, the same cards to both players. Played on 33x33 by default.
* ``"random"``: a board size and a card list drawn by :func:`random_deal` from a
  ``random.Random``: seeded by the ``seed`` setting when it is given, otherwise the generator
  the harness passes to ``initial`` (which the harness seeds from the game's seed).
* an explicit list of matrices.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence
from typing import Any

Matrix = tuple[tuple[int, ...], ...]

COLOURS = range(5)  # 0 = no colour, 1..4 = colours

# The course's sample cards (names as in the course's player.py).
C44A: Matrix = ((0, 1, 2, 0), (1, 1, 2, 2), (2, 2, 1, 1), (0, 2, 1, 0))
C44B: Matrix = ((0, 0, 1, 0), (1, 1, 1, 0), (0, 2, 2, 2), (0, 2, 0, 0))
C53B: Matrix = ((0, 1, 0), (0, 1, 0), (0, 1, 0), (0, 1, 1), (0, 0, 0))
C53C: Matrix = ((0, 1, 0), (0, 1, 0), (0, 1, 1), (0, 2, 2), (0, 2, 0))
C33A: Matrix = ((0, 1, 0), (1, 1, 2), (0, 0, 2))
C33B: Matrix = ((0, 2, 0), (0, 2, 0), (0, 2, 0))
C33C: Matrix = ((1, 2, 1), (2, 2, 2), (1, 2, 1))
COURSE: tuple[Matrix, ...] = (C44A, C44B, C33A, C33B, C33C, C53C, C53B)

# The two fully coloured base cards of the course's tournament deal. The 3x5 one is RULES.md's T.
BASE_44: Matrix = ((1, 2, 1, 3), (2, 2, 1, 1), (1, 1, 2, 2), (3, 1, 2, 1))
BASE_35: Matrix = ((1, 2, 1, 3, 4), (2, 2, 1, 3, 3), (3, 2, 1, 3, 2))
TOURNAMENT_DEALT = 24  # cards dealt from the 48

# name -> default board (rows, cols); "random" draws its board unless rows/cols are given.
NAMED_SETS: dict[str, tuple[int, int] | None] = {"course": (19, 23), "tournament": (33, 33), "random": None}


def rotate(m: Matrix) -> Matrix:
    """The card turned 90 degrees counter-clockwise: ``rot(m)[w-1-c][r] = m[r][c]``."""
    h, w = len(m), len(m[0])
    return tuple(tuple(m[r][w - 1 - i] for r in range(h)) for i in range(w))


def rotations(m: Matrix) -> tuple[Matrix, ...]:
    """The distinct rotations of a card (1, 2 or 4 of them), starting with the card itself."""
    found: list[Matrix] = []
    for _ in range(4):
        if m not in found:
            found.append(m)
        m = rotate(m)
    return tuple(found)


def mirror(m: Matrix) -> Matrix:
    """The card flipped left to right (not a legal way to play a card, unless also a rotation)."""
    return tuple(tuple(reversed(row)) for row in m)


def canonical(m: Matrix) -> Matrix:
    """One representative of the card's rotations: two cards are the same card iff equal here."""
    return min(rotations(m))


def as_matrix(rows: Sequence[Sequence[int]]) -> Matrix:
    """A list of lists as an immutable matrix."""
    return tuple(tuple(row) for row in rows)


def as_lists(m: Matrix) -> list[list[int]]:
    """A matrix as the list of lists bots receive and return."""
    return [list(row) for row in m]


def matrix_problem(value: Any, what: str = "the card") -> str | None:
    """Why ``value`` is not a card matrix (exact ints 0..4, rectangular, non-empty), or ``None``."""
    if type(value) not in (list, tuple):
        return f"{what} must be a list of rows, got {_show(value)}"
    if not value:
        return f"{what} must have at least one row, got an empty list"
    width = None
    for r, row in enumerate(value):
        if type(row) not in (list, tuple):
            return f"{what}: row {r} must be a list of ints, got {_show(row)}"
        if not row:
            return f"{what}: row {r} is empty"
        if width is None:
            width = len(row)
        elif len(row) != width:
            return f"{what}: row {r} has {len(row)} cells but row 0 has {width} (rows must be equally long)"
        for c, cell in enumerate(row):
            if type(cell) is not int:
                return f"{what}: cell [{r}][{c}] must be an int 0..4, got {_show(cell)}"
            if cell not in COLOURS:
                return f"{what}: cell [{r}][{c}] is {cell}, but colours are 0..4"
    return None


def recolour(m: Matrix, perm: Sequence[int]) -> Matrix:
    """The card with colour ``c`` (1..4) renamed ``perm[c - 1]``; colour 0 stays 0."""
    return tuple(tuple(perm[v - 1] if v else 0 for v in row) for row in m)


def tournament_set() -> tuple[Matrix, ...]:
    """The course tournament's 48 cards: every distinct recolouring of the two base cards.

    In order: the 4x4 card through the permutations of (1, 2, 3, 4) in lexicographic order,
    then the 3x5 card. All 48 are distinct cards (no two equal even when rotated; tested).
    """
    return tuple(recolour(base, perm) for base in (BASE_44, BASE_35) for perm in itertools.permutations((1, 2, 3, 4)))


def tournament_deal(rng: random.Random) -> tuple[Matrix, ...]:
    """The course's tournament deal: the 48 cards shuffled by ``rng``, the first 24 dealt."""
    cards = list(tournament_set())
    rng.shuffle(cards)
    return tuple(cards[:TOURNAMENT_DEALT])


# Shapes the generator draws from (rows x cols), with weights: mostly the course's sizes,
# plus thin and small cards that exercise bots' edge cases.
_SHAPES = [((3, 3), 4), ((4, 4), 4), ((3, 5), 3), ((5, 3), 3), ((2, 3), 2), ((2, 2), 1),
           ((1, 3), 1), ((2, 4), 1), ((1, 1), 1), ((5, 5), 1)]


def random_card(rng: random.Random) -> Matrix:
    """One random card: a shape, a palette of 1..4 colours and a share of colour-0 cells.

    Never a card without colour (the course never dealt one): if every cell came out 0, one
    drawn cell takes a colour of the palette.
    """
    shapes, weights = zip(*_SHAPES)
    h, w = rng.choices(shapes, weights)[0]
    palette = rng.sample((1, 2, 3, 4), rng.randint(1, 4))
    blank = rng.choice((0.0, 0.0, 0.2, 0.4))
    cells = [[0 if rng.random() < blank else rng.choice(palette) for _ in range(w)] for _ in range(h)]
    if not any(any(row) for row in cells):
        cells[rng.randrange(h)][rng.randrange(w)] = rng.choice(palette)
    return tuple(tuple(row) for row in cells)


def random_deal(rng: random.Random, rows: int | None = None, cols: int | None = None,
                ) -> tuple[int, int, tuple[Matrix, ...]]:
    """A random board (6..33 rows and columns unless given) and 3..24 cards for grading.

    Some cards repeat (a card dealt twice may be played twice); every card fits the board in
    some rotation.
    """
    rows = rows if rows is not None else rng.randint(6, 33)
    cols = cols if cols is not None else rng.randint(6, 33)
    distinct = [random_card(rng) for _ in range(rng.randint(2, 12))]
    distinct = [m for m in distinct if fits_somehow(m, rows, cols)] or [((1,),)]
    extra = max(0, rng.randint(3, 24) - len(distinct))
    cards = distinct + [rng.choice(distinct) for _ in range(extra)]
    rng.shuffle(cards)
    return rows, cols, tuple(cards)


def fits_somehow(m: Matrix, rows: int, cols: int) -> bool:
    """True if some rotation of the card fits on an empty ``rows`` x ``cols`` board."""
    h, w = len(m), len(m[0])
    return (h <= rows and w <= cols) or (w <= rows and h <= cols)


def show_matrix(m: Matrix) -> str:
    """A matrix as a bot would write it: ``[[0,1],[1,1]]``."""
    return "[" + ",".join("[" + ",".join(str(v) for v in row) + "]" for row in m) + "]"


def _show(value: Any) -> str:
    text = repr(value)
    return f"{text[:60]}{'...' if len(text) > 60 else ''} ({type(value).__name__})"
