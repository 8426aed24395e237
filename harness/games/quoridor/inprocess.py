"""Quoridor bots driven in the harness's own process: for tests and benchmarks, never for grading.

:class:`LocalBot` calls a bot class's methods directly but passes every argument and answer
through the real wire encoding (:mod:`harness.sandbox.wire`), so the bot receives genuine
``obstacle.Obstacle`` objects and the adapter sees exactly what the sandbox would deliver
(a look-alike ``Obstacle`` still arrives as ``WireObject(cls=None, ...)``). :func:`play` runs one
game with the referee judging every move. No time limits, no isolation: trusted bots only.
"""

from __future__ import annotations

import random
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

from harness.games.base import BadAnswer, Call, PlayedMove, WireObject, import_bot
from harness.games.quoridor.adapter import ADAPTER
from harness.games.quoridor.rules import RULES, State
from harness.sandbox import wire

BOTAPI = Path(__file__).resolve().parent / "botapi"


def obstacle_module() -> ModuleType:
    """The botapi's ``obstacle`` module, importable by bots as ``from obstacle import *``."""
    if str(BOTAPI) not in sys.path:
        sys.path.insert(0, str(BOTAPI))
    import obstacle  # type: ignore[import-not-found]

    return obstacle


def load_module(path: Path) -> ModuleType:
    """Import a bot file in this process (with the botapi on ``sys.path``); once per file."""
    return import_bot(path, BOTAPI)


class LocalBot:
    """One bot instance, called as the sandbox would call it (wire-encoded both ways)."""

    def __init__(self, cls: type) -> None:
        self.cls = cls
        self.instance: Any = None
        self.obstacle = obstacle_module().Obstacle

    def _build(self, name: Any, type_name: str, fields: dict[str, Any]) -> Any:
        obj = self.obstacle.__new__(self.obstacle)
        for key, value in fields.items():
            object.__setattr__(obj, key, value)
        return obj

    def call(self, call: Call) -> Any:
        """Make ``call`` and return the answer as the parent would decode it."""
        raw = wire.encode_value(list(call.args), object_fields=_describe)
        args = tuple(wire.decode_value(raw, self._build))
        if call.method == "__init__":
            self.instance = self.cls(*args)
            return None
        if call.method == "setattr":
            setattr(self.instance, args[0], args[1])
            return None
        answer = getattr(self.instance, call.method)(*args)
        encoded = wire.encode_value(answer, {self.obstacle: "Obstacle"})
        return wire.decode_value(encoded, _wire_object)


def _describe(value: Any) -> tuple[str | None, str, Any] | None:
    if isinstance(value, WireObject):
        return value.cls, value.type_name or str(value.cls), value.fields
    return None


def _wire_object(name: Any, type_name: str, fields: dict[str, Any]) -> WireObject:
    return WireObject(cls=name if isinstance(name, str) else None, fields=fields, type_name=type_name)


@dataclass
class LocalGame:
    """The result of :func:`play`: the final state and, if a bot failed, who and why."""

    state: State
    history: list[PlayedMove[Any]] = field(default_factory=list)
    failed: int | None = None  # seat of a bot whose answer was bad or illegal
    reason: str = ""
    think: tuple[list[float], list[float]] = field(default_factory=lambda: ([], []))  # s per turn, per seat

    @property
    def winner(self) -> int | None:
        if self.failed is not None:
            return 1 - self.failed
        return RULES.winner(self.state)

    @property
    def scores(self) -> tuple[float, ...]:
        if self.failed is not None:
            return (0.0, 1.0) if self.failed == 0 else (1.0, 0.0)
        return RULES.scores(self.state)


def play(classes: list[type], settings: dict[str, Any] | None = None, seed: int = 0,
         logins: tuple[str, str] = ("a", "b")) -> LocalGame:
    """One game between two bot classes, seat 0 first; ``random`` is seeded with ``seed``."""
    parsed = RULES.parse_settings(dict(settings or {}))
    state = RULES.initial(parsed, random.Random(seed))
    random.seed(seed)
    bots = [LocalBot(c) for c in classes]
    for seat, bot in enumerate(bots):
        for call in ADAPTER.setup_calls(state, seat, logins[seat], False):
            bot.call(call)
    game = LocalGame(state)
    while not RULES.is_over(game.state):
        seat = RULES.to_move(game.state)
        answer = None
        start = time.perf_counter()
        for call in ADAPTER.turn_calls(game.state, seat, game.history):
            answer = bots[seat].call(call)
        game.think[seat].append(time.perf_counter() - start)
        move = ADAPTER.decode(game.state, seat, answer)
        if isinstance(move, BadAnswer):
            game.failed, game.reason = seat, move.reason
            break
        reason = RULES.check(game.state, move)
        if reason is not None:
            game.failed, game.reason = seat, reason
            break
        game.state = RULES.apply(game.state, move)
        game.history.append(PlayedMove(seat, move))
    return game
