"""Quoridor's referee moves (a step, a wall, a pass), their JSON form and the wall geometry.

Geometry: cells ``(x, y)``, ``0 <= x < sizex`` (column), ``0 <= y < sizey`` (row). An *edge*
is the boundary between two orthogonally adjacent cells, written like an ``Obstacle`` as
``(x1, y1, x2, y2)`` and normalised with the smaller cell first. A wall is two edges; a legal
one is a straight wall two cells long, identified by its *key* ``(kind, x, y)``:

* ``("H", x, y)`` (horizontal): blocks ``(x,y)-(x,y+1)`` and ``(x+1,y)-(x+1,y+1)``;
* ``("V", x, y)`` (vertical): blocks ``(x,y)-(x+1,y)`` and ``(x,y+1)-(x+1,y+1)``;

with ``0 <= x <= sizex-2`` and ``0 <= y <= sizey-2``. ``H(x, y)`` and ``V(x, y)`` share their
midpoint (the corner between the four cells), so they cross: allowed, since they share no edge.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

Edge = tuple[int, int, int, int]
WallKey = tuple[str, int, int]


def normalise_edge(x1: int, y1: int, x2: int, y2: int) -> Edge:
    """The edge between two cells with the smaller cell (by ``(x, y)``) first."""
    return (x1, y1, x2, y2) if (x1, y1) <= (x2, y2) else (x2, y2, x1, y1)


def edge_text(edge: Edge) -> str:
    """An edge as the seed's ``Obstacle.__str__`` prints it: ``(x1,y1)->(x2,y2)``."""
    return f"({edge[0]},{edge[1]})->({edge[2]},{edge[3]})"


@dataclass(frozen=True)
class Step:
    """Move the pawn to cell ``(x, y)``."""

    x: int
    y: int


@dataclass(frozen=True)
class Wall:
    """Place a wall blocking ``edges`` (normalised; one edge if both obstacles were equal)."""

    edges: frozenset[Edge]

    @staticmethod
    def of(*edges: tuple[int, int, int, int]) -> Wall:
        """A wall from obstacle coordinates in any order and direction."""
        return Wall(frozenset(normalise_edge(*e) for e in edges))

    def ordered(self) -> list[Edge]:
        """The edges in the canonical order (sorted); the same edge twice if both were equal."""
        edges = sorted(self.edges)
        return edges if len(edges) == 2 else edges * 2

    def __str__(self) -> str:
        return " + ".join(edge_text(e) for e in self.ordered())


@dataclass(frozen=True)
class Pass:
    """No move: allowed only when neither a step nor a wall is legal."""

    def __str__(self) -> str:
        return "pass"


PASS = Pass()
Move = Step | Wall | Pass


def key_edges(key: WallKey) -> tuple[Edge, Edge]:
    """The two edges a wall of this key blocks, in canonical order."""
    kind, x, y = key
    if kind == "H":
        return (x, y, x, y + 1), (x + 1, y, x + 1, y + 1)
    return (x, y, x + 1, y), (x, y + 1, x + 1, y + 1)


@cache
def wall_of_key(key: WallKey) -> Wall:
    """The (shared, immutable) :class:`Wall` of a key."""
    return Wall(frozenset(key_edges(key)))


def wall_key(wall: Wall, sizex: int, sizey: int) -> WallKey | str:
    """The key of a well-formed wall on a ``sizex`` x ``sizey`` board, or why it is not one."""
    for edge in sorted(wall.edges):
        x1, y1, x2, y2 = edge
        if not (0 <= x1 < sizex and 0 <= y1 < sizey and 0 <= x2 < sizex and 0 <= y2 < sizey):
            return f"obstacle {edge_text(edge)} is off the {sizex}x{sizey} board"
        if (x2 - x1, y2 - y1) not in ((1, 0), (0, 1)):
            return f"obstacle {edge_text(edge)} does not separate two orthogonally adjacent cells"
    if len(wall.edges) != 2:
        (edge,) = wall.edges
        return f"both obstacles are the same edge {edge_text(edge)}; a wall blocks two different edges"
    a, b = sorted(wall.edges)
    if a[2] - a[0] == 0 and b[2] - b[0] == 0 and b[:2] == (a[0] + 1, a[1]):
        return ("H", a[0], a[1])
    if a[3] - a[1] == 0 and b[3] - b[1] == 0 and b[:2] == (a[0], a[1] + 1):
        return ("V", a[0], a[1])
    if (a[2] - a[0]) != (b[2] - b[0]):
        why = "one blocks a move along a row, the other a move along a column"
    else:
        why = "they are not side by side"
    return (f"obstacles {edge_text(a)} and {edge_text(b)} do not form a straight wall two cells "
            f"long ({why})")


def require_key(wall: Wall, sizex: int, sizey: int) -> WallKey:
    """The key of a wall known to be well formed; ``ValueError`` (a caller's bug) if it is not."""
    key = wall_key(wall, sizex, sizey)
    if isinstance(key, tuple):
        return key
    raise ValueError(key)


# ---- JSON ---------------------------------------------------------------------------------
def move_to_json(move: Move) -> Any:
    """``[1, [x, y]]``, ``[2, [[x1, y1, x2, y2], [x1, y1, x2, y2]]]`` (sorted) or ``null``."""
    if isinstance(move, Step):
        return [1, [move.x, move.y]]
    if isinstance(move, Wall):
        return [2, [list(e) for e in move.ordered()]]
    if isinstance(move, Pass):
        return None
    raise TypeError(f"not a Quoridor move: {move!r}")


def _int(value: Any) -> bool:
    return type(value) is int


def move_from_json(data: Any) -> Move:
    """Inverse of :func:`move_to_json`; ``ValueError`` on anything else."""
    if data is None:
        return PASS
    if isinstance(data, list) and len(data) == 2 and isinstance(data[1], list):
        kind, body = data
        if kind == 1 and type(kind) is int and len(body) == 2 and all(map(_int, body)):
            return Step(body[0], body[1])
        if (kind == 2 and type(kind) is int and len(body) == 2
                and all(isinstance(e, list) and len(e) == 4 and all(map(_int, e)) for e in body)):
            return Wall.of(*(tuple(e) for e in body))
    raise ValueError(f"not a Quoridor move in JSON: {data!r}")
