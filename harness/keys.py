"""Reading one mapping of ``tournaments.yaml``: typed values, or one line naming the file and key.

:mod:`harness.config` reads a job's common keys with it, and each format of
:mod:`harness.tournament.formats` its own.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from harness.games.base import GameSpec, is_bare_name


class ConfigError(ValueError):
    """A problem in tournaments.yaml; the message is one line naming the file and key path."""


class Reader:
    """Reads one job's mapping, raising ConfigError with the full key path."""

    def __init__(self, path: Path, where: str, data: Mapping[str, Any]) -> None:
        self.path, self.where, self.data = path, where, data

    def fail(self, key: str, problem: str) -> ConfigError:
        return ConfigError(f"{self.path}: {self.where}.{key}: {problem}")

    def get(self, key: str, default: Any = ...) -> Any:
        if key not in self.data:
            if default is ...:
                raise ConfigError(f"{self.path}: {self.where}: missing key {key!r}")
            return default
        return self.data[key]

    def integer(self, key: str, default: Any = ..., minimum: int = 0) -> int:
        value = self.get(key, default)
        if type(value) is not int or value < minimum:
            raise self.fail(key, f"must be an integer >= {minimum}, got {value!r}")
        return value

    def number(self, key: str, value: Any, minimum: float = 0.0, inclusive: bool = False) -> float:
        if type(value) not in (int, float) or value < minimum or (value == minimum and not inclusive):
            raise self.fail(key, f"must be a number {'>=' if inclusive else '>'} {minimum:g}, got {value!r}")
        return float(value)

    def boolean(self, key: str, default: bool) -> bool:
        value = self.get(key, default)
        if type(value) is not bool:
            raise self.fail(key, f"must be true or false, got {value!r}")
        return value

    def choice(self, key: str, choices: tuple[str, ...], default: Any = ...) -> str:
        value = self.get(key, default)
        if value not in choices:
            raise self.fail(key, f"must be one of {', '.join(choices)}, got {value!r}")
        return str(value)

    def file(self, key: str, text: Any, game: GameSpec | None = None) -> Path:
        if not isinstance(text, str):
            raise self.fail(key, f"must be a path, got {text!r}")
        path = locate(self.path.parent, text)
        if not path.exists() and game is not None and is_bare_name(text):
            try:  # a bare name that is no path names the game's shipped reference player
                return game.reference_player(text)
            except LookupError as exc:
                raise self.fail(key, str(exc)) from None
        if not path.exists():
            raise self.fail(key, f"no such file: {text}")
        return path


def locate(base: Path, text: str) -> Path:
    """``text`` relative to ``base``; the installed harness's own reference players as a fallback."""
    path = (base / text).resolve()
    if not path.exists() and Path(text).parts[:1] == ("reference_players",):
        import reference_players

        shipped = Path(reference_players.__file__).resolve().parent.joinpath(*Path(text).parts[1:])
        if shipped.exists():
            return shipped
    return path


__all__ = ["ConfigError", "Reader", "locate"]
