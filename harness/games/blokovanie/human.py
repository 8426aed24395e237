"""A person in a Blokovanie seat, with the seed's dialogue.

The seed's example (Human vs. Computer on 5x6)::

    Choose row: 1
    Choose column: 1
    ...
    Computer chose row 4 and column 5.
    ...
    Computer cannot choose free field. Human won.

:func:`ask` reads the row, then the column, each with the seed's prompt. A line that is not a
whole number (optional sign, ASCII digits, spaces around allowed) raises ``ValueError`` as soon
as it is read, so the person is told why and asked for the row again: the seed asks the player
to choose the coordinates again after a bad move. A number off the board or on a blocked cell
is returned as it is; the referee refuses it and the harness asks again.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from harness.games.base import HumanInterface
from harness.games.blokovanie.rules import RULES, Move, State

ROW_PROMPT = "Choose row: "
COLUMN_PROMPT = "Choose column: "
_NUMBER = re.compile(r"[+-]?[0-9]+")


def _number(line: str, what: str) -> int:
    """The whole number typed on ``line``, or ``ValueError`` saying what was wrong."""
    text = line.strip()
    if not text:
        raise ValueError(f"{what} must be a whole number, got nothing")
    if not _NUMBER.fullmatch(text):
        shown = text if len(text) <= 20 else text[:20] + "..."
        raise ValueError(f"{what} must be a whole number, got {shown!r}")
    return int(text)


def ask(state: State, seat: int, read: Callable[[str], str]) -> Move:
    """The person's move: the row, then the column, read with the seed's prompts."""
    row = _number(read(ROW_PROMPT), "the row")
    col = _number(read(COLUMN_PROMPT), "the column")
    return row, col


def narrate(state: State, move: Move, name: str) -> str:
    """The seed's line for another seat's move: ``Computer chose row 4 and column 5.``"""
    return f"{name} chose row {move[0]} and column {move[1]}."


def announce(state: State, names: Sequence[str]) -> str:
    """The seed's last line: ``Computer cannot choose free field. Human won.``

    The player to move has no free cell and lost. For a game that did not end by the rules
    (a verdict stopped it) there is no such line; it says how many cells were still free.
    """
    if not RULES.is_over(state):
        free = len(state.free_cells())
        return f"The game was stopped with {free} free field{'s' if free != 1 else ''} left."
    loser = state.turn
    return f"{names[loser]} cannot choose free field. {names[1 - loser]} won."


HUMAN: HumanInterface[State, Move] = HumanInterface(ask=ask, narrate=narrate, announce=announce)
