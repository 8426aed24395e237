"""The game registry: every package under ``harness/games/`` that exposes ``GAME`` is a game."""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache

from harness.games.base import GameSpec


class UnknownGame(LookupError):
    """No game of that name is installed."""


@cache
def game_names() -> tuple[str, ...]:
    """Names of all installed games, sorted."""
    names = [m.name for m in pkgutil.iter_modules(__path__) if m.ispkg]
    return tuple(sorted(n for n in names if not n.startswith("_")))


def get_game(name: str) -> GameSpec:
    """The :class:`GameSpec` of game ``name`` (any case); raises :class:`UnknownGame` with the choices."""
    name = name.strip().lower()
    if name not in game_names():
        raise UnknownGame(f"unknown game {name!r} (installed: {', '.join(game_names())})")
    module = importlib.import_module(f"harness.games.{name}")
    spec = getattr(module, "GAME", None)
    if not isinstance(spec, GameSpec):
        raise UnknownGame(f"harness.games.{name} does not define GAME")
    return spec
