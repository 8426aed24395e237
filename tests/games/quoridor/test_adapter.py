"""The Quoridor adapter: the seed's calls, and decoding of make_move() answers as the wire delivers them."""

from __future__ import annotations

import random
from typing import Any

import pytest

from harness.games.base import BadAnswer, Call, PlayedMove, WireObject
from harness.games.quoridor import GAME
from harness.games.quoridor.adapter import ADAPTER
from harness.games.quoridor.moves import PASS, Step, Wall
from harness.games.quoridor.rules import RULES, State


def obs(x1: int, y1: int, x2: int, y2: int, cls: str | None = "Obstacle", type_name: str = "obstacle.Obstacle",
        **extra: Any) -> WireObject:
    return WireObject(cls, {"fromx": x1, "fromy": y1, "tox": x2, "toy": y2, **extra}, type_name)


STATE = State.build(9, 9, [(4, 0), (4, 8)], [("H", 0, 1), ("V", 3, 3)], max_obstacles=5)


def test_spec() -> None:
    assert GAME.wire_classes == {"Obstacle": ("obstacle", "Obstacle")}
    assert GAME.interface.required_methods == ("initialization", "make_move", "opponent_move", "expand_player",
                                     "expand_obstacles")
    assert GAME.submission.forbidden_imports == {"numpy", "scipy", "matplotlib", "stat", "statistics", "pyclbr"}
    assert GAME.submission.ascii_only is False and GAME.render_text is not None


def test_setup_calls() -> None:
    for seat, (me, other) in enumerate((((4, 0), (4, 8)), ((4, 8), (4, 0)))):
        calls = ADAPTER.setup_calls(STATE, seat, "alice", False)
        assert calls[0] == Call("__init__", ("alice",), "init")
        assert calls[1] == Call("initialization", (9, 9, *me, *other, 5, [
            obs(0, 1, 0, 2), obs(1, 1, 1, 2), obs(3, 3, 4, 3), obs(3, 4, 4, 4)]), "init")
        assert len(calls) == 2


def test_turn_calls_tell_the_opponents_last_move() -> None:
    first = ADAPTER.turn_calls(STATE, 0, [])
    assert first == [Call("opponent_move", (1, [4, 8]), "move"), Call("make_move", (), "move")]
    step = ADAPTER.turn_calls(STATE, 1, [PlayedMove(0, Step(4, 1))])
    assert step[0] == Call("opponent_move", (1, [4, 1]), "move")
    wall = Wall.of((6, 6, 5, 6), (5, 5, 6, 5))
    walled = ADAPTER.turn_calls(STATE, 0, [PlayedMove(0, Step(4, 1)), PlayedMove(1, wall)])
    assert walled[0] == Call("opponent_move", (2, [obs(5, 5, 6, 5), obs(5, 6, 6, 6)]), "move")
    passed = ADAPTER.turn_calls(STATE, 1, [PlayedMove(0, Step(4, 1)), PlayedMove(1, wall), PlayedMove(0, PASS)])
    assert passed[0] == Call("opponent_move", (None, None), "move")
    assert [c.method for c in passed] == ["opponent_move", "make_move"]


@pytest.mark.parametrize(("answer", "move"), [
    ((1, [4, 1]), Step(4, 1)),
    ([1, [4, 1]], Step(4, 1)),
    ((1, (4, 1)), Step(4, 1)),
    ((1, [-3, 99]), Step(-3, 99)),  # decodes; the referee refuses it
    ((2, [obs(5, 5, 6, 5), obs(5, 6, 6, 6)]), Wall.of((5, 5, 6, 5), (5, 6, 6, 6))),
    ((2, (obs(6, 6, 5, 6), obs(6, 5, 5, 5))), Wall.of((5, 5, 6, 5), (5, 6, 6, 6))),  # any order and direction
    ((2, [obs(0, 0, 0, 1), obs(0, 0, 0, 1)]), Wall.of((0, 0, 0, 1))),  # the referee judges it
    ((2, [obs(0, 0, 0, 1, extra_attribute="x"), obs(1, 0, 1, 1)]), Wall.of((0, 0, 0, 1), (1, 0, 1, 1))),
    (None, PASS),
    ((None,), PASS),
    ((None, None), PASS),
    ([None, []], PASS),
])
def test_decode_accepts(answer: Any, move: Any) -> None:
    assert ADAPTER.decode(STATE, 0, answer) == move


@pytest.mark.parametrize(("answer", "reason"), [
    (1, "make_move() must return (1, [x, y]), (2, [o1, o2]) or None, got 1 (int)"),
    ("pass", "make_move() must return (1, [x, y]), (2, [o1, o2]) or None, got 'pass' (str)"),
    ([], "make_move() must return (1, [x, y]), (2, [o1, o2]) or None, got [] (list)"),
    ((1, 4, 1), "make_move() must return two values (moveType, list), got 3: (1, 4, 1) (tuple)"),
    ((1,), "make_move() must return two values (moveType, list), got 1: (1,) (tuple)"),
    ((0, [4, 1]), "make_move()'s move type must be 1 (step), 2 (wall) or None (pass), got 0 (int)"),
    ((True, [4, 1]), "make_move()'s move type must be 1 (step), 2 (wall) or None (pass), got True (bool)"),
    ((1.0, [4, 1]), "make_move()'s move type must be 1 (step), 2 (wall) or None (pass), got 1.0 (float)"),
    (("1", [4, 1]), "make_move()'s move type must be 1 (step), 2 (wall) or None (pass), got '1' (str)"),
    ((1, [4]), "make_move()[1] must be [x, y], got [4] (list)"),
    ((1, 4), "make_move()[1] must be [x, y], got 4 (int)"),
    ((1, [4, 1.0]), "make_move()[1]: y must be an int, got 1.0 (float)"),
    ((1, [True, 1]), "make_move()[1]: x must be an int, got True (bool)"),
    ((1, {"x": 4}), "make_move()[1] must be [x, y], got {'x': 4} (dict)"),
    ((2, [obs(5, 5, 6, 5)]), "make_move()[1] must be [o1, o2] (two Obstacles), got [WireObject("),
    ((2, obs(5, 5, 6, 5)), "make_move()[1] must be [o1, o2] (two Obstacles), got an object of class obstacle.Obstacle"),
    ((2, [obs(5, 5, 6, 5), [5, 6, 6, 6]]), "make_move()[1][1] must be an Obstacle, got [5, 6, 6, 6] (list)"),
    ((2, [obs(5, 5, 6, 5, cls=None, type_name="player.Obstacle"), obs(5, 6, 6, 6)]),
     ("make_move()[1][0] is an object of class player.Obstacle, not the harness's Obstacle class "
      "(use `from obstacle import *`, do not define your own)")),
    ((2, [obs(5, 5, 6, 5), WireObject(None, {}, "builtins.object")]),
     "make_move()[1][1] is an object of class builtins.object, not the harness's Obstacle class"),
    ((2, [obs(5, 5, 6, 5.0), obs(5, 6, 6, 6)]), "make_move()[1][0].toy must be an int, got 5.0 (float)"),
    ((2, [WireObject("Obstacle", {"fromx": 1, "fromy": 1, "tox": 1}, "obstacle.Obstacle"), obs(5, 6, 6, 6)]),
     "make_move()[1][0] has no attribute toy"),
])
def test_decode_refuses(answer: Any, reason: str) -> None:
    decoded = ADAPTER.decode(STATE, 0, answer)
    assert isinstance(decoded, BadAnswer)
    assert decoded.reason.startswith(reason), decoded.reason


def test_decoded_moves_are_judged_by_the_referee() -> None:
    state = RULES.initial(RULES.parse_settings({}), random.Random(0))
    assert RULES.check(state, ADAPTER.decode(state, 0, (1, [4, 1]))) is None
    assert RULES.check(state, ADAPTER.decode(state, 0, (1, [-3, 99]))) == "step to (-3, 99) is off the 9x9 board"
    same = ADAPTER.decode(state, 0, (2, [obs(0, 0, 0, 1), obs(0, 1, 0, 0)]))
    assert RULES.check(state, same) == \
        "both obstacles are the same edge (0,0)->(0,1); a wall blocks two different edges"
    assert RULES.check(state, ADAPTER.decode(state, 0, None)) == \
        "pass while a legal move exists (e.g. step to (5, 0))"
