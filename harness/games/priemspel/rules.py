"""PriemSpel (seed 001): the pure referee.

One pawn starts on square ``start``; players alternately move it forward by 1..N squares onto
a prime square. The player who cannot move loses. The end square is the first square the pawn
can reach from which no prime lies within N squares, so the game always ends there.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from harness.games.base import SettingsError

DEFAULTS = {"start": 0, "N": 5}


def is_prime(n: int) -> bool:
    """True if ``n`` is prime (the seed's ``priem``)."""
    if n < 2:
        return False
    return all(n % i for i in range(2, int(n**0.5) + 1))


def end_square(start: int, n: int) -> int:
    """The square where the game ends: the first reachable one with no prime within ``n``."""
    square = start
    while True:
        nxt = next((square + k for k in range(1, n + 1) if is_prime(square + k)), None)
        if nxt is None:
            return square
        # Every prime between square and the next gap is reachable, so step to the next prime.
        square = nxt


@dataclass(frozen=True)
class State:
    """A PriemSpel position: where the pawn is, whose turn it is, and the game's constants."""

    position: int
    n: int
    end: int
    turn: int = 0  # index of the player to move

    def steps(self) -> tuple[int, ...]:
        """The legal steps from here, smallest first."""
        return tuple(k for k in range(1, self.n + 1) if is_prime(self.position + k))


class PriemRules:
    """The referee; a move is the number of squares to advance (an ``int``)."""

    def parse_settings(self, raw: Mapping[str, Any]) -> dict[str, Any]:
        unknown = set(raw) - set(DEFAULTS)
        if unknown:
            raise SettingsError(f"unknown setting {sorted(unknown)[0]!r} (known: start, N)")
        settings = {**DEFAULTS, **raw}
        for key in DEFAULTS:
            if type(settings[key]) is not int:
                raise SettingsError(f"{key}: must be an integer, got {settings[key]!r}")
        if settings["start"] < 0:
            raise SettingsError(f"start: must not be negative, got {settings['start']}")
        if settings["N"] < 2:
            raise SettingsError(f"N: must be at least 2, got {settings['N']}")
        if not State(settings["start"], settings["N"], 0).steps():
            raise SettingsError(f"start: no prime within N={settings['N']} squares of {settings['start']}")
        return settings

    def initial(self, settings: Mapping[str, Any], rng: random.Random) -> State:
        return State(settings["start"], settings["N"], end_square(settings["start"], settings["N"]))

    def to_move(self, state: State) -> int:
        return state.turn

    def legal_moves(self, state: State) -> Sequence[int]:
        return state.steps()

    def check(self, state: State, move: int) -> str | None:
        if move < 1:
            return f"step {move} is not forward: steps are 1..{state.n}"
        if move > state.n:
            return f"step {move} is larger than N = {state.n}"
        if not is_prime(state.position + move):
            return f"square {state.position + move} (= {state.position} + {move}) is not prime"
        return None

    def apply(self, state: State, move: int) -> State:
        return State(state.position + move, state.n, state.end, 1 - state.turn)

    def is_over(self, state: State) -> bool:
        return not state.steps()

    def winner(self, state: State) -> int | None:
        # The player to move has no legal step: the other one made the last move and wins.
        return 1 - state.turn if self.is_over(state) else None

    def scores(self, state: State) -> tuple[float, ...]:
        w = self.winner(state)
        return (0.0, 0.0) if w is None else tuple(1.0 if i == w else 0.0 for i in range(2))

    def move_to_json(self, move: int) -> int:
        return move

    def move_from_json(self, data: Any) -> int:
        if type(data) is not int:
            raise ValueError(f"a PriemSpel move is an int, got {data!r}")
        return data


def describe(state: State, names: Sequence[str]) -> str:
    """The seed's notation: ``[*Emile,Zoe,0]`` while playing, ``[+Emile,-Zoe,23]`` at the end."""
    if not state.steps():
        winner = 1 - state.turn
        marks = ["+" if i == winner else "-" for i in range(2)]
    else:
        marks = ["*" if i == state.turn else "" for i in range(2)]
    return f"[{marks[0]}{names[0]},{marks[1]}{names[1]},{state.position}]"


RULES = PriemRules()
