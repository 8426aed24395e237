"""Positions one bot met, asked of the other bot: ``harness similarity --replay``.

Only for a game that declares ``interface.any_position`` in its spec (Blokovanie: ``move(board)`` is told
the whole position and nothing else), so a fresh process can be asked any position. For each
pair chosen (all of a small job's; else the pairs flagged by code or with a behaviour score from
:data:`REPLAY_FROM`, most alike first, at most :data:`REPLAY_PAIRS`), up to :data:`REPLAY_CAP`
positions each bot met in its stored games (where it had a choice) are asked of the other, in
the real sandbox under the job's limits: one process per bot for all its questions. A pair's
``replay`` score is the share of answered questions where the asked bot chose the move the other
had made. A question the bot does not answer legally (a timeout, an exception, an illegal cell)
is left out of the score and noted; after a fatal verdict the bot is asked nothing more.
"""

from __future__ import annotations

import json
import random
import zlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from harness.config import Job
from harness.games.base import BadAnswer, GameSpec
from harness.record import GameRecord
from harness.sandbox import BotProcess
from harness.submission import SubmissionError, read_submission

REPLAY_CAP = 50  # positions of one bot asked of the other, per pair and direction
REPLAY_ALL = 100  # a job with at most this many pairs has every pair replayed
REPLAY_PAIRS = 200  # else at most this many candidate pairs
REPLAY_FROM = 0.5  # behaviour score from which a pair is a candidate (or flagged by code)


@dataclass(frozen=True)
class Question:
    """A position ``login`` met in seat ``seat`` of a stored game, and the move it chose there."""

    login: str
    state: Any
    seat: int
    answer: Any  # as JSON


def _stable(text: str) -> int:
    return zlib.crc32(text.encode())


def positions_met(records: Iterable[tuple[str, GameRecord]], game: GameSpec, logins: Iterable[str],
                  cap: int = REPLAY_CAP) -> dict[str, list[Question]]:
    """Up to ``cap`` positions each of ``logins`` met with a choice, drawn evenly over its stored
    games (a reservoir sample, the same every run), streaming ``records`` once."""
    wanted = set(logins)
    rules = game.rules
    kept: dict[str, list[Question]] = {login: [] for login in wanted}
    seen = dict.fromkeys(wanted, 0)
    draws = {login: random.Random(_stable(login)) for login in wanted}
    for _key, record in records:
        if record.harness_fault or record.game != game.name:
            continue
        seats = {i: p.login for i, p in enumerate(record.players) if p.login in wanted}
        if not seats:
            continue
        try:
            state = rules.initial(record.settings, random.Random(record.seed))
            for move in record.moves:
                login = seats.get(move.player)
                if not move.accepted:
                    break
                if login is not None and len(rules.legal_moves(state)) > 1:
                    seen[login] += 1
                    question = Question(login, state, move.player, move.answer)
                    if len(kept[login]) < cap:
                        kept[login].append(question)
                    else:
                        slot = draws[login].randrange(seen[login])
                        if slot < cap:
                            kept[login][slot] = question
                state = rules.apply(state, rules.move_from_json(move.answer))
        except Exception:  # noqa: BLE001 - an old or odd record: the positions before it stand
            continue
    return kept


def ask(game: GameSpec, job: Job, login: str, questions: Sequence[Question]) -> tuple[list[Any], str]:
    """``login``'s answers (as JSON, ``None`` where it gave no legal one) to ``questions``, all in
    one sandboxed process under the job's limits; and a note if it failed somewhere."""
    answers: list[Any] = [None] * len(questions)
    if not questions:
        return answers, ""
    ref = next((r for r in job.submissions if r.login == login), None)
    if ref is None:
        return answers, "no submission to ask"
    try:
        source = read_submission(ref.path, game.botapi_modules)
    except SubmissionError as exc:
        return answers, str(exc)
    rules, note = game.rules, ""
    with BotProcess(game, source, label=login, seed=1, limits=job.limits) as bot:
        loaded = bot.load()
        if not loaded.ok:
            return answers, f"does not load ({loaded.reason})"
        first = questions[0]
        for call in game.setup_calls(first.state, first.seat, login, False, job.limits.move):
            built = bot.call(call)
            if not built.ok:
                return answers, f"{call.method}() failed ({built.reason})"
        for i, q in enumerate(questions):
            result = None
            for call in game.adapter.turn_calls(q.state, q.seat, []):
                result = bot.call(call)
                if not result.ok:
                    break
            if result is None or not result.ok:
                note = note or f"no answer to a position ({result.reason if result else 'no call'})"
                if bot.dead is not None:
                    break
                continue
            move = game.adapter.decode(q.state, q.seat, result.value)
            if isinstance(move, BadAnswer) or rules.check(q.state, move) is not None:
                note = note or "an answer that is not a legal move"
                continue
            answers[i] = json.loads(json.dumps(rules.move_to_json(move)))
    return answers, note


@dataclass
class Replayed:
    """Of ``asked`` questions answered (both ways), in how many the asked bot made the other's move."""

    asked: int = 0
    same: int = 0

    @property
    def score(self) -> float | None:
        return self.same / self.asked if self.asked else None


def replay_pairs(job: Job, pairs: Sequence[tuple[str, str]], records: Iterable[tuple[str, GameRecord]]
                 ) -> tuple[dict[tuple[str, str], Replayed], list[str]]:
    """For each pair ``(a, b)``: ``a``'s positions asked of ``b`` and ``b``'s of ``a``; notes."""
    game = job.spec
    logins = sorted({x for pair in pairs for x in pair})
    met = positions_met(records, game, logins)
    partners: dict[str, list[str]] = {login: [] for login in logins}
    for a, b in pairs:
        partners[a].append(b)
        partners[b].append(a)
    out = {pair: Replayed() for pair in pairs}
    notes: list[str] = []
    for login in logins:
        questions = [q for other in partners[login] for q in met[other]]
        answers, note = ask(game, job, login, questions)
        if note:
            notes.append(f"{login}: --replay: {note}")
        for q, answer in zip(questions, answers):
            if answer is None:
                continue
            tally = out[(login, q.login) if (login, q.login) in out else (q.login, login)]
            tally.asked += 1
            tally.same += answer == q.answer
    return out, notes


__all__ = ["REPLAY_ALL", "REPLAY_CAP", "REPLAY_FROM", "REPLAY_PAIRS", "Question", "Replayed", "ask",
           "positions_met", "replay_pairs"]
