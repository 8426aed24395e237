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
from harness.games.priemspel import primes

DEFAULTS = {"start": 0, "N": 5}


def is_prime(n: int) -> bool:
    """True if ``n`` is prime (the seed's ``priem``; a cached sieve, see :mod:`.primes`)."""
    return primes.is_prime(n)


def end_square(start: int, n: int) -> int:
    """The square where the game ends: the first reachable one with no prime within ``n``."""
    square = start
    while True:
        ahead = primes.primes_between(square, square + n)
        if not ahead:
            return square
        # Every prime in the window is reachable, one after the other: continue from the last.
        square = ahead[-1]


@dataclass(frozen=True)
class State:
    """A PriemSpel position: where the pawn is, whose turn it is, and the game's constants."""

    position: int
    n: int
    end: int
    turn: int = 0  # index of the player to move

    @property
    def legal(self) -> tuple[int, ...]:
        """The legal steps from here, smallest first: computed once per state, then reused by
        ``check``, ``is_over``, ``scores`` and ``describe`` (the state never changes)."""
        # Kept in the instance's dict by hand: functools.cached_property takes a lock per first
        # access on Python 3.11, which costs more than the steps themselves.
        found = self.__dict__.get("_legal")
        if found is None:
            found = self.__dict__["_legal"] = primes.steps(self.position, self.n)
        return found

    def steps(self) -> tuple[int, ...]:
        """The legal steps from here, smallest first."""
        return self.legal


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
        if move not in state.legal:
            return f"square {state.position + move} (= {state.position} + {move}) is not prime"
        return None

    def apply(self, state: State, move: int) -> State:
        return State(state.position + move, state.n, state.end, 1 - state.turn)

    def is_over(self, state: State) -> bool:
        return not state.legal

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
    if not state.legal:
        winner = 1 - state.turn
        marks = ["+" if i == winner else "-" for i in range(2)]
    else:
        marks = ["*" if i == state.turn else "" for i in range(2)]
    return f"[{marks[0]}{names[0]},{marks[1]}{names[1]},{state.position}]"


RULES = PriemRules()
