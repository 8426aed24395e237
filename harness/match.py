"""Play one game: the referee plus one sandboxed process per bot, producing a :class:`GameRecord`.

The referee is the only authority: every answer is decoded by the game's adapter (a failure is
``bad_answer``) and judged by the rules (a refusal is ``illegal_move`` with the referee's
reason). The first verdict against a bot ends the game as a loss for that bot only. Anything
that goes wrong inside the harness itself is ``harness_error`` for everyone and charged to no one.

A seat may instead be *interactive* (a person at the terminal, :class:`harness.human.HumanSeat`):
it gives referee moves directly and is asked again until the referee accepts one, and it is
told every move; it is never timed or charged.
"""

from __future__ import annotations

import os
import random
import socket
import time
import traceback
from collections.abc import Mapping, Sequence
from contextlib import ExitStack
from dataclasses import asdict
from typing import Any

from harness import __version__
from harness.games.base import BadAnswer, GameSpec, PlayedMove, WireObject, places_of, resolved_settings
from harness.record import GameRecord, MoveRecord, PlayerRecord, Verdict
from harness.sandbox.process import BotProcess, CallResult, Limits
from harness.sandbox.checks.static import check_source
from harness.submission import Submission
from harness.text import block, data, line


def bot_seed(seed: int, seat: int) -> int:
    """The seed of ``random`` in a bot's process: fixed by the game's seed and the seat."""
    return random.Random(f"{seed}/{seat}").getrandbits(32)



class _Ended(Exception):
    """Internal: the game ended with a verdict against a bot."""


class Match:
    """One game in progress. :func:`play_match` is the way to use it."""

    def __init__(self, game: GameSpec, sources: Sequence[Any], settings: Mapping[str, Any],
                 seed: int, logins: Sequence[str], limits: Limits, tournament: bool) -> None:
        self.game = game
        self.rules = game.rules
        self.interactive = [getattr(s, "interactive", False) for s in sources]
        self.seats = [s if live else None for s, live in zip(sources, self.interactive)]
        self.sources = [None if live else Submission.of(s) for s, live in zip(sources, self.interactive)]
        self.settings = dict(settings)
        self.seed = seed
        self.logins = list(logins)
        self.limits = limits
        self.tournament = tournament
        self.players = [PlayerRecord(login, src.sha256 if src is not None else "")
                         for login, src in zip(logins, self.sources)]
        self.record = GameRecord(game=game.name, settings=self.settings, seed=seed, players=self.players,
                                 limits=asdict(limits), harness_version=__version__,
                                 host=f"{socket.gethostname()}:{os.getpid()}")  # where it is played: a cluster's worker
        self.history: list[PlayedMove[Any]] = []
        self.state: Any = None

    # ---- the game ------------------------------------------------------------------------
    def play(self) -> GameRecord:
        self.record.started = time.time()
        t0 = time.perf_counter()
        with ExitStack() as stack:
            bots: list[Any] = [
                seat if seat is not None else stack.enter_context(
                    BotProcess(self.game, src, label=login, seed=bot_seed(self.seed, i), limits=self.limits))
                for i, (login, src, seat) in enumerate(zip(self.logins, self.sources, self.seats))]
            console = next((s for s in self.seats if s is not None), None)
            try:
                self.state = self.rules.initial(self.settings, random.Random(self.seed))
                self.record.settings = resolved_settings(self.rules, self.settings, self.state)
                self._transcribe()
                self._setup(bots)
                if console is not None:
                    console.begin(self.state, self.logins)
                self._loop(bots, console)
            except _Ended:
                self.record.end = "verdict"
            except Exception:  # noqa: BLE001 - any fault of ours is a harness_error, never the bots'
                for p in self.players:
                    if not p.verdict.charged:
                        p.verdict = Verdict.HARNESS_ERROR
                        p.reason = "the harness failed: " + traceback.format_exc(limit=-3)[-1500:]
                self.record.end = "harness error"
            finally:
                for bot in bots:
                    bot.close()
                for player, bot in zip(self.players, bots):  # the bot's bytes are data: cleaned here
                    player.stdout = block(bot.stdout.text())
                    player.stderr = block(bot.stderr.text())
        self._finish()
        if console is not None:
            console.finish(self.state, self.logins, self.record.winner,
                           [line(f"{p.login}: {p.verdict.value}: {p.reason}") for p in self.players if p.verdict.charged])
        self.record.duration = time.perf_counter() - t0
        return self.record

    def _setup(self, bots: list[Any]) -> None:
        for seat, bot in enumerate(bots):  # start every process first: their start-up times overlap
            if not self.interactive[seat]:
                bot.start()
                self.players[seat].interpreter = bot.interpreter  # the judge's clock, named where it runs
        failed = False
        for seat, bot in enumerate(bots):
            source = self.sources[seat]
            if source is None:  # a person: nothing to load or set up
                continue
            static = check_source(self.game, source, self.limits.packages)
            if static is not None:
                self._charge(seat, Verdict.FORBIDDEN, static)
                failed = True
                continue
            result = bot.load()
            if result.ok:
                for call in self.game.setup_calls(self.state, seat, self.logins[seat], self.tournament,
                                                  self.limits.move):
                    result = bot.call(call, value=False)  # a setup call's answer is ignored (its info is kept)
                    self._account(seat, result)
                    if not result.ok:
                        break
                    if call.method == "__init__":
                        info = result.info
                        self.players[seat].bot_name = line(info.get("playerName") or info.get("version") or "")
            if not result.ok:
                self._fail(seat, result)
                failed = True
        if failed:
            raise _Ended

    def _loop(self, bots: list[Any], console: Any = None) -> None:
        while not self.rules.is_over(self.state):
            seat = self.rules.to_move(self.state)
            if self.interactive[seat]:
                self._ask(bots[seat], seat, console)
                continue
            wall, cpu, waited = 0.0, 0.0, 0.0
            result: CallResult | None = None
            calls = self.game.adapter.turn_calls(self.state, seat, self.history)
            for n, call in enumerate(calls, start=1):
                # Only the last call's answer is the move; the others' (Quoridor's opponent_move,
                # Človeče's setattr) are ignored, so they are never decoded: no cost to the parent.
                result = bots[seat].call(call, value=n == len(calls))
                self._account(seat, result)
                wall += result.wall
                cpu += result.cpu or 0.0
                waited += result.waited
                if not result.ok:
                    self._fail(seat, result)
                    raise _Ended
            answer = None if result is None else result.value
            move = self.game.adapter.decode(self.state, seat, answer)
            if isinstance(move, BadAnswer):
                self._reject(seat, _jsonable(answer), wall, cpu)
                self._charge(seat, Verdict.BAD_ANSWER, move.reason)
                raise _Ended
            reason = self.rules.check(self.state, move)
            if reason is not None:
                self._reject(seat, self.rules.move_to_json(move), wall, cpu)
                self._charge(seat, Verdict.ILLEGAL_MOVE, reason)
                raise _Ended
            self._accept(seat, move, wall, cpu, console, wall - waited if waited else None)
        self.record.end = "rules"

    def _accept(self, seat: int, move: Any, wall: float, cpu: float | None, console: Any,
                own: float | None = None) -> None:
        before = self.state
        self.state = self.rules.apply(self.state, move)
        self.history.append(PlayedMove(seat, move))
        self.record.moves.append(MoveRecord(seat, self.rules.move_to_json(move), wall, cpu,
                                            tuple(self.rules.scores(self.state)), own=own))
        self._transcribe()
        if console is not None:
            console.moved(before, self.state, move, self.logins[seat], self.interactive[seat], self.logins)

    def _ask(self, person: Any, seat: int, console: Any) -> None:
        """An interactive seat's move: asked until the referee accepts it; never timed or charged."""
        from harness.human import HumanLeft

        state = self.state
        start = time.perf_counter()
        try:
            move = person.ask(state, seat, lambda m: self.rules.check(state, m))
        except HumanLeft:
            self._charge(seat, Verdict.CRASH, "the person at the terminal left (end of input)")
            raise _Ended from None
        self._accept(seat, move, time.perf_counter() - start, None, console)

    # ---- bookkeeping ---------------------------------------------------------------------
    def _transcribe(self) -> None:
        if self.game.describe is not None:
            self.record.transcript.append(self.game.describe(self.state, self.logins))

    def _account(self, seat: int, result: CallResult) -> None:
        player = self.players[seat]
        player.cpu += result.cpu or 0.0
        player.max_wall = max(player.max_wall, result.wall)

    def _reject(self, seat: int, answer: Any, wall: float, cpu: float) -> None:
        self.record.moves.append(MoveRecord(seat, data(answer), wall, cpu, accepted=False))

    def _fail(self, seat: int, result: CallResult) -> None:
        player = self.players[seat]
        if player.verdict is Verdict.OK and result.verdict is Verdict.HARNESS_ERROR:
            player.cause = result.cause  # the host's kill of this bot's process: see formats.base.Schedule.settle
        self._charge(seat, result.verdict or Verdict.HARNESS_ERROR, result.reason)
        player.traceback = block(result.traceback)

    def _charge(self, seat: int, verdict: Verdict, reason: str) -> None:
        player = self.players[seat]
        if player.verdict is Verdict.OK:  # a reason may quote the bot (its exception, its answer)
            player.verdict, player.reason = verdict, block(reason)

    def _finish(self) -> None:
        rec = self.record
        rec.plies = sum(1 for m in rec.moves if m.accepted)
        if self.state is not None:
            try:
                rec.scores = tuple(self.rules.scores(self.state))
            except Exception:  # noqa: BLE001 - scores of a broken state are not worth a crash
                rec.scores = ()
        charged = [p.verdict.charged for p in self.players]
        if rec.harness_fault:
            rec.winner = None
        elif any(charged):
            clean = [i for i, c in enumerate(charged) if not c]
            rec.winner = clean[0] if len(clean) == 1 else None
        elif self.state is not None:
            rec.winner = self.rules.winner(self.state)
        if not rec.harness_fault and (self.state is not None or any(charged)):
            try:
                rec.places = places_of(self.rules, self.state, charged)
            except Exception:  # noqa: BLE001 - places of a broken state are not worth a crash
                rec.places = ()


def play_match(game: GameSpec, sources: Sequence[Any], *, settings: Mapping[str, Any] | None = None,
               seed: int = 0, logins: Sequence[str] | None = None, limits: Limits | None = None,
               tournament: bool = False) -> GameRecord:
    """Play one game between the bots whose sources are given, seat 0 first.

    A source is a submission (or the bytes of a lone ``player.py``), or an interactive seat such
    as :class:`harness.human.HumanSeat`. ``settings`` are the game's raw settings (validated here: a bad one raises
    :class:`harness.games.base.SettingsError`). ``limits`` default to the game's own.
    """
    if len(sources) != game.players:
        raise ValueError(f"{game.name} is played by {game.players} bots, got {len(sources)}")
    logins = list(logins) if logins is not None else [f"player{i + 1}" for i in range(len(sources))]
    parsed = game.rules.parse_settings(dict(settings or {}))
    return Match(game, sources, parsed, seed, logins, limits or Limits().with_game(game), tournament).play()


def _jsonable(value: Any) -> Any:
    """A bot's raw answer in a JSON form for the record (tuples become lists, objects dicts)."""
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, WireObject):
        return {"class": value.type_name, **{k: _jsonable(v) for k, v in value.fields.items()}}
    return value
