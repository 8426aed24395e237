"""PriemSpel's bot interface: ``Player(name)`` and ``zet(spel) -> int``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from harness.games.base import BadAnswer, Call, PlayedMove, WireObject
from harness.games.priemspel.rules import State


class PriemAdapter:
    """Hands the bot a read-only ``Spel`` view (``einde()``, ``N``, ``positie``, ``start``) each turn.

    A file in the seed's own shape (``Speler``/``SpelerStrategie`` over its own ``PriemSpel``)
    gets the same calls, through the bot API's ``SeedSeat`` (see ``GAME.interface.adopters``).
    """

    def setup_calls(self, state: State, seat: int, login: str, tournament: bool) -> list[Call]:
        return [Call("__init__", (login,), "init")]

    def turn_calls(self, state: State, seat: int, history: Sequence[PlayedMove[int]]) -> list[Call]:
        start = state.position - sum(played.move for played in history)
        view = WireObject("Spel", {"_N": state.n, "_positie": state.position, "_eind": state.end, "_start": start})
        return [Call("zet", (view,), "move")]

    def decode(self, state: State, seat: int, answer: Any) -> int | BadAnswer:
        if type(answer) is not int:
            return BadAnswer(f"zet() must return an int number of squares, got {_show(answer)}")
        return answer


def _show(value: Any) -> str:
    if isinstance(value, WireObject):
        return f"an object of class {value.type_name}"
    text = repr(value)
    return f"{text[:60]}{'...' if len(text) > 60 else ''} ({type(value).__name__})"


ADAPTER = PriemAdapter()
