"""The Quoridor variant (seed 004): the pure referee, per ``RULES.md``.

Seat 0 starts on row 0 and must reach row ``sizey-1``; seat 1 starts on row ``sizey-1`` and
must reach row 0; seat 0 moves first. A move is a :class:`Step` of one cell (not across a
blocked edge, not onto the other pawn, no jumping), a :class:`Wall` (two cells long, straight,
sharing no edge with an existing wall but possibly crossing one, leaving both players a path to
their goal rows; at most ``max_obstacles`` per player, initial walls excluded), or a pass, only
when neither is possible. Reaching the goal row wins (1 / 0). If neither player can move, both
lose (0 / 0). A game that reaches ``ply_cap`` plies is a draw (0.5 / 0.5).

Reasons are written to the player who moved ("you", "the opponent"). Plies count from 0, as
the indices of ``GameRecord.moves``.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cached_property
from typing import Any

from harness.games.quoridor import board
from harness.games.quoridor import settings as quoridor_settings
from harness.games.quoridor.moves import (
    PASS,
    Edge,
    Move,
    Pass,
    Step,
    Wall,
    WallKey,
    edge_text,
    key_edges,
    move_from_json,
    move_to_json,
    normalise_edge,
    require_key,
    wall_key,
    wall_of_key,
)


@dataclass(frozen=True)
class PlacedWall:
    """A wall on the board: its key, who placed it (``None``: initial) and at which ply."""

    key: WallKey
    owner: int | None = None
    ply: int | None = None

    def describe(self, mover: int) -> str:
        text = str(wall_of_key(self.key))
        if self.owner is None:
            return f"the initial wall {text}"
        who = "you" if self.owner == mover else "the opponent"
        return f"the wall {who} placed at ply {self.ply} ({text})"


@dataclass(frozen=True)
class State:
    """A Quoridor position. Never mutated: :meth:`QuoridorRules.apply` returns a new one.

    ``hb``/``vb`` are the blocked edges as bitboards (see :mod:`board`); ``walls`` the same
    walls in placement order with their owners, for reasons and drawings.
    """

    sizex: int
    sizey: int
    max_obstacles: int
    ply_cap: int
    pawns: tuple[tuple[int, int], tuple[int, int]]
    walls: tuple[PlacedWall, ...] = ()
    hb: int = 0
    vb: int = 0
    used: tuple[int, int] = (0, 0)
    turn: int = 0
    ply: int = 0

    @staticmethod
    def build(sizex: int, sizey: int, pawns: Sequence[tuple[int, int]], walls: Sequence[WallKey] = (),
              *, max_obstacles: int = quoridor_settings.DEFAULT_OBSTACLES, ply_cap: int | None = None,
              turn: int = 0, used: tuple[int, int] = (0, 0)) -> State:
        """A position with ``walls`` as initial walls (not validated: callers pass legal ones)."""
        hb, vb = quoridor_settings.blocked_bits(list(walls), sizex)
        return State(sizex, sizey, max_obstacles, 4 * sizex * sizey if ply_cap is None else ply_cap,
                     (tuple(pawns[0]), tuple(pawns[1])),  # type: ignore[arg-type]
                     tuple(PlacedWall(k) for k in walls), hb, vb, used, turn, 0)

    # ---- derived data (cached: the state never changes) ---------------------------------
    @cached_property
    def geo(self) -> board.Geometry:
        return board.geometry(self.sizex, self.sizey)

    @cached_property
    def up(self) -> int:
        return self.geo.up_ok & ~self.hb

    @cached_property
    def right(self) -> int:
        return self.geo.right_ok & ~self.vb

    def goal_row(self, seat: int) -> int:
        return self.sizey - 1 if seat == 0 else 0

    def open(self, x1: int, y1: int, x2: int, y2: int) -> bool:
        """True if no wall blocks the edge between two adjacent on-board cells."""
        (ax, ay), (bx, _) = sorted(((x1, y1), (x2, y2)))
        i = ay * self.sizex + ax
        return bool((self.up if bx == ax else self.right) >> i & 1)

    def steps(self, seat: int) -> tuple[Step, ...]:
        """The legal steps of ``seat``'s pawn: right, left, up (y+1), down (y-1)."""
        x, y = self.pawns[seat]
        other = self.pawns[1 - seat]
        found = []
        for nx, ny in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
            if (0 <= nx < self.sizex and 0 <= ny < self.sizey and (nx, ny) != other
                    and self.open(x, y, nx, ny)):
                found.append(Step(nx, ny))
        return tuple(found)

    def _targets(self) -> list[tuple[int, int]]:
        return [(self.geo.bit(*self.pawns[s]), self.geo.row(self.goal_row(s))) for s in (0, 1)]

    def iter_wall_keys(self) -> Iterator[WallKey]:
        """Walls legal for whoever has walls left: shape, no overlap, both paths kept."""
        return board.legal_wall_keys(self.geo, self.hb, self.vb, self._targets())

    @cached_property
    def wall_keys(self) -> tuple[WallKey, ...]:
        return tuple(self.iter_wall_keys())

    def can_wall(self, seat: int) -> bool:
        return self.used[seat] < self.max_obstacles

    def has_move(self, seat: int) -> bool:
        """True if ``seat`` has a legal step or wall in this position."""
        if self.steps(seat):
            return True
        if not self.can_wall(seat):
            return False
        if "wall_keys" in self.__dict__:
            return bool(self.wall_keys)
        return next(self.iter_wall_keys(), None) is not None

    @cached_property
    def outcome(self) -> str | None:
        """``"goal"``, ``"stuck"`` (neither can move), ``"cap"`` (ply cap) or ``None``."""
        if self.pawns[0][1] == self.goal_row(0) or self.pawns[1][1] == self.goal_row(1):
            return "goal"
        if not self.has_move(self.turn) and not self.has_move(1 - self.turn):
            return "stuck"
        if self.ply >= self.ply_cap:
            return "cap"
        return None

    def wall_at(self, edge: Edge) -> PlacedWall | None:
        """The placed wall that blocks ``edge``, if any."""
        return next((w for w in self.walls if edge in key_edges(w.key)), None)


class QuoridorRules:
    """The referee; moves are :class:`Step`, :class:`Wall` and :data:`PASS`."""

    def parse_settings(self, raw: Mapping[str, Any]) -> dict[str, Any]:
        return quoridor_settings.parse(raw)

    def initial(self, settings: Mapping[str, Any], rng: random.Random) -> State:
        sx, sy = settings["sizex"], settings["sizey"]
        spec = settings["initial_walls"]
        fixed: list[WallKey] = []
        if not isinstance(spec, Mapping):
            # parse_settings has refused malformed walls: initial() takes parsed settings
            fixed = [require_key(Wall.of(tuple(w[0]), tuple(w[1])), sx, sy) for w in spec]
        columns = settings["start_columns"]
        if columns == "random":
            columns = [rng.choice(quoridor_settings.open_columns(fixed, sx, sy, row)) for row in (0, sy - 1)]
        state = State.build(sx, sy, [(columns[0], 0), (columns[1], sy - 1)], fixed,
                            max_obstacles=settings["max_obstacles"], ply_cap=settings["ply_cap"])
        if isinstance(spec, Mapping):
            for _ in range(spec["random"]):
                keys = state.wall_keys
                if not keys:
                    break  # the board is full: fewer walls than asked for
                state = _with_wall(state, rng.choice(keys), owner=None)
        return state

    def resolved_settings(self, settings: Mapping[str, Any], state: State) -> dict[str, Any]:
        """The start as played: the drawn start columns and initial walls spelled out."""
        walls = [[list(e) for e in wall_of_key(w.key).ordered()] for w in state.walls]
        return {**settings, "start_columns": [state.pawns[0][0], state.pawns[1][0]], "initial_walls": walls}

    def to_move(self, state: State) -> int:
        return state.turn

    def legal_moves(self, state: State) -> Sequence[Move]:
        if state.outcome is not None:
            return ()
        moves: list[Move] = list(state.steps(state.turn))
        if state.can_wall(state.turn):
            moves.extend(wall_of_key(k) for k in state.wall_keys)
        return moves or [PASS]

    def check(self, state: State, move: Move) -> str | None:
        if state.outcome is not None:
            return "the game is over"
        return judge(state, move)

    def apply(self, state: State, move: Move) -> State:
        if isinstance(move, Step):
            pawns = list(state.pawns)
            pawns[state.turn] = (move.x, move.y)
            return replace(state, pawns=tuple(pawns), turn=1 - state.turn, ply=state.ply + 1)  # type: ignore[arg-type]
        if isinstance(move, Wall):
            return _with_wall(state, require_key(move, state.sizex, state.sizey), owner=state.turn)
        return replace(state, turn=1 - state.turn, ply=state.ply + 1)

    def is_over(self, state: State) -> bool:
        return state.outcome is not None

    def winner(self, state: State) -> int | None:
        if state.outcome != "goal":
            return None
        return 0 if state.pawns[0][1] == state.goal_row(0) else 1

    def scores(self, state: State) -> tuple[float, ...]:
        outcome = state.outcome
        if outcome == "goal":
            return (1.0, 0.0) if self.winner(state) == 0 else (0.0, 1.0)
        if outcome == "cap":
            return (0.5, 0.5)
        return (0.0, 0.0)

    def move_to_json(self, move: Move) -> Any:
        return move_to_json(move)

    def move_from_json(self, data: Any) -> Move:
        return move_from_json(data)


def judge(state: State, move: Move) -> str | None:
    """Why ``move`` is illegal for the player to move by the rules of movement and walls
    (``None`` if it is legal), whether or not the game has already ended."""
    if isinstance(move, Step):
        return _check_step(state, move)
    if isinstance(move, Wall):
        return _check_wall(state, move)
    if isinstance(move, Pass):
        return _check_pass(state)
    return f"not a Quoridor move: {move!r}"


def _with_wall(state: State, key: WallKey, owner: int | None) -> State:
    h, v = board.wall_bits(key, state.sizex)
    if owner is None:  # an initial wall: nobody's move
        return replace(state, hb=state.hb | h, vb=state.vb | v, walls=(*state.walls, PlacedWall(key)))
    used = list(state.used)
    used[owner] += 1
    return replace(state, hb=state.hb | h, vb=state.vb | v, walls=(*state.walls, PlacedWall(key, owner, state.ply)),
                   used=tuple(used), turn=1 - state.turn, ply=state.ply + 1)  # type: ignore[arg-type]


def _check_step(state: State, move: Step) -> str | None:
    x, y = state.pawns[state.turn]
    nx, ny = move.x, move.y
    if not (0 <= nx < state.sizex and 0 <= ny < state.sizey):
        return f"step to ({nx}, {ny}) is off the {state.sizex}x{state.sizey} board"
    if (nx, ny) == (x, y):
        return f"step to ({nx}, {ny}) is where your pawn already is"
    if abs(nx - x) + abs(ny - y) != 1:
        return f"step from ({x}, {y}) to ({nx}, {ny}) is not one cell left, right, up or down"
    if (nx, ny) == state.pawns[1 - state.turn]:
        return f"step to ({nx}, {ny}) lands on the opponent's pawn (no jumping)"
    if not state.open(x, y, nx, ny):
        wall = state.wall_at(normalise_edge(x, y, nx, ny))
        what = wall.describe(state.turn) if wall else "a wall"
        return f"step from ({x}, {y}) to ({nx}, {ny}) crosses {what}"
    return None


def _check_wall(state: State, move: Wall) -> str | None:
    key = wall_key(move, state.sizex, state.sizey)
    if isinstance(key, str):
        return key
    text = str(move)
    if not state.can_wall(state.turn):
        if state.max_obstacles == 0:
            return f"wall {text}: this game allows no walls (max_obstacles is 0)"
        return f"wall {text}: you have no walls left (you placed {state.used[state.turn]} of {state.max_obstacles})"
    for edge in key_edges(key):
        placed = state.wall_at(edge)
        if placed is not None:
            return f"wall {text} overlaps {placed.describe(state.turn)} at edge {edge_text(edge)}"
    h, v = board.wall_bits(key, state.sizex)
    up, right = state.up & ~h, state.right & ~v
    cut = [seat for seat, (start, goal) in enumerate(state._targets())
           if not board.reaches(start, goal, up, right, state.sizex)]
    if len(cut) == 2:
        return f"wall {text} leaves neither player a path to its goal row"
    if cut:
        seat = cut[0]
        x, y = state.pawns[seat]
        if seat == state.turn:
            return f"wall {text} leaves you (at ({x}, {y})) no path to your goal row {state.goal_row(seat)}"
        return f"wall {text} leaves the opponent (at ({x}, {y})) no path to its goal row {state.goal_row(seat)}"
    return None


def _check_pass(state: State) -> str | None:
    steps = state.steps(state.turn)
    if steps:
        return f"pass while a legal move exists (e.g. step to ({steps[0].x}, {steps[0].y}))"
    if state.can_wall(state.turn):
        key = next(state.iter_wall_keys(), None)
        if key is not None:
            return f"pass while a legal move exists (e.g. wall {wall_of_key(key)})"
    return None


RULES = QuoridorRules()
