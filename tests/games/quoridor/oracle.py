"""An independent, deliberately naive Quoridor referee for cross-checking the real one.

Edges as sets of cell pairs, a breadth-first search per question, every wall shape spelled out
from RULES.md. No bitboards, no shortcuts: slow and obviously right.
"""

from __future__ import annotations

from collections import deque

from harness.games.quoridor.rules import State

Cell = tuple[int, int]
Pair = frozenset[Cell]  # an edge: the two cells it separates


def wall_pairs(kind: str, x: int, y: int) -> tuple[Pair, Pair]:
    """RULES.md: horizontal Obstacle(x,y,x,y+1) + Obstacle(x+1,y,x+1,y+1), vertical
    Obstacle(x,y,x+1,y) + Obstacle(x,y+1,x+1,y+1)."""
    if kind == "H":
        return frozenset({(x, y), (x, y + 1)}), frozenset({(x + 1, y), (x + 1, y + 1)})
    return frozenset({(x, y), (x + 1, y)}), frozenset({(x, y + 1), (x + 1, y + 1)})


def blocked(state: State) -> set[Pair]:
    out: set[Pair] = set()
    for w in state.walls:
        out.update(wall_pairs(*w.key))
    return out


def has_path(state: State, walls: set[Pair], start: Cell, row: int) -> bool:
    seen = {start}
    queue = deque([start])
    while queue:
        x, y = queue.popleft()
        if y == row:
            return True
        for n in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
            if (0 <= n[0] < state.sizex and 0 <= n[1] < state.sizey and n not in seen
                    and frozenset({(x, y), n}) not in walls):
                seen.add(n)
                queue.append(n)
    return False


def goal(state: State, seat: int) -> int:
    return state.sizey - 1 if seat == 0 else 0


def steps(state: State, seat: int) -> set[Cell]:
    walls = blocked(state)
    x, y = state.pawns[seat]
    return {n for n in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1))
            if 0 <= n[0] < state.sizex and 0 <= n[1] < state.sizey and n != state.pawns[1 - seat]
            and frozenset({(x, y), n}) not in walls}


def walls(state: State) -> set[frozenset[Pair]]:
    """Every legal wall (ignoring the budget) as the set of its two edges."""
    taken = blocked(state)
    out = set()
    for kind in "HV":
        for x in range(state.sizex - 1):
            for y in range(state.sizey - 1):
                a, b = wall_pairs(kind, x, y)
                if a in taken or b in taken:
                    continue
                after = taken | {a, b}
                if all(has_path(state, after, state.pawns[s], goal(state, s)) for s in (0, 1)):
                    out.add(frozenset({a, b}))
    return out


def legal(state: State) -> tuple[set[Cell], set[frozenset[Pair]], bool]:
    """(steps, walls, pass allowed) for the player to move."""
    s = steps(state, state.turn)
    w = walls(state) if state.used[state.turn] < state.max_obstacles else set()
    return s, w, not s and not w


def stuck(state: State, seat: int) -> bool:
    if steps(state, seat):
        return False
    return state.used[seat] >= state.max_obstacles or not walls(state)
