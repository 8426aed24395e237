"""Štreky (seed 003): the pure referee, with the readings of RULES.md.

* A card covers its whole rectangle, colour-0 cells included; cards never overlap.
* Except for the very first card, a card must touch a placed card along an edge (corner-only
  contact is not enough); colours need not match.
* The matrix must be one of the four counter-clockwise rotations of one of the mover's unused
  dealt cards (a mirror image is not a rotation); a card dealt k times may be played k times.
  Cards equal up to rotation are the same card.
* A player must place a card when a legal placement exists; the game ends when both players
  pass in a row (then neither can place).
* Scoring: the 4-connected regions of one colour (1..4; colour 0 never connects) that contain
  a cell of the new card and a cell placed earlier score their full size after the move, each
  region once. The higher total wins; equal totals are a draw.

Moves are :class:`~harness.games.streky.placements.Place` (``[row, col, matrix]`` on the wire)
or :data:`~harness.games.streky.placements.PASS` (``[]`` from a bot, ``null`` in records).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from harness.games.base import SettingsError
from harness.games.streky.cards import (
    CARD_SIDES,
    COURSE,
    NAMED_SETS,
    Matrix,
    as_lists,
    as_matrix,
    canonical,
    fits_somehow,
    matrix_problem,
    mirror,
    random_deal,
    rotations,
    show_matrix,
    stress_deal,
    tournament_deal,
    tournament_set,
)
from harness.games.streky.placements import PASS, Occupancy, Pass, Place, Placements

Move = Place | Pass

MAX_SIDE = 100  # board rows/cols
MAX_CARDS = 200
EXPLICIT_BOARD = (19, 23)  # the board for an explicit card list when rows/cols are not given
DRAWN = {"random": random_deal, "stress": stress_deal}  # the card sets a generator deals


class Deck:
    """The dealt cards (the same list for both players) grouped into cards equal up to rotation."""

    def __init__(self, cards: Sequence[Matrix]) -> None:
        self.cards = tuple(cards)
        classes: list[Matrix] = []
        first: list[int] = []
        dealt: list[int] = []
        index: dict[Matrix, int] = {}
        for i, card in enumerate(self.cards):
            key = canonical(card)
            if key not in index:
                index[key] = len(classes)
                classes.append(key)
                first.append(i)
                dealt.append(0)
            dealt[index[key]] += 1
        self.classes = tuple(classes)
        self.first_index = tuple(first)  # the first dealt card of each class (its number for messages)
        self.dealt = tuple(dealt)
        # Each class's distinct rotations, starting from the dealt orientation.
        self.orientations = tuple(rotations(self.cards[i]) for i in first)
        self.class_of = {m: k for k, ms in enumerate(self.orientations) for m in ms}
        self.mirrors = {m: k for k, ms in enumerate(self.orientations) for m in rotations(mirror(ms[0]))
                        if m not in self.class_of}


class PlacedCard(NamedTuple):
    """A card on the board: when (1-based ply), by whom, where, and what it scored."""

    ply: int
    player: int
    row: int
    col: int
    matrix: Matrix
    gain: int


@dataclass(frozen=True, eq=False)
class State:
    """A Štreky position. Never mutated: :meth:`StrekyRules.apply` builds a new one.

    ``colour`` and ``ply_at`` are row-major boards (``row * cols + col``): the colour of each
    cell (-1 where empty) and the ply that covered it (0 where empty). ``left[p][k]`` is how
    many cards of class ``k`` player ``p`` may still play.
    """

    rows: int
    cols: int
    deck: Deck
    colour: tuple[int, ...]
    ply_at: tuple[int, ...]
    placed: tuple[PlacedCard, ...] = ()
    left: tuple[tuple[int, ...], ...] = ()
    points: tuple[int, int] = (0, 0)
    turn: int = 0
    passes: int = 0  # consecutive passes just made
    ply: int = 0  # moves made so far (passes included)
    masks: tuple[int, ...] = ()  # occupied cells, one bitmask per row (bit c = column c)
    _cache: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)

    def occupancy(self) -> Occupancy:
        """Prefix sums of the occupied cells (computed once per state)."""
        occ = self._cache.get("occ")
        if occ is None:
            occ = self._cache["occ"] = Occupancy(self.rows, self.cols, self.masks)
        return occ

    def unused(self, player: int) -> list[Matrix]:
        """One card of each class ``player`` may still play, in deck order (dealt orientation)."""
        return [self.deck.orientations[k][0] for k, n in enumerate(self.left[player]) if n > 0]

    def placements(self, player: int) -> Placements:
        """Every legal placement of ``player`` in this position (cached per player)."""
        key = f"placements{player}"
        found = self._cache.get(key)
        if found is None:
            by_shape: dict[tuple[int, int], list[Matrix]] = {}
            for k, n in enumerate(self.left[player]):
                if n > 0:
                    for m in self.deck.orientations[k]:
                        by_shape.setdefault((len(m), len(m[0])), []).append(m)
            occ = self.occupancy()
            found = self._cache[key] = Placements([(occ.anchors(h, w), by_shape[(h, w)]) for h, w in sorted(by_shape)])
        return found

    def first_placement(self, player: int) -> Place | None:
        """Some legal placement of ``player`` (the first in listing order), or ``None``."""
        found = self.placements(player)
        return found[0] if len(found) else None


class StrekyRules:
    """The referee. See the module docstring for the rules it implements."""

    # ---- settings ------------------------------------------------------------------------
    def parse_settings(self, raw: Mapping[str, Any]) -> dict[str, Any]:
        """Settings: ``cards`` (default ``"course"``), ``rows``, ``cols``, ``seed``.

        ``cards`` is ``"course"`` (19x23 by default), ``"tournament"`` (33x33), ``"random"``,
        ``"stress"`` or an explicit list of card matrices (19x23 by default); see
        :mod:`harness.games.streky.cards`. ``rows``/``cols`` (1..100) override the set's board;
        left out with ``"random"`` or ``"stress"`` they are drawn too. ``seed`` (only with those
        two) fixes the deal; without it the deal comes from the game's generator, i.e. the
        game's seed.
        """
        known = ("rows", "cols", "cards", "seed")
        unknown = sorted(set(raw) - set(known))
        if unknown:
            raise SettingsError(f"unknown setting {unknown[0]!r} (known: {', '.join(known)})")
        cards = raw.get("cards", "course")
        if isinstance(cards, str):
            if cards not in NAMED_SETS:
                raise SettingsError(f"cards: unknown card set {cards!r} (named sets: {', '.join(NAMED_SETS)}; "
                                    f"or a list of card matrices)")
            board = NAMED_SETS[cards]
            matrices: tuple[Matrix, ...] = COURSE if cards == "course" else tournament_set()
        elif isinstance(cards, list):
            if not cards:
                raise SettingsError("cards: the list of cards is empty")
            if len(cards) > MAX_CARDS:
                raise SettingsError(f"cards: at most {MAX_CARDS} cards, got {len(cards)}")
            for i, card in enumerate(cards):
                problem = matrix_problem(card, f"cards[{i}]")
                if problem:
                    raise SettingsError(problem)
            board = EXPLICIT_BOARD
            matrices = tuple(as_matrix(c) for c in cards)
        else:
            raise SettingsError(f"cards: a card set name or a list of card matrices, got {cards!r}")
        sides = {}
        for i, key in enumerate(("rows", "cols")):
            value = raw.get(key)
            if value is None:
                value = None if board is None else board[i]
            elif type(value) is not int or not 1 <= value <= MAX_SIDE:
                raise SettingsError(f"{key}: an integer 1..{MAX_SIDE}, got {value!r}")
            sides[key] = value
        seed = raw.get("seed")
        if seed is not None and (type(seed) is not int):
            raise SettingsError(f"seed: an integer or null, got {seed!r}")
        drawn = isinstance(cards, str) and cards in DRAWN
        if seed is not None and not drawn:
            raise SettingsError("seed: only the random and stress card sets use a seed (set cards: random)")
        rows, cols = sides["rows"], sides["cols"]
        if cards == "random":
            for key in ("rows", "cols"):
                if sides[key] is not None and sides[key] < min(CARD_SIDES):
                    raise SettingsError(f"{key}: the random cards are {min(CARD_SIDES)} to {max(CARD_SIDES)} "
                                        f"cells a side, so the board needs at least {min(CARD_SIDES)}, "
                                        f"got {sides[key]} (cards: stress deals smaller cards)")
        if rows is not None and cols is not None and not drawn:
            for i, m in enumerate(matrices):
                if not fits_somehow(m, rows, cols):
                    raise SettingsError(f"cards: card {i} ({len(m)}x{len(m[0])}) fits the "
                                        f"{rows}x{cols} board in no rotation")
        return {"rows": sides["rows"], "cols": sides["cols"],
                "cards": cards if isinstance(cards, str) else [as_lists(m) for m in matrices], "seed": seed}

    def deal(self, settings: Mapping[str, Any], rng: random.Random) -> tuple[int, int, tuple[Matrix, ...]]:
        """The board size and the card list of a game with normalised ``settings``."""
        cards = settings["cards"]
        if isinstance(cards, str) and cards in DRAWN:
            gen = random.Random(settings["seed"]) if settings["seed"] is not None else rng
            return DRAWN[cards](gen, settings["rows"], settings["cols"])
        if cards == "course":
            return settings["rows"], settings["cols"], COURSE
        if cards == "tournament":
            return settings["rows"], settings["cols"], tournament_deal(rng)
        return settings["rows"], settings["cols"], tuple(as_matrix(m) for m in cards)

    def initial(self, settings: Mapping[str, Any], rng: random.Random) -> State:
        rows, cols, cards = self.deal(settings, rng)
        return new_game(rows, cols, cards)

    def resolved_settings(self, settings: Mapping[str, Any], state: State) -> dict[str, Any]:
        """The board and the dealt cards, in the order dealt: a named or drawn set as played."""
        return {"rows": state.rows, "cols": state.cols, "cards": [as_lists(m) for m in state.deck.cards],
                "seed": None}

    # ---- the game ------------------------------------------------------------------------
    def to_move(self, state: State) -> int:
        return state.turn

    def legal_moves(self, state: State) -> Sequence[Move]:
        found = state.placements(state.turn)
        return found if len(found) else (PASS,)

    def check(self, state: State, move: Move) -> str | None:
        if isinstance(move, Pass):
            example = state.first_placement(state.turn)
            if example is None:
                return None
            return (f"passed ([]) although a legal placement exists, e.g. "
                    f"[{example.row}, {example.col}, {show_matrix(example.matrix)}]: a player must place a card when it can")
        if not isinstance(move, Place):
            return f"not a move: {move!r}"
        problem = matrix_problem(move.matrix)
        if problem:
            return problem
        if type(move.row) is not int or type(move.col) is not int:
            return f"row and col must be ints, got {move.row!r} and {move.col!r}"
        return (_off_board(state, move) or _overlap(state, move) or _no_contact(state, move)
                or _not_your_card(state, move))

    def apply(self, state: State, move: Move) -> State:
        if isinstance(move, Pass):
            return State(state.rows, state.cols, state.deck, state.colour, state.ply_at, state.placed, state.left,
                         state.points, 1 - state.turn, state.passes + 1, state.ply + 1, state.masks)
        ply = state.ply + 1
        colour, ply_at = list(state.colour), list(state.ply_at)
        cols = state.cols
        for dr, line in enumerate(move.matrix):
            base = (move.row + dr) * cols + move.col
            for dc, value in enumerate(line):
                colour[base + dc] = value
                ply_at[base + dc] = ply
        masks = list(state.masks)
        bits = ((1 << move.width) - 1) << move.col
        for dr in range(move.height):
            masks[move.row + dr] |= bits
        gain = region_gain(colour, ply_at, state.rows, cols, move, ply)
        k = state.deck.class_of[move.matrix]
        left = list(state.left)
        mine = list(left[state.turn])
        mine[k] -= 1
        left[state.turn] = tuple(mine)
        points = list(state.points)
        points[state.turn] += gain
        placed = (*state.placed, PlacedCard(ply, state.turn, move.row, move.col, move.matrix, gain))
        return State(state.rows, cols, state.deck, tuple(colour), tuple(ply_at), placed, tuple(left),
                     (points[0], points[1]), 1 - state.turn, 0, ply, tuple(masks))

    def is_over(self, state: State) -> bool:
        return state.passes >= 2

    def scores(self, state: State) -> tuple[float, ...]:
        return (float(state.points[0]), float(state.points[1]))

    def winner(self, state: State) -> int | None:
        a, b = state.points
        return None if a == b else (0 if a > b else 1)

    # ---- records -------------------------------------------------------------------------
    def move_to_json(self, move: Move) -> Any:
        if isinstance(move, Pass):
            return None
        return [move.row, move.col, as_lists(move.matrix)]

    def move_from_json(self, data: Any) -> Move:
        if data is None:
            return PASS
        if not isinstance(data, list) or len(data) != 3 or type(data[0]) is not int or type(data[1]) is not int:
            raise ValueError(f"a Štreky move is null or [row, col, matrix], got {data!r}")
        problem = matrix_problem(data[2])
        if problem:
            raise ValueError(problem)
        return Place(data[0], data[1], as_matrix(data[2]))


def new_game(rows: int, cols: int, cards: Sequence[Matrix]) -> State:
    """The empty board with both players dealt ``cards``."""
    deck = Deck(cards)
    return State(rows, cols, deck, (-1,) * (rows * cols), (0,) * (rows * cols), (), (deck.dealt, deck.dealt),
                 masks=(0,) * rows)


def region_gain(colour: Sequence[int], ply_at: Sequence[int], rows: int, cols: int, move: Place, ply: int) -> int:
    """Points for ``move`` (already written with ply number ``ply``): see the module docstring."""
    seen: set[int] = set()
    gain = 0
    for dr, line in enumerate(move.matrix):
        for dc, value in enumerate(line):
            start = (move.row + dr) * cols + move.col + dc
            if value == 0 or start in seen:
                continue
            seen.add(start)
            stack, size, old = [start], 0, False
            while stack:
                i = stack.pop()
                size += 1
                if ply_at[i] != ply:
                    old = True
                r, c = divmod(i, cols)
                for j, ok in ((i - cols, r > 0), (i + cols, r < rows - 1), (i - 1, c > 0), (i + 1, c < cols - 1)):
                    if ok and j not in seen and colour[j] == value:
                        seen.add(j)
                        stack.append(j)
            if old:
                gain += size
    return gain


# ---- the reasons ---------------------------------------------------------------------------
def _off_board(state: State, move: Place) -> str | None:
    h, w = move.height, move.width
    R, C = state.rows, state.cols
    where = f"a {h}x{w} card at ({move.row}, {move.col})"
    if move.row < 0 or move.col < 0:
        return f"{where} is off the board: row and col must be at least 0"
    if move.row + h > R or move.col + w > C:
        parts = []
        if move.row + h > R:
            parts.append(f"rows {move.row}..{move.row + h - 1} (the last row is {R - 1})")
        if move.col + w > C:
            parts.append(f"cols {move.col}..{move.col + w - 1} (the last col is {C - 1})")
        return f"{where} does not fit on the {R}x{C} board: it would cover {' and '.join(parts)}"
    return None


def _overlap(state: State, move: Place) -> str | None:
    cols = state.cols
    for dr in range(move.height):
        for dc in range(move.width):
            i = (move.row + dr) * cols + move.col + dc
            if state.ply_at[i]:
                r, c = divmod(i, cols)
                zero = " (a colour-0 cell: cards never overlap, whatever the colours)" if state.colour[i] == 0 else ""
                return (f"card at ({move.row}, {move.col}) overlaps the card placed at ply {state.ply_at[i]} "
                        f"at cell ({r}, {c}){zero}")
    return None


def _no_contact(state: State, move: Place) -> str | None:
    if not state.placed:
        return None  # the first card may go anywhere
    R, C, ply_at = state.rows, state.cols, state.ply_at
    r0, c0, r1, c1 = move.row, move.col, move.row + move.height, move.col + move.width
    ring = [(r0 - 1, c) for c in range(c0, c1)] + [(r1, c) for c in range(c0, c1)]
    ring += [(r, c0 - 1) for r in range(r0, r1)] + [(r, c1) for r in range(r0, r1)]
    if any(0 <= r < R and 0 <= c < C and ply_at[r * C + c] for r, c in ring):
        return None
    corners = [(r, c) for r, c in ((r0 - 1, c0 - 1), (r0 - 1, c1), (r1, c0 - 1), (r1, c1))
               if 0 <= r < R and 0 <= c < C and ply_at[r * C + c]]
    if corners:
        r, c = corners[0]
        return (f"card at ({move.row}, {move.col}) touches the card placed at ply {ply_at[r * C + c]} only at "
                f"a corner (cell ({r}, {c})): it must share an edge with a placed card")
    return f"card at ({move.row}, {move.col}) does not touch any placed card: it must share an edge with one"


def _not_your_card(state: State, move: Place) -> str | None:
    deck, mine = state.deck, state.left[state.turn]
    shown = show_matrix(move.matrix)
    k = deck.class_of.get(move.matrix)
    if k is not None:
        if mine[k] > 0:
            return None
        n = deck.dealt[k]
        return (f"card {shown} is a rotation of your card #{deck.first_index[k]}, which you have already "
                f"played {n} time{'s' if n > 1 else ''} (dealt {n} time{'s' if n > 1 else ''}): each card may be played only as often as dealt")
    k = deck.mirrors.get(move.matrix)
    if k is not None:
        return (f"card {shown} is a mirror image of your card #{deck.first_index[k]} "
                f"{show_matrix(deck.orientations[k][0])}, not a rotation of it: cards may only be rotated")
    return f"card {shown} is not one of your cards nor a rotation of one"


RULES = StrekyRules()
