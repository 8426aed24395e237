"""Bitboards for Quoridor: reachability, shortest paths and legal-wall enumeration.

Cell ``(x, y)`` is bit ``y * sizex + x`` of a Python int. Blocked edges are two more ints:
``hb`` has bit ``y * sizex + x`` set when the edge ``(x,y)-(x,y+1)`` is blocked, ``vb`` when
``(x,y)-(x+1,y)`` is. From them come two move masks, ``up`` (cells that may step to ``y+1``) and
``right`` (cells that may step to ``x+1``); moving down/left is the same edge seen from the other
cell, so those masks are shifts of these. A flood fill then advances a whole frontier with four
shifts per step, which makes a path check cost a few microseconds per row of path length.

Legal walls: a wall can only cut a player off if it blocks an edge of *every* path; in
particular it must block an edge of one fixed shortest path. So one shortest path per player is
computed, and only the few walls touching it need a flood fill; all others keep that path.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from itertools import pairwise

from harness.games.quoridor.moves import WallKey


@dataclass(frozen=True)
class Geometry:
    """Masks that depend only on the board size."""

    sizex: int
    sizey: int
    all_cells: int
    up_ok: int  # cells not on the last row
    right_ok: int  # cells not in the last column

    def bit(self, x: int, y: int) -> int:
        return 1 << (y * self.sizex + x)

    def row(self, y: int) -> int:
        return ((1 << self.sizex) - 1) << (y * self.sizex)

    def cell(self, index: int) -> tuple[int, int]:
        return index % self.sizex, index // self.sizex


@lru_cache(maxsize=256)
def geometry(sizex: int, sizey: int) -> Geometry:
    """The (cached) masks of a ``sizex`` x ``sizey`` board."""
    all_cells = (1 << (sizex * sizey)) - 1
    up_ok = (1 << (sizex * (sizey - 1))) - 1
    row_right = (1 << (sizex - 1)) - 1
    right_ok = 0
    for y in range(sizey):
        right_ok |= row_right << (y * sizex)
    return Geometry(sizex, sizey, all_cells, up_ok, right_ok)


def h_bits(x: int, y: int, sizex: int) -> int:
    """The ``hb`` bits of wall ``H(x, y)``."""
    return 3 << (y * sizex + x)


def v_bits(x: int, y: int, sizex: int) -> int:
    """The ``vb`` bits of wall ``V(x, y)``."""
    i = y * sizex + x
    return (1 << i) | (1 << (i + sizex))


def wall_bits(key: WallKey, sizex: int) -> tuple[int, int]:
    """``(hb bits, vb bits)`` blocked by a wall."""
    kind, x, y = key
    return (h_bits(x, y, sizex), 0) if kind == "H" else (0, v_bits(x, y, sizex))


def reaches(start: int, target: int, up: int, right: int, sizex: int) -> bool:
    """True if some cell of ``start`` connects to some cell of ``target`` (bit masks)."""
    down = up << sizex
    left = right << 1
    reach = front = start
    while front:
        if reach & target:
            return True
        nxt = ((front & up) << sizex) | ((front & down) >> sizex) | ((front & right) << 1) | ((front & left) >> 1)
        front = nxt & ~reach
        reach |= front
    return False


def distance(start: int, target: int, up: int, right: int, sizex: int) -> int | None:
    """Steps from ``start`` to the nearest cell of ``target``, or ``None`` if unreachable."""
    down = up << sizex
    left = right << 1
    reach = front = start
    d = 0
    while front:
        if front & target:
            return d
        nxt = ((front & up) << sizex) | ((front & down) >> sizex) | ((front & right) << 1) | ((front & left) >> 1)
        front = nxt & ~reach
        reach |= front
        d += 1
    return None


def shortest_path(start: int, target: int, up: int, right: int, sizex: int) -> list[int] | None:
    """Cell indices of one shortest path from ``start`` (one bit) into ``target``, or ``None``."""
    down = up << sizex
    left = right << 1
    layers = [start]
    reach = front = start
    while not front & target:
        nxt = ((front & up) << sizex) | ((front & down) >> sizex) | ((front & right) << 1) | ((front & left) >> 1)
        front = nxt & ~reach
        if not front:
            return None
        reach |= front
        layers.append(front)
    hit = front & target
    cell = (hit & -hit).bit_length() - 1
    path = [cell]
    for layer in reversed(layers[:-1]):
        # A neighbour in the previous layer reached through an open edge.
        if cell >= sizex and (layer >> (cell - sizex)) & 1 and (up >> (cell - sizex)) & 1:
            cell -= sizex
        elif (layer >> (cell + sizex)) & 1 and (up >> cell) & 1:
            cell += sizex
        elif cell >= 1 and (layer >> (cell - 1)) & 1 and (right >> (cell - 1)) & 1:
            cell -= 1
        else:
            cell += 1
        path.append(cell)
    path.reverse()
    return path


def touching_walls(path: list[int], sizex: int, sizey: int) -> tuple[set[int], set[int]]:
    """Walls (as ``H``/``V`` anchor indices ``y*sizex+x``) that block an edge of ``path``."""
    hs: set[int] = set()
    vs: set[int] = set()
    for a, b in pairwise(path):
        lo = min(a, b)
        x, y = lo % sizex, lo // sizex
        if abs(a - b) == sizex:  # the edge (x,y)-(x,y+1): walls H(x,y) and H(x-1,y)
            if x <= sizex - 2:
                hs.add(lo)
            if x >= 1:
                hs.add(lo - 1)
        else:  # the edge (x,y)-(x+1,y): walls V(x,y) and V(x,y-1)
            if y <= sizey - 2:
                vs.add(lo)
            if y >= 1:
                vs.add(lo - sizex)
    return hs, vs


def legal_wall_keys(geo: Geometry, hb: int, vb: int, players: list[tuple[int, int]]) -> Iterator[WallKey]:
    """Every wall that overlaps no blocked edge and leaves each ``(pawn bit, goal mask)`` a path.

    Yields keys in a fixed order: horizontal walls row by row, then vertical ones.
    """
    sx, sy = geo.sizex, geo.sizey
    up = geo.up_ok & ~hb
    right = geo.right_ok & ~vb
    suspects: list[tuple[int, int, set[int], set[int]]] = []
    for start, target in players:
        path = shortest_path(start, target, up, right, sx)
        if path is None:  # already cut off (cannot happen in a legal position): every wall fails
            return
        hs, vs = touching_walls(path, sx, sy)
        suspects.append((start, target, hs, vs))
    for y in range(sy - 1):
        for x in range(sx - 1):
            i = y * sx + x
            bits = 3 << i
            if hb & bits:
                continue
            if all(i not in hs or reaches(start, target, up & ~bits, right, sx)
                   for start, target, hs, _ in suspects):
                yield ("H", x, y)
    for y in range(sy - 1):
        for x in range(sx - 1):
            i = y * sx + x
            bits = (1 << i) | (1 << (i + sx))
            if vb & bits:
                continue
            if all(i not in vs or reaches(start, target, up, right & ~bits, sx)
                   for start, target, _, vs in suspects):
                yield ("V", x, y)
