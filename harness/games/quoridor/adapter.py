"""The Quoridor variant's bot interface, as in the seed's manager.

Setup: ``Player(login)``, then ``initialization(sizex, sizey, myx, myy, opponentx, opponenty,
max_obstacles, list_of_obstacles)`` with the initial walls as a flat list of ``Obstacle`` s (two
per wall, each from its smaller cell to its larger one, walls in their order on the board).

Each turn: ``opponent_move(moveType, result)`` then ``make_move()``. ``opponent_move`` tells the
opponent's last move: ``(1, [x, y])`` after a step, ``(2, [o1, o2])`` after a wall (the
obstacles in canonical order and direction, not necessarily as the opponent returned them),
and ``(None, None)`` after a pass (the seed's manager would have crashed unpacking the pass; its
``Player`` skeleton only looks at ``moveType`` then). Before the very first move of the game the
first player is told ``(1, [opponent's x, y])``, as the seed's manager does.

``make_move()`` must return ``(1, [x, y])``, ``(2, [o1, o2])`` with two instances of the
harness's ``Obstacle`` (any order, either direction), or a pass: ``None`` or a tuple/list whose
first item is ``None``. Lists are accepted wherever the seed writes tuples (the manager only
unpacks them). Anything else is a bad answer; the referee judges what decodes.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from harness.games.base import BadAnswer, Call, PlayedMove, WireObject
from harness.games.quoridor.moves import PASS, Edge, Move, Step, Wall, key_edges
from harness.games.quoridor.rules import State

FIELDS = ("fromx", "fromy", "tox", "toy")


def obstacle(edge: Edge) -> WireObject:
    """An ``Obstacle`` for the wire (rebuilt as a real ``obstacle.Obstacle`` in the bot)."""
    return WireObject("Obstacle", dict(zip(FIELDS, edge)), "obstacle.Obstacle")


def wall_obstacles(wall: Wall) -> list[WireObject]:
    """A wall as two ``Obstacle`` s, canonical order and direction."""
    return [obstacle(e) for e in wall.ordered()]


def show(value: Any) -> str:
    """A short description of a bot's value for a reason."""
    if isinstance(value, WireObject):
        return f"an object of class {value.type_name or '?'}"
    text = repr(value)
    return f"{text[:60]}{'...' if len(text) > 60 else ''} ({type(value).__name__})"


def decode_edge(value: Any, what: str) -> Edge | BadAnswer:
    """One answer item that must be the harness's ``Obstacle`` with int fields, as an edge."""
    if not isinstance(value, WireObject):
        return BadAnswer(f"{what} must be an Obstacle, got {show(value)}")
    if value.cls != "Obstacle":
        return BadAnswer(f"{what} is an object of class {value.type_name or '?'}, not the harness's "
                         f"Obstacle class (use `from obstacle import *`, do not define your own)")
    coords = []
    for name in FIELDS:
        if name not in value.fields:
            return BadAnswer(f"{what} has no attribute {name}")
        v = value.fields[name]
        if type(v) is not int:
            return BadAnswer(f"{what}.{name} must be an int, got {show(v)}")
        coords.append(v)
    return (coords[0], coords[1], coords[2], coords[3])


def decode_cell(value: Any, what: str) -> tuple[int, int] | BadAnswer:
    """``[x, y]`` (a list or tuple of two exact ints)."""
    if not isinstance(value, (list, tuple)) or len(value) != 2:
        return BadAnswer(f"{what} must be [x, y], got {show(value)}")
    for name, v in zip("xy", value):
        if type(v) is not int:
            return BadAnswer(f"{what}: {name} must be an int, got {show(v)}")
    return value[0], value[1]


def decode_pair(value: Any, what: str) -> Wall | BadAnswer:
    """``[o1, o2]`` (a list or tuple of two ``Obstacle`` s) as a wall."""
    if not isinstance(value, (list, tuple)) or len(value) != 2:
        return BadAnswer(f"{what} must be [o1, o2] (two Obstacles), got {show(value)}")
    edges = []
    for n, item in enumerate(value):
        edge = decode_edge(item, f"{what}[{n}]")
        if isinstance(edge, BadAnswer):
            return edge
        edges.append(edge)
    return Wall.of(*edges)


class QuoridorAdapter:
    """Setup and turn calls of the seed's interface; decoding of ``make_move()``'s answer."""

    def setup_calls(self, state: State, seat: int, login: str, tournament: bool) -> list[Call]:
        me, other = state.pawns[seat], state.pawns[1 - seat]
        obstacles = [obstacle(e) for w in state.walls for e in key_edges(w.key)]
        return [Call("__init__", (login,), "init"),
                Call("initialization", (state.sizex, state.sizey, me[0], me[1], other[0], other[1],
                                        state.max_obstacles, obstacles), "init")]

    def turn_calls(self, state: State, seat: int, history: Sequence[PlayedMove[Move]]) -> list[Call]:
        last = next((p.move for p in reversed(history) if p.player != seat), None)
        if last is None:
            x, y = state.pawns[1 - seat]
            told: tuple[Any, Any] = (1, [x, y])
        elif isinstance(last, Step):
            told = (1, [last.x, last.y])
        elif isinstance(last, Wall):
            told = (2, wall_obstacles(last))
        else:
            told = (None, None)
        return [Call("opponent_move", told, "move"), Call("make_move", (), "move")]

    def decode(self, state: State, seat: int, answer: Any) -> Move | BadAnswer:
        if answer is None:
            return PASS
        if not isinstance(answer, (list, tuple)) or not answer:
            return BadAnswer(f"make_move() must return (1, [x, y]), (2, [o1, o2]) or None, got {show(answer)}")
        kind = answer[0]
        if kind is None:
            return PASS
        if len(answer) != 2:
            return BadAnswer(f"make_move() must return two values (moveType, list), got {len(answer)}: "
                             f"{show(answer)}")
        if type(kind) is not int or kind not in (1, 2):
            return BadAnswer(f"make_move()'s move type must be 1 (step), 2 (wall) or None (pass), "
                             f"got {show(kind)}")
        if kind == 1:
            cell = decode_cell(answer[1], "make_move()[1]")
            return cell if isinstance(cell, BadAnswer) else Step(*cell)
        return decode_pair(answer[1], "make_move()[1]")


ADAPTER = QuoridorAdapter()
