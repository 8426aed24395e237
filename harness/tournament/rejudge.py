"""Re-judging: play a login's stored games (or one of them) again and replace their records.

A stored game is never played again by an ordinary run (its key is unchanged). When a verdict
is wrong for a reason outside the bot (a machine that killed a reference player, a harness
fault that looked like the bot's), ``harness run JOB --rejudge LOGIN`` takes that login's games
out of the store and plays them again in the same run; ``--rejudge-game N`` takes only the
login's game N, numbered as students see it (:func:`harness.terminal.game_label`: its number
among the bot's own games in the job's schedule, as ``harness check`` and the feedback number
it). The records replaced are kept in the store's ``replaced`` table with who re-judged them
and when (:meth:`ResultsStore.replace_later`); the leaderboard, exports and report read the new
ones. A grading job (a battery) grades the login's submission again.
"""

from __future__ import annotations

import getpass
import os
import time
from dataclasses import dataclass
from typing import Any

from harness.tournament.job import Job
from harness.tournament.schedule import Roll
from harness.tournament.store import ResultsStore


class RejudgeError(ValueError):
    """Nothing to re-judge as asked: an unknown login, or a game number out of range."""


def current_user() -> str:
    """Who re-judges when ``--by`` is not given: the OS user (``SUDO_USER`` under sudo)."""
    try:
        user = getpass.getuser()
    except (KeyError, OSError):
        user = f"uid {os.getuid()}"
    return os.environ.get("SUDO_USER") or user


@dataclass(frozen=True)
class Rejudge:
    """What to re-judge: every game of ``login``, or only its game ``game`` (1-based)."""

    login: str
    game: int | None = None
    by: str = ""
    required: bool = True  # False in a group run: a job without the login's games just runs
    why: str = ""  # the reason given with --why, shown to the students concerned

    def describe(self) -> str:
        what = f"game {self.game} of {self.login}" if self.game is not None else f"the games of {self.login}"
        return f"{what} (by {self.by})"


def select(job: Job, roll: Roll, store: ResultsStore, rejudge: Rejudge) -> list[str]:
    """The keys to play again; :class:`RejudgeError` (one line) if there is none as asked."""
    from harness.tournament.formats import format_of

    fmt = format_of(job)
    if rejudge.game is not None and not fmt.numbered:
        raise RejudgeError(f"{job.name}: --rejudge-game: a {job.format} job's games have no fixed numbers; "
                           f"re-judge all of {rejudge.login}'s games with --rejudge {rejudge.login}")
    keys = fmt.login_keys(job, roll, store, rejudge.login)
    what = fmt.unit
    if not keys and not rejudge.required:
        return []
    if not keys:
        raise RejudgeError(f"{job.name}: --rejudge {rejudge.login}: no {what} of {rejudge.login} in this job")
    if rejudge.game is None:
        return keys
    if not 1 <= rejudge.game <= len(keys):
        raise RejudgeError(f"{job.name}: --rejudge-game {rejudge.game}: {rejudge.login} has {len(keys)} {what} "
                           f"in this job (numbered 1-{len(keys)})")
    return [keys[rejudge.game - 1]]


def take_out(job: Job, roll: Roll, store: ResultsStore, rejudge: Rejudge) -> dict[str, Any] | None:
    """Move the selected records to the store's ``replaced`` table, so this run plays them again.

    Returns what the run's history records: the login, the game number, who, when, why, the
    keys selected (which games: every reader names them as the students concerned number them,
    :mod:`harness.report.rejudged`) and how many stored records were replaced (a game never
    stored is simply played).
    """
    from harness.tournament.formats import format_of

    keys = select(job, roll, store, rejudge)
    if not keys:
        return None
    grades = format_of(job).battery(job) is not None  # a grading's record lives in the store's grades
    moved = store.replace_later(keys, grades=grades, login=rejudge.login, by=rejudge.by)
    return {"login": rejudge.login, "game": rejudge.game, "by": rejudge.by, "selected": len(keys), "replaced": moved,
            "at": time.time(), "why": rejudge.why, "keys": keys}


def rejudged_text(info: dict[str, Any]) -> str:
    """``"re-judged 4 games of alice by teacher"``: a run's re-judging in words (history, status)."""
    n = int(info.get("replaced", 0))
    game = info.get("game")
    what = f"game {game} of {info.get('login')}" if game is not None else \
        f"{n} {'record' if n == 1 else 'records'} of {info.get('login')}"
    return f"re-judged {what} by {info.get('by')}"


__all__ = ["Rejudge", "RejudgeError", "current_user", "rejudged_text", "select", "take_out"]
