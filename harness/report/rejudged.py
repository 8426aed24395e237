"""Re-judgings where people look: who re-judged, when, why, and which games, per job and per student.

A re-judging (``harness run JOB --rejudge LOGIN``, :mod:`harness.tournament.rejudge`) is kept in
the run's history with the keys of the records it took out. Every reader names the games as the
student concerned numbers them (``game 3 (seed 2, seat 0) against basis``, as ``check``, the
feedback and the report do): a re-judging of a reference player's games concerns each student
who played one of them, under that student's own numbers. A grading job's re-judging is the
login's grading, graded again.

What is shown where: the student's feedback, Gradescope and Moodle's feedback column
(:func:`student_lines`); a ``rejudged`` column of the CSV gradebook, the leaderboard's CSV and
JSON, Canvas's ``Notes`` column (:func:`cell_text`), the leaderboard's notes
(:func:`summary`); the bot's report page, ``harness status`` (every re-judging) and ``harness
status JOB LOGIN``. Each appears only where a re-judging happened: a job without one exports the
same bytes as before.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from harness.terminal import game_label
from harness.text import line
from harness.tournament.formats import format_of
from harness.tournament.results import JobResults, light_records

SHOWN = 12  # games named one by one in a line; past it, "and N more"


@dataclass(frozen=True)
class Rejudging:
    """One re-judging of a job, as its run's history keeps it."""

    login: str  # the login re-judged: a student, or a reference player (its opponents' games)
    by: str
    at: float  # when (seconds since the epoch)
    why: str
    game: int | None  # --rejudge-game N, or None: every game of the login
    keys: tuple[str, ...]  # the records taken out (empty for a run of a harness that kept none)
    replaced: int
    status: str  # how its run ended: a re-judging stopped midway has played only part of its games

    @property
    def when(self) -> str:
        return time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(self.at))

    def head(self) -> str:
        """``"2026-11-28 06:40 UTC by teacher (why: the machine killed basis)"``."""
        why = f" (why: {line(self.why)})" if self.why else " (no reason given)"
        stopped = "" if self.status in ("complete", "") else f"; its run {self.status}"
        return f"{self.when} by {line(self.by)}{why}{stopped}"


def rejudgings(results: JobResults) -> list[Rejudging]:
    """Every re-judging of the job, oldest first."""
    out = []
    for run in results.runs:
        info = run.get("rejudged")
        if not info:
            continue
        out.append(Rejudging(str(info.get("login", "")), str(info.get("by", "")),
                             float(info.get("at") or run.get("started") or 0.0), str(info.get("why") or ""),
                             info.get("game"), tuple(info.get("keys") or ()), int(info.get("replaced", 0)),
                             str(run.get("status", ""))))
    return out


def summary(r: Rejudging) -> str:
    """The re-judging in one line, for the instructor: ``"game 3 of cat re-judged 2026-... by ..."``."""
    what = f"game {r.game} of {line(r.login)}" if r.game is not None else \
        f"{r.replaced or len(r.keys)} {'record' if (r.replaced or len(r.keys)) == 1 else 'records'} of {line(r.login)}"
    return f"{what} re-judged {r.head()}"


def _own_games(results: JobResults) -> dict[str, dict[str, tuple[int, int, int, list[str]]]]:
    """login -> key -> (its number among the login's games, seed, seat, opponents): one pass, kept."""
    cached = results.own_games
    if cached is not None:
        return cached
    order = {k: i for i, k in enumerate(results.schedule)}
    games: dict[str, list[tuple[int, str, int, int, list[str]]]] = {}
    for n, (key, record) in enumerate(zip(results.keys, light_records(results))):
        place = order.get(key, len(order) + n) if order else n
        logins = [p.login for p in record.players]
        for seat, login in enumerate(logins):
            games.setdefault(login, []).append((place, key, record.seed, seat, [x for x in logins if x != login]))
    out = {login: {key: (number, seed, seat, others)
                   for number, (_, key, seed, seat, others) in enumerate(sorted(found, key=lambda g: g[0]), start=1)}
           for login, found in games.items()}
    results.own_games = out
    return out


def _labels(results: JobResults, r: Rejudging, login: str) -> list[str] | None:
    """The games of ``r`` that ``login`` played, named as ``login`` numbers them; None if ``r``
    does not concern ``login``."""
    if format_of(results.job).battery(results.job) is not None:
        return ["the grading of the submission"] if r.login == login else None
    if not r.keys:  # an old run: which games is not known, only whose
        return [f"{r.replaced} of the games of {line(r.login)}"] if r.login == login else None
    own = _own_games(results).get(login, {})
    mine = sorted((own[k] for k in r.keys if k in own), key=lambda g: g[0])
    if not mine:
        return None
    return [f"{game_label(number, seed, seat)} against {', '.join(map(line, others))}"
            for number, seed, seat, others in mine]


def concerning(results: JobResults, login: str) -> list[tuple[Rejudging, list[str]]]:
    """The re-judgings that concern ``login``, each with its games named as ``login`` numbers them."""
    out = []
    for r in rejudgings(results):
        labels = _labels(results, r, login)
        if labels is not None:
            out.append((r, labels))
    return out


def _games_text(labels: list[str]) -> str:
    shown = "; ".join(labels[:SHOWN])
    return shown + (f"; and {len(labels) - SHOWN} more" if len(labels) > SHOWN else "")


def student_lines(results: JobResults, login: str) -> list[str]:
    """What the student reads about each re-judging of their games (feedback, Gradescope, Moodle)."""
    return [f"Re-judged {r.head()}: {_games_text(labels)}. The results above are the new ones."
            for r, labels in concerning(results, login)]


def cell_text(results: JobResults, login: str) -> str:
    """One cell about the re-judgings of ``login``'s games (CSV, JSON, Canvas), ``""`` if none."""
    return " / ".join(f"{r.head()}: {_games_text(labels)}" for r, labels in concerning(results, login))


def cells(results: JobResults, logins: Iterable[str]) -> dict[str, str] | None:
    """``login -> cell_text`` for the logins, or None when the job has no re-judging at all (its
    exports then keep the columns, and the bytes, they always had)."""
    if not rejudgings(results):
        return None
    return {login: cell_text(results, login) for login in logins}


def as_json(results: JobResults) -> list[dict[str, Any]]:
    """Every re-judging of the job as JSON (the leaderboard's ``rejudgings``)."""
    return [{"login": r.login, "by": r.by, "at": r.when, "why": r.why, "game": r.game, "records": r.replaced,
             "keys": list(r.keys), "run": r.status} for r in rejudgings(results)]


__all__ = ["Rejudging", "as_json", "cell_text", "cells", "concerning", "rejudgings", "student_lines", "summary"]
