"""The Blokovanie adapter: the calls a bot gets, and every malformed answer with its pinned reason.

Answers are given as the wire delivers them (a tuple stays a tuple, a bool stays a bool, an
object of the bot's own class is a ``WireObject`` naming that class).
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from harness.games.base import BadAnswer, Call, PlayedMove, WireObject
from harness.games.blokovanie import GAME
from harness.games.blokovanie.adapter import ADAPTER
from harness.games.blokovanie.human import HUMAN
from harness.games.blokovanie.render import svg, text
from harness.games.blokovanie.rules import RULES, State
from harness.inprocess import play
from harness.record import Verdict

STATE = RULES.apply(RULES.initial(RULES.parse_settings({}), random.Random(0)), (1, 1))


def test_spec() -> None:
    assert GAME.name == "blokovanie" and GAME.title == "Blokovanie"
    assert GAME.interface.required_methods == ("move",) and GAME.interface.student_class == "Player"
    assert GAME.botapi_dir is None and dict(GAME.wire_classes) == {}
    assert GAME.render is svg and GAME.render_text is text and GAME.human is HUMAN
    assert GAME.players == 2 and not GAME.submission.ascii_only and GAME.submission.forbidden_imports == frozenset()


def test_setup_is_the_constructor_with_the_name() -> None:
    for seat in (0, 1):
        assert ADAPTER.setup_calls(STATE, seat, "xnovak", True) == [Call("__init__", ("xnovak",), "init")]


def test_each_turn_is_one_move_call_with_the_printed_board() -> None:
    calls = ADAPTER.turn_calls(STATE, 1, [PlayedMove(0, (1, 1))])
    assert calls == [Call("move", (["XXX---", "XXX---", "XXX---", "------", "------"],), "move")]
    tall = State.from_lines(["-X", "--", "X-"], turn=1)
    assert ADAPTER.turn_calls(tall, 1, []) == [Call("move", (["-X", "--", "X-"],), "move")]


@pytest.mark.parametrize(("answer", "move"), [
    ((3, 4), (3, 4)),
    ([3, 4], (3, 4)),
    ((0, 0), (0, 0)),  # decodes; the referee refuses it (blocked)
    ((-1, 99), (-1, 99)),  # decodes; the referee refuses it (off the board)
    ([10**20, 0], (10**20, 0)),
])
def test_well_formed_answers_decode(answer: Any, move: tuple[int, int]) -> None:
    decoded = ADAPTER.decode(STATE, 1, answer)
    assert decoded == move and type(decoded) is tuple


BAD_ANSWERS = [
    (None, "move() must return (row, col), a tuple or list of two ints, got None (NoneType)"),
    ("3,4", "move() must return (row, col), a tuple or list of two ints, got '3,4' (str)"),
    (34, "move() must return (row, col), a tuple or list of two ints, got 34 (int)"),
    (3.4, "move() must return (row, col), a tuple or list of two ints, got 3.4 (float)"),
    (True, "move() must return (row, col), a tuple or list of two ints, got True (bool)"),
    ({"row": 3, "col": 4}, "move() must return (row, col), a tuple or list of two ints, "
                           "got {'row': 3, 'col': 4} (dict)"),
    (WireObject(None, {"row": 3, "col": 4}, "player.Cell"),
     "move() must return (row, col), a tuple or list of two ints, got an object of class player.Cell"),
    ([], "move() must return two values (row, col), got 0: [] (list)"),
    ((3,), "move() must return two values (row, col), got 1: (3,) (tuple)"),
    ([3, 4, 5], "move() must return two values (row, col), got 3: [3, 4, 5] (list)"),
    ([[3, 4]], "move() must return two values (row, col), got 1: [[3, 4]] (list)"),
    ((True, 4), "move()'s row must be an int, got True (bool)"),
    ((3, False), "move()'s column must be an int, got False (bool)"),
    ((3.0, 4), "move()'s row must be an int, got 3.0 (float)"),
    ([3, 4.0], "move()'s column must be an int, got 4.0 (float)"),
    (("3", 4), "move()'s row must be an int, got '3' (str)"),
    ([3, "4"], "move()'s column must be an int, got '4' (str)"),
    ((None, 4), "move()'s row must be an int, got None (NoneType)"),
    ([[3], 4], "move()'s row must be an int, got [3] (list)"),
    ((3, (4,)), "move()'s column must be an int, got (4,) (tuple)"),
    (("x" * 100, 4), "move()'s row must be an int, got '" + "x" * 59 + "... (str)"),
]


@pytest.mark.parametrize(("answer", "reason"), BAD_ANSWERS, ids=[repr(a)[:30] for a, _ in BAD_ANSWERS])
def test_malformed_answers_are_bad_answers_with_pinned_reasons(answer: Any, reason: str) -> None:
    assert ADAPTER.decode(STATE, 1, answer) == BadAnswer(reason)


class _Answers:
    """A bot class whose first move returns ``ANSWER``."""

    ANSWER: Any = None

    def __init__(self, name: str) -> None:
        self.name = name

    def move(self, board: list[str]) -> Any:
        return self.ANSWER


class _FirstFree:
    def __init__(self, name: str) -> None:
        self.name = name

    def move(self, board: list[str]) -> tuple[int, int]:
        return next((r, c) for r, row in enumerate(board) for c, ch in enumerate(row) if ch == "-")


@pytest.mark.parametrize(("answer", "verdict", "reason"), [
    ([1, 1.5], Verdict.BAD_ANSWER, "move()'s column must be an int, got 1.5 (float)"),
    ("1 1", Verdict.BAD_ANSWER, "move() must return (row, col), a tuple or list of two ints, got '1 1' (str)"),
    ((0, 1), Verdict.ILLEGAL_MOVE, "cell (0, 1) is already blocked"),
    ((5, 0), Verdict.ILLEGAL_MOVE, "row 5 is off the 5x6 board (rows 0..4)"),
    ([0, 6], Verdict.ILLEGAL_MOVE, "column 6 is off the 5x6 board (columns 0..5)"),
])
def test_bad_and_illegal_answers_end_the_game_against_the_bot(answer: Any, verdict: Verdict, reason: str) -> None:
    bot = type("Bot", (_Answers,), {"ANSWER": answer})
    result = play(GAME, [_FirstFree, bot])  # (0, 0) first: it blocks (0, 1), (1, 0) and (1, 1)
    assert result.verdicts == [Verdict.OK, verdict] and result.reasons[1] == reason
    assert result.winner == 0 and result.moves == [(0, 0)]
