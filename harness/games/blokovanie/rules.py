"""Blokovanie (seed 002): the pure referee.

An R x C board starts free. Players alternate, seat 0 first. A move picks a free cell
``(row, col)`` (0-based) and blocks it and its up-to-8 neighbours (diagonals too, clipped at
the board's edges); blocking an already blocked cell changes nothing. The player who cannot
move (no free cell is left) loses, so the player who made the last move wins.

The board is a bitmask: bit ``row * cols + col`` is set when that cell is blocked, so the
row-major order of cells is the order of bit indices.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from harness.games.base import SettingsError

Move = tuple[int, int]  # (row, col), 0-based

DEFAULTS = {"rows": 5, "cols": 6}  # the seed's example game
MIN_SIZE, MAX_SIZE = 1, 50
FREE, BLOCKED = "-", "X"  # the seed's characters


@lru_cache(maxsize=64)
def neighbourhoods(rows: int, cols: int) -> tuple[int, ...]:
    """For every cell (row-major) the mask of the cells a move there blocks: itself and its neighbours."""
    masks = []
    for r in range(rows):
        for c in range(cols):
            mask = 0
            for rr in range(max(0, r - 1), min(rows, r + 2)):
                for cc in range(max(0, c - 1), min(cols, c + 2)):
                    mask |= 1 << (rr * cols + cc)
            masks.append(mask)
    return tuple(masks)


@dataclass(frozen=True)
class State:
    """A Blokovanie position: the board's size, the blocked cells (a bitmask) and whose turn it is."""

    rows: int
    cols: int
    blocked: int = 0
    turn: int = 0  # index of the player to move
    ply: int = 0  # moves made so far

    @property
    def full(self) -> int:
        """The mask of every cell of the board."""
        return (1 << (self.rows * self.cols)) - 1

    @property
    def free(self) -> int:
        """The mask of the free cells."""
        return self.full & ~self.blocked

    def is_free(self, row: int, col: int) -> bool:
        """True if ``(row, col)`` is on the board and free."""
        return 0 <= row < self.rows and 0 <= col < self.cols and not self.blocked >> (row * self.cols + col) & 1

    def free_cells(self) -> list[Move]:
        """The free cells in row-major order."""
        cells: list[Move] = []
        free, cols = self.free, self.cols
        row_mask = (1 << cols) - 1
        # Row by row: bit tricks on one row's small int are cheap; on the whole board's big int
        # every step would cost time proportional to the board's size.
        for r in range(self.rows):
            bits = (free >> (r * cols)) & row_mask
            while bits:
                low = bits & -bits
                cells.append((r, low.bit_length() - 1))
                bits ^= low
        return cells

    def lines(self) -> list[str]:
        """The board as the seed prints it: one string per row, ``-`` free and ``X`` blocked."""
        cols, blocked = self.cols, self.blocked
        row_mask = (1 << cols) - 1
        lines = []
        for r in range(self.rows):
            bits = (blocked >> (r * cols)) & row_mask  # one row's small int, as in free_cells
            lines.append("".join(BLOCKED if bits >> c & 1 else FREE for c in range(cols)))
        return lines

    @classmethod
    def from_lines(cls, lines: Sequence[str], turn: int = 0, ply: int = 0) -> State:
        """The position drawn by ``lines`` (the inverse of :meth:`lines`; for tests and tools)."""
        rows, cols = len(lines), len(lines[0]) if lines else 0
        if not rows or not cols or any(len(line) != cols for line in lines):
            raise ValueError(f"a board is a non-empty list of equally long rows, got {list(lines)!r}")
        blocked = 0
        for r, line in enumerate(lines):
            for c, ch in enumerate(line):
                if ch not in (FREE, BLOCKED):
                    raise ValueError(f"row {r} has {ch!r}: a cell is {FREE!r} or {BLOCKED!r}")
                if ch == BLOCKED:
                    blocked |= 1 << (r * cols + c)
        return cls(rows, cols, blocked, turn, ply)


def is_move(value: Any) -> bool:
    """True if ``value`` has a move's shape: a tuple of two exact ints (``bool`` is not an int)."""
    return isinstance(value, tuple) and len(value) == 2 and all(type(v) is int for v in value)


class BlokovanieRules:
    """The referee; a move is ``(row, col)``, a tuple of two ints."""

    def parse_settings(self, raw: Mapping[str, Any]) -> dict[str, Any]:
        unknown = sorted(set(raw) - set(DEFAULTS))
        if unknown:
            raise SettingsError(f"unknown setting {unknown[0]!r} (known: rows, cols)")
        settings = {**DEFAULTS, **raw}
        for key in DEFAULTS:
            value = settings[key]
            if type(value) is not int or not MIN_SIZE <= value <= MAX_SIZE:
                raise SettingsError(f"{key}: must be an integer from {MIN_SIZE} to {MAX_SIZE}, got {value!r}")
        return {key: settings[key] for key in DEFAULTS}

    def initial(self, settings: Mapping[str, Any], rng: random.Random) -> State:
        return State(settings["rows"], settings["cols"])

    def to_move(self, state: State) -> int:
        return state.turn

    def legal_moves(self, state: State) -> Sequence[Move]:
        return state.free_cells()

    def check(self, state: State, move: Move) -> str | None:
        if not is_move(move):
            return f"a move is (row, col), two ints, got {move!r}"
        row, col = move
        size = f"{state.rows}x{state.cols}"
        if not 0 <= row < state.rows:
            return f"row {row} is off the {size} board (rows 0..{state.rows - 1})"
        if not 0 <= col < state.cols:
            return f"column {col} is off the {size} board (columns 0..{state.cols - 1})"
        if not state.is_free(row, col):
            return f"cell ({row}, {col}) is already blocked"
        return None

    def apply(self, state: State, move: Move) -> State:
        row, col = move
        mask = neighbourhoods(state.rows, state.cols)[row * state.cols + col]
        return State(state.rows, state.cols, state.blocked | mask, 1 - state.turn, state.ply + 1)

    def is_over(self, state: State) -> bool:
        return not state.free

    def winner(self, state: State) -> int | None:
        # The player to move has no free cell: the other one made the last move and wins.
        return 1 - state.turn if self.is_over(state) else None

    def scores(self, state: State) -> tuple[float, ...]:
        w = self.winner(state)
        return (0.0, 0.0) if w is None else tuple(1.0 if i == w else 0.0 for i in range(2))

    def move_to_json(self, move: Move) -> list[int]:
        return [move[0], move[1]]

    def move_from_json(self, data: Any) -> Move:
        if not isinstance(data, (list, tuple)) or len(data) != 2 or not all(type(v) is int for v in data):
            raise ValueError(f"a Blokovanie move is [row, col], two ints, got {data!r}")
        return data[0], data[1]


RULES = BlokovanieRules()
