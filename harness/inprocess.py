"""Games between trusted bot classes in this process, for every game: tests, benchmarks, analyses.

No sandbox and no time limit, but otherwise the grader's path: every call's arguments and answer
go through the real wire encoding (:mod:`harness.sandbox.bot.wire`), so a bot receives fresh lists
and real wire objects (``Obstacle``, ``Spel`` ...) and the adapter sees exactly what the sandbox
would deliver (a tuple stays a tuple, a look-alike class stays a look-alike). Answers are
decoded by the game's adapter and judged by its referee; the first verdict ends the game, as
in :mod:`harness.match`. Works for any game of the registry and any number of players.

Use :func:`harness.match.play_match` for anything that must be isolated or timed by the rules.
"""

from __future__ import annotations

import importlib
import random
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from harness.games.base import BadAnswer, Call, GameSpec, PlayedMove, WireObject, import_bot, places_of
from harness.record import Verdict
from harness.sandbox.bot import construct, wire


def load_class(game: GameSpec, path: str | Path) -> type:
    """The student class (``Player``) of a bot file, imported with the game's bot API importable.

    A file in another shape its seed asks for is played through the game's adopters, as in the sandbox.
    """
    module = import_bot(path, game.botapi_dir)
    cls = getattr(module, game.interface.student_class, None)
    for module_name, class_name in game.interface.adopters if not isinstance(cls, type) else ():
        cls = getattr(importlib.import_module(module_name), class_name).adopt(module)
        if isinstance(cls, type):
            break
    if not isinstance(cls, type):
        raise AttributeError(f"{path} defines no class {game.interface.student_class}")
    return cls


def _wire_classes(game: GameSpec) -> dict[str, type]:
    """The game's wire classes, imported from its bot API folder (as a bot imports them)."""
    if game.botapi_dir is not None and str(game.botapi_dir) not in sys.path:
        sys.path.insert(0, str(game.botapi_dir))
    return {name: getattr(importlib.import_module(module), cls) for name, (module, cls) in game.wire_classes.items()}


class LocalBot:
    """One bot instance, called as the sandbox would call it (wire-encoded both ways)."""

    def __init__(self, game: GameSpec, cls: type) -> None:
        self.cls = cls
        self.instance: Any = None
        self.by_name = _wire_classes(game)
        self.by_class = {c: n for n, c in self.by_name.items()}

    def _build(self, name: Any, type_name: str, fields: dict[str, Any]) -> Any:
        cls = self.by_name[name]
        obj = cls.__new__(cls)
        for key, value in fields.items():
            object.__setattr__(obj, key, value)
        return obj

    def call(self, call: Call) -> Any:
        """Make ``call`` and return the answer as the parent would decode it."""
        raw = wire.encode_value(list(call.args), object_fields=_describe)
        args = tuple(wire.decode_value(raw, self._build))
        if call.method == "__init__":
            if call.optional:  # as the worker does: the longest form the class takes
                arity = construct.choose_arity(self.cls, len(args), call.optional)
                if arity is None:
                    raise TypeError(construct.mismatch(self.cls, self.cls.__name__, call.params, call.optional))
                args = args[:arity]
            self.instance = self.cls(*args)
            return None
        if call.method == "setattr":
            setattr(self.instance, args[0], args[1])
            return None
        answer = getattr(self.instance, call.method)(*args)
        return wire.decode_value(wire.encode_value(answer, self.by_class), _wire_object)


def _describe(value: Any) -> tuple[str | None, str, Any] | None:
    if isinstance(value, WireObject):
        return value.cls, value.type_name or str(value.cls), value.fields
    return None


def _wire_object(name: Any, type_name: str, fields: dict[str, Any]) -> WireObject:
    return WireObject(cls=name if isinstance(name, str) else None, fields=fields, type_name=type_name)


@dataclass
class LocalGame:
    """The end of an in-process game: the final state, the moves, and each seat's verdict and time."""

    game: GameSpec
    state: Any
    history: list[PlayedMove[Any]] = field(default_factory=list)
    verdicts: list[Verdict] = field(default_factory=list)
    reasons: list[str] = field(default_factory=list)
    think: list[list[float]] = field(default_factory=list)  # seconds per turn, per seat
    # CPU seconds per turn, per seat (this thread's): the bot's own time, whatever the machine's
    # load took of the wall clock in ``think``
    cpu: list[list[float]] = field(default_factory=list)

    @property
    def failed(self) -> int | None:
        """The seat of the bot whose answer ended the game (bad, illegal, or raised), if any."""
        return next((i for i, v in enumerate(self.verdicts) if v is not Verdict.OK), None)

    @property
    def reason(self) -> str:
        return "" if self.failed is None else self.reasons[self.failed]

    @property
    def moves(self) -> list[Any]:
        return [p.move for p in self.history]

    @property
    def places(self) -> tuple[int, ...]:
        """Each seat's finishing place (1 = first), as :class:`harness.record.GameRecord` has it."""
        return places_of(self.game.rules, self.state, [v is not Verdict.OK for v in self.verdicts])

    @property
    def winner(self) -> int | None:
        """The only seat in first place; a bot with a verdict against it never wins."""
        firsts = [i for i, p in enumerate(self.places) if p == 1]
        if self.failed is None:
            return self.game.rules.winner(self.state)
        return firsts[0] if len(firsts) == 1 else None

    @property
    def scores(self) -> tuple[float, ...]:
        return tuple(self.game.rules.scores(self.state))

    @property
    def max_move(self) -> list[float]:
        return [max(t, default=0.0) for t in self.think]


def play(game: GameSpec, classes: Sequence[type], settings: dict[str, Any] | None = None, seed: int = 0,
         logins: Sequence[str] | None = None, tournament: bool = False, max_plies: int | None = None) -> LocalGame:
    """One game between bot classes, seat 0 first; the bots' ``random`` is seeded with ``seed``."""
    n = len(classes)
    logins = list(logins) if logins is not None else [chr(ord("a") + i) for i in range(n)]
    rules, adapter = game.rules, game.adapter
    state = rules.initial(rules.parse_settings(dict(settings or {})), random.Random(seed))
    random.seed(seed)  # the bots' module-level random, as the sandbox seeds it
    result = LocalGame(game, state, verdicts=[Verdict.OK] * n, reasons=[""] * n, think=[[] for _ in range(n)],
                       cpu=[[] for _ in range(n)])
    bots = [LocalBot(game, c) for c in classes]

    def fail(seat: int, verdict: Verdict, reason: str) -> LocalGame:
        result.verdicts[seat], result.reasons[seat] = verdict, reason
        return result

    for seat, bot in enumerate(bots):
        for call in game.setup_calls(state, seat, logins[seat], tournament, game.move_limit):
            try:
                bot.call(call)
            except Exception as exc:  # noqa: BLE001 - a bot may raise anything
                return fail(seat, Verdict.EXCEPTION, f"{type(exc).__name__}: {exc}")
    while not rules.is_over(result.state):
        if max_plies is not None and len(result.history) >= max_plies:
            break
        seat = rules.to_move(result.state)
        answer = None
        start, start_cpu = time.perf_counter(), time.thread_time()
        for call in adapter.turn_calls(result.state, seat, result.history):
            try:
                answer = bots[seat].call(call)
            except Exception as exc:  # noqa: BLE001
                return fail(seat, Verdict.EXCEPTION, f"{type(exc).__name__}: {exc}")
        result.think[seat].append(time.perf_counter() - start)
        result.cpu[seat].append(time.thread_time() - start_cpu)
        move = adapter.decode(result.state, seat, answer)
        if isinstance(move, BadAnswer):
            return fail(seat, Verdict.BAD_ANSWER, move.reason)
        reason = rules.check(result.state, move)
        if reason is not None:
            return fail(seat, Verdict.ILLEGAL_MOVE, reason)
        result.state = rules.apply(result.state, move)
        result.history.append(PlayedMove(seat, move))
    return result


def shuffled_wins(game: GameSpec, entries: Sequence[tuple[str, type]], runs: int, seed: int = 0,
                  settings: dict[str, Any] | None = None) -> dict[str, float]:
    """The seeds' strategy comparison, in this process (the ``shuffled`` job format plays it sandboxed).

    ``runs`` games; before each, ``game.players`` of the ``(name, Player class)`` entries take the
    seats in a seeded random order. Returns the games won per name (a shared first place counts
    as a share), summing to ``runs``. A game with a verdict raises ``RuntimeError``: comparing
    bots that break the rules means nothing.
    """
    wins = {name: 0.0 for name, _ in entries}
    for run in range(runs):
        rng = random.Random(f"shuffled/{seed}/{run}")
        seated = rng.sample(list(entries), game.players)
        result = play(game, [cls for _, cls in seated], settings, seed=rng.getrandbits(32),
                      logins=[name for name, _ in seated])
        if result.failed is not None:
            raise RuntimeError(f"run {run}: {seated[result.failed][0]}: {result.reason}")
        firsts = [i for i, p in enumerate(result.places) if p == 1]
        for i in firsts:
            wins[seated[i][0]] += 1 / len(firsts)
    return wins


__all__ = ["LocalBot", "LocalGame", "load_class", "play", "shuffled_wins"]
