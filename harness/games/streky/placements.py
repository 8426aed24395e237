"""Enumeration of Štreky's legal placements, fast enough for 33x33 boards and 24 cards.

Whether a card of ``h`` x ``w`` may go at ``(r, c)`` depends only on its shape, never on its
colours: the rectangle must be on the board and empty, and (once the board is not empty) some
cell directly above, below, left or right of the rectangle must be occupied. The state keeps
the occupied cells as one bitmask per row, updated by each move; a few shifts and ORs of those
masks answer both questions for all columns of a row at once (:class:`Occupancy`), and only
rows within reach of the occupied ones are tried. The legal placements of a player are every
legal anchor of a shape times every orientation of that shape among the player's unused cards,
which :class:`Placements` lists lazily (a 33x33 opening has about 86 000 placements; building
them all as objects would dominate the time).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any, overload

from harness.games.streky.cards import Matrix


@dataclass(frozen=True)
class Place:
    """A placement: the card ``matrix`` (a tuple of rows) with its top-left corner at ``(row, col)``."""

    row: int
    col: int
    matrix: Matrix

    @property
    def height(self) -> int:
        return len(self.matrix)

    @property
    def width(self) -> int:
        return len(self.matrix[0])


@dataclass(frozen=True)
class Pass:
    """No placement (the bot answered ``[]``); legal only when no placement exists."""


PASS = Pass()


class Occupancy:
    """The occupied cells of a board as one bitmask per row (bit ``c`` = column ``c``).

    An ``h`` x ``w`` card fits at ``(r, c)`` iff bits ``c..c+w-1`` of the OR of rows
    ``r..r+h-1`` are clear, and touches iff the rows just above/below have a bit in that range
    or the OR has bit ``c-1`` or ``c+w``. Shifted copies of the masks answer both questions for
    every column of a row at once.
    """

    __slots__ = ("bottom", "cols", "masks", "rows", "top")

    def __init__(self, rows: int, cols: int, masks: Sequence[int]) -> None:
        self.rows, self.cols, self.masks = rows, cols, masks
        used = [r for r, m in enumerate(masks) if m]
        self.top, self.bottom = (used[0], used[-1]) if used else (rows, -1)

    @property
    def empty(self) -> bool:
        return self.bottom < 0

    def anchors(self, h: int, w: int) -> list[tuple[int, int]]:
        """Every ``(r, c)`` where an ``h`` x ``w`` card may legally go, in row-major order."""
        rows, cols, masks = self.rows, self.cols, self.masks
        if h > rows or w > cols:
            return []
        if self.empty:
            return [(r, c) for r in range(rows - h + 1) for c in range(cols - w + 1)]
        valid = (1 << (cols - w + 1)) - 1  # columns where the card stays on the board
        found = []
        # A touching card lies within one row of the occupied rows.
        for r in range(max(0, self.top - h), min(rows - h, self.bottom + 1) + 1):
            covered = 0
            for k in range(r, r + h):
                covered |= masks[k]
            free = ~covered
            fits = free
            for k in range(1, w):
                fits &= free >> k
            fits &= valid  # bit c: columns c..c+w-1 are all free
            if not fits:
                continue
            edge = (masks[r - 1] if r > 0 else 0) | (masks[r + h] if r + h < rows else 0)
            vertical = edge
            for k in range(1, w):
                vertical |= edge >> k  # bit c: a cell above or below columns c..c+w-1
            legal = fits & (vertical | (covered << 1) | (covered >> w))
            while legal:
                low = legal & -legal
                found.append((r, low.bit_length() - 1))
                legal ^= low
        return found


class Placements(Sequence[Place]):
    """The legal placements of one player, listed lazily: blocks of (anchors x orientations).

    Order: shapes sorted, then anchors row-major, then orientations in card order. Supports
    ``len``, indexing, iteration and a fast ``in`` (independent of :func:`check`: it looks the
    move up in the block of its shape).
    """

    def __init__(self, blocks: list[tuple[list[tuple[int, int]], list[Matrix]]]) -> None:
        self._blocks = [(a, m) for a, m in blocks if a and m]
        self._starts: list[int] = []
        total = 0
        for anchors, mats in self._blocks:
            self._starts.append(total)
            total += len(anchors) * len(mats)
        self._len = total
        self._lookup: dict[tuple[int, int], tuple[frozenset[tuple[int, int]], frozenset[Matrix]]] | None = None

    def __len__(self) -> int:
        return self._len

    @overload
    def __getitem__(self, index: int) -> Place: ...

    @overload
    def __getitem__(self, index: slice) -> list[Place]: ...

    def __getitem__(self, index: int | slice) -> Place | list[Place]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(self._len))]
        if index < 0:
            index += self._len
        if not 0 <= index < self._len:
            raise IndexError("placement index out of range")
        b = len(self._starts) - 1
        while self._starts[b] > index:
            b -= 1
        anchors, mats = self._blocks[b]
        a, m = divmod(index - self._starts[b], len(mats))
        r, c = anchors[a]
        return Place(r, c, mats[m])

    def __iter__(self) -> Iterator[Place]:
        for anchors, mats in self._blocks:
            for r, c in anchors:
                for m in mats:
                    yield Place(r, c, m)

    def __contains__(self, move: Any) -> bool:
        if not isinstance(move, Place) or not move.matrix or not move.matrix[0]:
            return False
        if self._lookup is None:
            self._lookup = {(len(m[0]), len(m[0][0])): (frozenset(a), frozenset(m)) for a, m in self._blocks}
        block = self._lookup.get((move.height, move.width))
        return block is not None and move.matrix in block[1] and (move.row, move.col) in block[0]

    def shapes(self) -> list[tuple[int, int]]:
        """The card shapes (rows, cols) that have at least one legal placement."""
        return [(len(m[0]), len(m[0][0])) for _a, m in self._blocks]
