"""The SemBasic battery: seeded, generated positions on which ``expand_*`` are graded.

Every position is what a bot can be told through the seed's interface: ``initialization`` with
the bot on its start row (row 0, or row ``sizey-1``: the seed's skeleton derives the goal row
from it), the opponent on the other start row, initial walls, a wall budget > 0, and in some
positions an ``opponent_move(1, [x, y])`` that moves the opponent (e.g. next to the bot). The
referee's answers on the same position are the expected ones.

Kinds of positions (``Position.label``): the RULES.md worked example, a boxed-in pawn, open
boards, random walls, crossing walls, dense boards, near-trapped pawns (walls chosen greedily to
lengthen a pawn's path), and opponents moved next to the bot; sizes from 2x2 to 15x15, square
and not.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from harness.games.base import Call
from harness.games.quoridor import board
from harness.games.quoridor.adapter import obstacle
from harness.games.quoridor.moves import Edge, WallKey, key_edges
from harness.games.quoridor.rules import PlacedWall, State

DEFAULT_SEED = 4
SIZES = [(2, 2), (3, 3), (4, 4), (5, 5), (2, 6), (6, 2), (3, 7), (7, 3), (4, 9), (9, 4), (5, 8), (8, 5),
         (7, 7), (9, 9), (9, 9), (11, 7), (6, 10), (10, 6), (13, 13), (15, 15), (10, 15), (15, 10), (5, 2)]
PER_KIND = 38  # positions per generated kind; six kinds plus the fixed ones: 230 positions


@dataclass(frozen=True)
class Position:
    """One graded position: what the bot is told, and (derived) what the referee allows."""

    index: int
    label: str
    sizex: int
    sizey: int
    me: tuple[int, int]
    opponent_start: tuple[int, int]
    opponent: tuple[int, int]  # differs from opponent_start when opponent_move tells a step
    max_obstacles: int
    walls: tuple[WallKey, ...]

    @property
    def seat(self) -> int:
        """The bot's seat: 0 if it starts on row 0 (heading for the last row), else 1."""
        return 0 if self.me[1] == 0 else 1

    @cached_property
    def state(self) -> State:
        """The referee's state, with the bot to move."""
        pawns = [self.me, self.opponent] if self.seat == 0 else [self.opponent, self.me]
        return State.build(self.sizex, self.sizey, pawns, self.walls, max_obstacles=self.max_obstacles,
                           turn=self.seat)

    @cached_property
    def expected_steps(self) -> frozenset[tuple[int, int]]:
        return frozenset((s.x, s.y) for s in self.state.steps(self.seat))

    @cached_property
    def expected_walls(self) -> frozenset[frozenset[Edge]]:
        return frozenset(frozenset(key_edges(k)) for k in self.state.wall_keys)

    def obstacles(self) -> list[Edge]:
        """The initial walls as the flat list of obstacle edges ``initialization`` receives."""
        return [e for k in self.walls for e in key_edges(k)]

    def setup_calls(self, login: str) -> list[Call]:
        """The constructor, ``initialization`` and, if the opponent moved, ``opponent_move``."""
        calls = [Call("__init__", (login,), "init"),
                 Call("initialization", (self.sizex, self.sizey, self.me[0], self.me[1], self.opponent_start[0],
                                         self.opponent_start[1], self.max_obstacles,
                                         [obstacle(e) for e in self.obstacles()]), "init")]
        if self.opponent != self.opponent_start:
            calls.append(Call("opponent_move", (1, [self.opponent[0], self.opponent[1]]), "move"))
        return calls

    def describe_calls(self, login: str) -> list[str]:
        """The setup calls as Python, for a student to reproduce the position."""
        obstacles = ", ".join(f"Obstacle({e[0]},{e[1]},{e[2]},{e[3]})" for e in self.obstacles())
        lines = [f"p = Player({login!r})",
                 (f"p.initialization({self.sizex}, {self.sizey}, {self.me[0]}, {self.me[1]}, "
                  f"{self.opponent_start[0]}, {self.opponent_start[1]}, {self.max_obstacles}, [{obstacles}])")]
        if self.opponent != self.opponent_start:
            lines.append(f"p.opponent_move(1, [{self.opponent[0]}, {self.opponent[1]}])")
        return lines

    def to_json(self) -> dict[str, Any]:
        return {"index": self.index, "label": self.label, "sizex": self.sizex, "sizey": self.sizey,
                "me": list(self.me), "opponent_start": list(self.opponent_start),
                "opponent": list(self.opponent), "max_obstacles": self.max_obstacles,
                "obstacles": [list(e) for e in self.obstacles()]}


# ---- generation ---------------------------------------------------------------------------
class _Builder:
    """A position under construction: pawns fixed, walls added one legal wall at a time."""

    def __init__(self, sx: int, sy: int, me: tuple[int, int], opponent: tuple[int, int]) -> None:
        self.sx, self.sy = sx, sy
        self.me, self.opponent = me, opponent
        seat = 0 if me[1] == 0 else 1
        self.state = State.build(sx, sy, [me, opponent] if seat == 0 else [opponent, me], (), turn=seat)

    def legal(self) -> tuple[WallKey, ...]:
        return self.state.wall_keys

    def add(self, key: WallKey) -> None:
        h, v = board.wall_bits(key, self.sx)
        s = self.state
        self.state = State(s.sizex, s.sizey, s.max_obstacles, s.ply_cap, s.pawns,
                           (*s.walls, PlacedWall(key)), s.hb | h, s.vb | v, s.used, s.turn, s.ply)

    def allows(self, key: WallKey) -> bool:
        """True if ``key`` overlaps no wall and leaves both pawns a path."""
        s = self.state
        h, v = board.wall_bits(key, self.sx)
        if s.hb & h or s.vb & v:
            return False
        return all(board.reaches(s.geo.bit(*s.pawns[seat]), s.geo.row(s.goal_row(seat)), s.up & ~h, s.right & ~v,
                                 self.sx) for seat in (0, 1))

    def walls(self) -> tuple[WallKey, ...]:
        return tuple(w.key for w in self.state.walls)

    def distance(self, seat: int, extra: WallKey | None = None) -> int:
        s = self.state
        h, v = board.wall_bits(extra, self.sx) if extra else (0, 0)
        d = board.distance(s.geo.bit(*s.pawns[seat]), s.geo.row(s.goal_row(seat)), s.up & ~h, s.right & ~v, self.sx)
        return -1 if d is None else d


def _pawns(rng: random.Random, sx: int, sy: int) -> tuple[tuple[int, int], tuple[int, int]]:
    """The bot on row 0 or the last row (even chances), the opponent on the other start row."""
    row = rng.choice((0, sy - 1))
    return (rng.randrange(sx), row), (rng.randrange(sx), sy - 1 - row)


def _random_walls(b: _Builder, rng: random.Random, count: int) -> None:
    """Up to ``count`` walls: the candidates in random order, each kept if still legal."""
    _add_shuffled(b, rng, [(kind, x, y) for kind in "HV" for y in range(b.sy - 1) for x in range(b.sx - 1)], count)


def _add_shuffled(b: _Builder, rng: random.Random, keys: list[tuple[str, int, int]], count: int) -> None:
    """Up to ``count`` of ``keys``, tried in random order, each kept if still legal."""
    rng.shuffle(keys)
    for key in keys:
        if count <= 0:
            return
        if b.allows(key):
            b.add(key)
            count -= 1


def _crossing_walls(b: _Builder, rng: random.Random, count: int) -> None:
    """Walls in crossing pairs: ``H(x, y)`` and ``V(x, y)`` share a midpoint."""
    for _ in range(count):
        keys = b.legal()
        if not keys:
            return
        kind, x, y = rng.choice(keys)
        b.add((kind, x, y))
        other = ("V" if kind == "H" else "H", x, y)
        if b.allows(other):
            b.add(other)


def _trap(b: _Builder, rng: random.Random, seat: int, count: int) -> None:
    """Walls chosen greedily to make ``seat``'s path longest: corridors and pockets."""
    for _ in range(count):
        s = b.state
        path = board.shortest_path(s.geo.bit(*s.pawns[seat]), s.geo.row(s.goal_row(seat)), s.up, s.right, b.sx)
        if path is None:
            return
        hs, vs = board.touching_walls(path, b.sx, b.sy)  # only these can lengthen the path
        keys = [("H", i % b.sx, i // b.sx) for i in hs] + [("V", i % b.sx, i // b.sx) for i in vs]
        scored = [(b.distance(seat, k), rng.random(), k) for k in sorted(keys) if b.allows(k)]
        if not scored:
            return
        b.add(max(scored)[2])


def _pocket(b: _Builder, rng: random.Random, seat: int, count: int) -> None:
    """Walls close around ``seat``'s pawn (within two cells) until at most a narrow exit is left."""
    px, py = b.state.pawns[seat]
    _add_shuffled(b, rng, [(kind, x, y) for kind in "HV" for y in range(b.sy - 1) for x in range(b.sx - 1)
                           if abs(x - px) <= 2 and abs(y - py) <= 2], count)


def _moved_opponent(rng: random.Random, sx: int, sy: int, me: tuple[int, int]) -> tuple[int, int]:
    """Where the opponent may have walked: not on its goal row (the bot's start row), often next
    to the bot (the one such cell is straight ahead of it)."""
    if rng.random() < 0.7:
        return me[0], (1 if me[1] == 0 else me[1] - 1)
    rows = [y for y in range(sy) if y != me[1]]
    return rng.randrange(sx), rng.choice(rows)


def _fixed() -> list[tuple[str, int, int, tuple[int, int], tuple[int, int], tuple[int, int], int, tuple[WallKey, ...]]]:
    return [
        # RULES.md's worked example: exactly 11 walls, steps {(1,0), (0,1)}.
        ("worked example", 4, 4, (0, 0), (0, 3), (0, 3), 5, (("H", 0, 1),)),
        # the same position from the other player's side
        ("worked example, second player", 4, 4, (0, 3), (0, 0), (0, 0), 5, (("H", 0, 1),)),
        # boxed in: no step (the opponent's pawn and a wall), no wall (the only one cuts the board)
        ("boxed in", 2, 2, (0, 0), (0, 1), (0, 1), 1, (("V", 0, 0),)),
        # the seed's manager: 15x15 with its initial wall (columns 2 and 3 between rows 7 and 8)
        ("seed manager", 15, 15, (7, 0), (7, 14), (7, 14), 4, (("H", 2, 7),)),
    ]


def battery(seed: int = DEFAULT_SEED) -> list[Position]:
    """The graded positions for ``seed`` (pure: the same seed gives the same list)."""
    rng = random.Random(seed)
    raw = list(_fixed())
    kinds = ["open", "random walls", "crossing walls", "dense", "near-trapped", "opponent moved"]
    for n in range(PER_KIND * len(kinds)):
        kind = kinds[n % len(kinds)]
        sx, sy = SIZES[rng.randrange(len(SIZES))]
        me, opp = _pawns(rng, sx, sy)
        b = _Builder(sx, sy, me, opp)
        moved = opp
        if kind == "opponent moved":
            moved = _moved_opponent(rng, sx, sy, me)
            b = _Builder(sx, sy, me, moved)
            _random_walls(b, rng, rng.randrange(0, sx + sy))
        elif kind == "random walls":
            _random_walls(b, rng, rng.randrange(1, sx + sy))
        elif kind == "crossing walls":
            _crossing_walls(b, rng, rng.randrange(1, (sx + sy) // 2 + 2))
        elif kind == "dense":
            _random_walls(b, rng, sx * sy)
        elif kind == "near-trapped":
            if n % 2:
                _trap(b, rng, rng.randrange(2), rng.randrange(2, 3 + (sx + sy) // 2))
            else:
                _pocket(b, rng, rng.randrange(2), rng.randrange(3, 9))
            _random_walls(b, rng, rng.randrange(0, 3))
        raw.append((kind, sx, sy, me, opp, moved, rng.randrange(1, 11), b.walls()))
    return [Position(i, label, sx, sy, me, start, now, budget, walls)
            for i, (label, sx, sy, me, start, now, budget, walls) in enumerate(raw)]
