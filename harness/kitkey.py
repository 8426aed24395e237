"""A job's or group's ``kit:`` key: which reference players ``harness kit`` hands the students.

::

    kit: {players: [random, brute]}     # a bare name: that player of every game of the kit
    kit: {players: [streky/brute]}      # GAME/NAME: one game's

Without the key a kit holds the games' weak players (``harness.studentkit.WEAK``). A name must be
a reference player of one of the kit's games.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from harness.games import get_game
from harness.keys import ConfigError


@dataclass(frozen=True)
class KitChoice:
    """The reference players a course hands out: ``(game, name)`` pairs."""

    players: tuple[tuple[str, str], ...]

    def names(self, game: str) -> list[str]:
        """The chosen players of ``game``, in the order given."""
        return [n for g, n in self.players if g == game]


def read_kit(path: Path, where: str, raw: Any, games: Sequence[str]) -> KitChoice:
    """``kit: {players: [...]}`` of the job or group ``where``, checked against its ``games``."""
    at = f"{path}: jobs.{where}.kit"
    if not isinstance(raw, dict) or set(raw) != {"players"}:
        raise ConfigError(f"{at}: must be a mapping {{players: [NAME, ...]}} (the reference players students get)")
    names = raw["players"]
    if not isinstance(names, list) or not all(isinstance(n, str) and n for n in names):
        raise ConfigError(f"{at}.players: must be a list of reference players' names (e.g. [random, brute])")
    chosen: list[tuple[str, str]] = []
    for i, text in enumerate(names):
        game_name, _, name = text.rpartition("/")
        pool = [game_name] if game_name else list(dict.fromkeys(games))
        found = []
        for g in pool:
            if g not in games:
                continue
            try:
                get_game(g).reference_player(name)
            except LookupError:
                continue
            found.append((g, name))
        if not found:
            among = ", ".join(dict.fromkeys(games)) or "the kit's games"
            raise ConfigError(f"{at}.players[{i}]: {text!r} is no reference player of {among}")
        chosen += [f for f in found if f not in chosen]
    return KitChoice(tuple(chosen))


__all__ = ["KitChoice", "read_kit"]
