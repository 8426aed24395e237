"""Play Štreky between bot classes in this process (tests, benchmarks, strength measurements).

No sandbox and no time limit: every call's arguments and answer go through the real wire
encoding (so a bot sees fresh lists, and a tuple answer stays a tuple), answers are decoded by
the real adapter and judged by the real referee. Use :func:`harness.match.play_match` for
anything that must be isolated or timed by the rules.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from harness.games.base import BadAnswer, PlayedMove, import_bot
from harness.games.streky.adapter import ADAPTER
from harness.games.streky.rules import RULES, State
from harness.record import Verdict
from harness.sandbox import wire

BOTAPI = Path(__file__).resolve().parent / "botapi"


def load_player(path: str | Path) -> type:
    """The ``Player`` class of a bot file, imported with the botapi (``base``) importable."""
    return import_bot(path, BOTAPI).Player


def _over_wire(value: Any) -> Any:
    """``value`` as the other side of the wire would see it."""
    return wire.decode_value(wire.parse(wire.dumps(value)), lambda *a: None)


@dataclass
class LocalResult:
    """The end of an in-process game: the final state and each seat's verdict and timing."""

    state: State
    verdicts: list[Verdict]
    reasons: list[str]
    max_move: list[float] = field(default_factory=lambda: [0.0, 0.0])
    total: list[float] = field(default_factory=lambda: [0.0, 0.0])
    moves: list[Any] = field(default_factory=list)

    @property
    def winner(self) -> int | None:
        """The winner: a bot with a verdict against it loses; otherwise by the rules."""
        bad = [v is not Verdict.OK for v in self.verdicts]
        if any(bad):
            return None if all(bad) else bad.index(False)
        return RULES.winner(self.state)


def play_local(players: list[type], settings: dict[str, Any] | None = None, seed: int = 0,
               tournament: bool = False, logins: tuple[str, str] = ("a", "b")) -> LocalResult:
    """Play one game between two ``Player`` classes, seat 0 first."""
    state = RULES.initial(RULES.parse_settings(dict(settings or {})), random.Random(seed))
    random.seed(seed)  # the bots' module-level random, as the sandbox seeds it
    result = LocalResult(state, [Verdict.OK, Verdict.OK], ["", ""])
    bots: list[Any] = []
    for seat, cls in enumerate(players):
        bot = None
        for call in ADAPTER.setup_calls(state, seat, logins[seat], tournament):
            args = _over_wire(list(call.args))
            if call.method == "__init__":
                bot = cls(*args)
            else:
                setattr(bot, *args)
        bots.append(bot)
    history: list[PlayedMove[Any]] = []
    while not RULES.is_over(state):
        seat = RULES.to_move(state)
        answer = None
        for call in ADAPTER.turn_calls(state, seat, history):
            args = _over_wire(list(call.args))
            start = time.perf_counter()
            try:
                answer = getattr(bots[seat], call.method)(*args)
            except Exception as exc:  # noqa: BLE001 - a bot may raise anything
                result.verdicts[seat], result.reasons[seat] = Verdict.EXCEPTION, f"{type(exc).__name__}: {exc}"
                return result
            spent = time.perf_counter() - start
            result.max_move[seat] = max(result.max_move[seat], spent)
            result.total[seat] += spent
        move = ADAPTER.decode(state, seat, _over_wire(answer))
        if isinstance(move, BadAnswer):
            result.verdicts[seat], result.reasons[seat] = Verdict.BAD_ANSWER, move.reason
            return result
        reason = RULES.check(state, move)
        if reason is not None:
            result.verdicts[seat], result.reasons[seat] = Verdict.ILLEGAL_MOVE, reason
            return result
        state = result.state = RULES.apply(state, move)
        history.append(PlayedMove(seat, move))
        result.moves.append(move)
    return result
