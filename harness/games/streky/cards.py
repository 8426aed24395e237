"""Štreky cards: rotations, card identity up to rotation, and the named and generated card sets.

A card is a matrix of colours: 0 is a cell without colour (it still belongs to the card and
covers the board), 1..4 are colours. Matrices are tuples of tuples inside the referee and lists
of lists on the wire and in settings.

Card sets (the ``cards`` setting):

* ``"course"``: the course's sample self-play cards: seven small cards with colour-0 cells and
  two colours (3x3, 4x4, 5x3), played on 19x23 by default.
* ``"tournament"``: the course tournament manager's deal: the 48 distinct recolourings of two
  base cards (a 4x4 one and a 3x5 one) by the permutations of 1..4, shuffled and sampled by the
  game's seed exactly as the manager did (:func:`tournament_deal`), so a course tournament game
  is replayed by its seed. Played on 33x33 by default.
* ``"random"``: a grading deal inside the envelope of the course's known deals
  (:func:`random_deal`): a board of 19..33 a side, 7..24 cards of 3..5 cells a side drawn as
  path fragments, no one-colour region over 60 % of a card. Seeded by the ``seed`` setting when
  it is given, otherwise by the generator the harness passes to ``initial`` (the game's seed).
* ``"stress"``: the harness's earlier generator (:func:`stress_deal`): 1x1, thin and solid cards
  on 6..33 boards, for stress tests of bots and the referee, not for grading.
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

# name -> default board (rows, cols); "random" and "stress" draw theirs unless rows/cols are given.
NAMED_SETS: dict[str, tuple[int, int] | None] = {"course": (19, 23), "tournament": (33, 33), "random": None,
                                                  "stress": None}


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


def recolourings(m: Matrix) -> list[Matrix]:
    """The manager's ``recolour``: ``m`` through every permutation of ``'1234'`` in
    :func:`itertools.permutations` order, keeping the first of identical results."""
    found: list[Matrix] = []
    for perm in itertools.permutations((1, 2, 3, 4)):
        card = recolour(m, perm)
        if card not in found:
            found.append(card)
    return found


def tournament_set() -> tuple[Matrix, ...]:
    """The course tournament's 48 cards, in the manager's order before its shuffle.

    The recolourings of the 4x4 base card, then those of the 3x5 one. The manager then drops
    duplicates keeping the first; no card of one base can equal one of the other (their shapes
    differ), so that step changes nothing (all 48 are distinct, even when rotated; tested).
    """
    return tuple(recolourings(BASE_44) + recolourings(BASE_35))


def tournament_deal(rng: random.Random) -> tuple[Matrix, ...]:
    """The course manager's deal for seed ``s`` when ``rng`` is a fresh ``random.Random(s)``.

    The manager calls ``random.seed(s)``, ``random.shuffle(cards)`` and then
    ``random.sample(cards, len(cards) // 2)``. The module-level functions are methods of one
    hidden ``random.Random``, so a fresh ``random.Random(s)`` draws exactly the same (a test
    checks it against the global functions).
    """
    cards = list(tournament_set())
    rng.shuffle(cards)
    return tuple(rng.sample(cards, len(cards) // 2))


# ---- the grading deal: boards and cards like the course's ---------------------------------
BOARD_SIDES = (19, 33)  # the course's known boards are 19x23 and 33x33
CARD_SIDES = (3, 4, 5)  # every known card is 3 to 5 cells a side
MAX_REGION = 0.6  # no same-colour region covers more than this share of its card
MIN_COLOURED = 3  # a card shows at least one path of three cells (C33B's straight line)
DEALT = (7, 24)  # cards dealt: the course's sample deals 7, its tournament 24
DISTINCT = 3  # at least this many different cards in a deal (some are dealt more than once)


def card_problem(m: Matrix) -> str | None:
    """Why ``m`` is outside the course's card envelope, or ``None``.

    The envelope: 3 to 5 cells a side, colours 0..4, at least :data:`MIN_COLOURED` coloured
    cells, and no 4-connected region of one colour covering more than :data:`MAX_REGION` of
    the card (so a card is never solid).
    """
    h, w = len(m), len(m[0])
    if h not in CARD_SIDES or w not in CARD_SIDES:
        return f"a {h}x{w} card: sides are 3 to 5 cells"
    coloured = sum(1 for row in m for v in row if v)
    if coloured < MIN_COLOURED:
        return f"{coloured} coloured cells: at least {MIN_COLOURED}"
    largest = max(regions(m), default=0)
    if largest > MAX_REGION * h * w:
        return f"a one-colour region of {largest} of its {h * w} cells: at most {MAX_REGION:.0%}"
    return None


def regions(m: Matrix) -> list[int]:
    """The sizes of the card's 4-connected one-colour regions (colour 0 is no region)."""
    h, w = len(m), len(m[0])
    seen: set[tuple[int, int]] = set()
    sizes = []
    for r0 in range(h):
        for c0 in range(w):
            if not m[r0][c0] or (r0, c0) in seen:
                continue
            seen.add((r0, c0))
            stack, size = [(r0, c0)], 0
            while stack:
                r, c = stack.pop()
                size += 1
                for nr, nc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                    if 0 <= nr < h and 0 <= nc < w and (nr, nc) not in seen and m[nr][nc] == m[r0][c0]:
                        seen.add((nr, nc))
                        stack.append((nr, nc))
            sizes.append(size)
    return sizes


def _path(rng: random.Random, grid: list[list[int]], colour: int, length: int, thin: bool) -> None:
    """Draw one path fragment of up to ``length`` cells in ``colour`` on the free cells of ``grid``.

    It enters from a free border cell when there is one (paths run on from card to card), goes
    straight ahead more often than it turns, and stops early when it is boxed in. A ``thin``
    path never steps next to a cell of its own colour other than the one it comes from, so it
    stays a line one cell wide, as on the course's sample cards.
    """
    h, w = len(grid), len(grid[0])
    steps = ((1, 0), (-1, 0), (0, 1), (0, -1))

    def open_(r: int, c: int, came: tuple[int, int] | None) -> bool:
        if not (0 <= r < h and 0 <= c < w) or grid[r][c]:
            return False
        return not thin or all(not (0 <= r + dr < h and 0 <= c + dc < w) or grid[r + dr][c + dc] != colour
                               or (r + dr, c + dc) == came for dr, dc in steps)

    starts = [(r, c) for r in range(h) for c in range(w) if open_(r, c, None)]
    border = [(r, c) for r, c in starts if r in (0, h - 1) or c in (0, w - 1)]
    if not starts:
        return
    r, c = rng.choice(border or starts)
    # inwards from a border cell (any way from an inner one)
    heading = ((1, 0) if r == 0 else (-1, 0) if r == h - 1 else (0, 1) if c == 0 else (0, -1) if c == w - 1
               else rng.choice(steps))
    grid[r][c] = colour
    for _ in range(length - 1):
        ways = [(dr, dc) for dr, dc in steps if open_(r + dr, c + dc, (r, c))]
        if not ways:
            return
        heading = heading if heading in ways and rng.random() < 0.6 else rng.choice(ways)
        r, c = r + heading[0], c + heading[1]
        grid[r][c] = colour


def random_card(rng: random.Random, shapes: Sequence[tuple[int, int]] | None = None) -> Matrix:
    """One card like the course's: path fragments in colours 1..4 on a 3..5 x 3..5 card.

    One to four thin paths, each of one colour (two may share one), drawn by :func:`_path`, with
    colour-0 cells between them, as on the sample cards; in one card of five the paths go on
    until the card is full, as on the tournament's base cards. A card outside
    :func:`card_problem`'s envelope is drawn again.
    """
    shapes = shapes or [(h, w) for h in CARD_SIDES for w in CARD_SIDES]
    while True:
        h, w = rng.choice(shapes)
        grid = [[0] * w for _ in range(h)]
        full = rng.random() < 0.2
        paths, wanted = 0, rng.randint(1, 4)
        while paths < wanted or (full and any(0 in row for row in grid)):
            _path(rng, grid, rng.randint(1, 4), rng.randint(MIN_COLOURED, max(h, w) + 1), thin=not full)
            paths += 1
        card = tuple(tuple(row) for row in grid)
        if card_problem(card) is None:
            return card


def random_deal(rng: random.Random, rows: int | None = None, cols: int | None = None,
                ) -> tuple[int, int, tuple[Matrix, ...]]:
    """A grading deal like the course's: a board of 19..33 a side (unless given) and 7..24 cards.

    Cards come from :func:`random_card`, in the shapes that fit the board in some rotation; at
    least :data:`DISTINCT` different ones, the rest repeats (a card dealt twice may be played
    twice). A board given smaller than 3 cells a side holds no such card: ``ValueError``.
    """
    rows = rows if rows is not None else rng.randint(*BOARD_SIDES)
    cols = cols if cols is not None else rng.randint(*BOARD_SIDES)
    shapes = [(h, w) for h in CARD_SIDES for w in CARD_SIDES if fits_somehow(((0,) * w,) * h, rows, cols)]
    if not shapes:
        raise ValueError(f"no card of 3 to 5 cells a side fits a {rows}x{cols} board")
    count = rng.randint(*DEALT)
    wanted = rng.randint(DISTINCT, min(12, count))
    distinct: list[Matrix] = []
    seen: set[Matrix] = set()
    while len(distinct) < wanted:
        card = random_card(rng, shapes)
        if canonical(card) not in seen:  # a different card, not a rotation of one already drawn
            seen.add(canonical(card))
            distinct.append(card)
    cards = distinct + [rng.choice(distinct) for _ in range(count - len(distinct))]
    rng.shuffle(cards)
    return rows, cols, tuple(cards)


# ---- the stress deal: the harness's earlier generator, for edge cases ----------------------
# Shapes it draws from (rows x cols), with weights: the course's sizes plus thin and tiny cards.
_STRESS_SHAPES = [((3, 3), 4), ((4, 4), 4), ((3, 5), 3), ((5, 3), 3), ((2, 3), 2), ((2, 2), 1),
                  ((1, 3), 1), ((2, 4), 1), ((1, 1), 1), ((5, 5), 1)]


def stress_card(rng: random.Random) -> Matrix:
    """One card of any shape of :data:`_STRESS_SHAPES`: a palette of 1..4 colours, some blanks.

    Unlike the course's cards it may be 1x1, thin, or solid; never without colour.
    """
    shapes, weights = zip(*_STRESS_SHAPES)
    h, w = rng.choices(shapes, weights)[0]
    palette = rng.sample((1, 2, 3, 4), rng.randint(1, 4))
    blank = rng.choice((0.0, 0.0, 0.2, 0.4))
    cells = [[0 if rng.random() < blank else rng.choice(palette) for _ in range(w)] for _ in range(h)]
    if not any(any(row) for row in cells):
        cells[rng.randrange(h)][rng.randrange(w)] = rng.choice(palette)
    return tuple(tuple(row) for row in cells)


def stress_deal(rng: random.Random, rows: int | None = None, cols: int | None = None,
                ) -> tuple[int, int, tuple[Matrix, ...]]:
    """Edge cases for bots and the referee: a 6..33 board (unless given), 3..24 cards of
    :func:`stress_card`, every one fitting the board in some rotation, some repeated."""
    rows = rows if rows is not None else rng.randint(6, 33)
    cols = cols if cols is not None else rng.randint(6, 33)
    distinct = [stress_card(rng) for _ in range(rng.randint(2, 12))]
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
