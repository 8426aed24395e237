"""Blokovanie's bot interface: ``Player(name)``, then ``move(board) -> (row, col)`` each turn.

The seed gives no class skeleton, so the names are the harness's: ``Player(name)`` as in the
other games of the course (the harness passes the login as the name), and ``move`` for the
seed's "ťah" (a move). ``board`` is the board exactly as the seed prints it: a list of
strings, one per row, ``-`` a free cell and ``X`` a blocked one. It is a fresh list each turn:
a bot needs no bookkeeping of its own, and the referee never trusts any.

The answer is ``(row, col)``: a tuple or a list of exactly two ints (``bool`` and ``float`` are
not ints), 0-based. Anything else is a bad answer with a precise reason; a well-formed
answer naming an off-board or blocked cell goes to the referee, which refuses it as an
illegal move with its own reason.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from harness.games.base import BadAnswer, Call, PlayedMove, WireObject
from harness.games.blokovanie.rules import Move, State

METHOD = "move"


def show(value: Any) -> str:
    """A short description of a bot's value for a reason: its repr (cut) and its type."""
    if isinstance(value, WireObject):
        return f"an object of class {value.type_name or '?'}"
    text = repr(value)
    return f"{text[:60]}{'...' if len(text) > 60 else ''} ({type(value).__name__})"


class BlokovanieAdapter:
    """The constructor and one ``move(board)`` call per turn; decoding of its answer."""

    def setup_calls(self, state: State, seat: int, login: str, tournament: bool) -> list[Call]:
        return [Call("__init__", (login,), "init")]

    def turn_calls(self, state: State, seat: int, history: Sequence[PlayedMove[Move]]) -> list[Call]:
        return [Call(METHOD, (state.lines(),), "move")]

    def decode(self, state: State, seat: int, answer: Any) -> Move | BadAnswer:
        if not isinstance(answer, (list, tuple)):
            return BadAnswer(f"{METHOD}() must return (row, col), a tuple or list of two ints, got {show(answer)}")
        if len(answer) != 2:
            return BadAnswer(f"{METHOD}() must return two values (row, col), got {len(answer)}: {show(answer)}")
        for name, value in zip(("row", "column"), answer):
            if type(value) is not int:
                return BadAnswer(f"{METHOD}()'s {name} must be an int, got {show(value)}")
        return answer[0], answer[1]


ADAPTER = BlokovanieAdapter()
