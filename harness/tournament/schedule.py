"""Who plays in a job and how a game is known: the roll of entrants, a game's task and its key.

A game is identified by its key: a hash of (game, settings, seed, the seated entrants' logins
and sha256, the tournament flag and the limits). The same key is never played again; a daily
run replays exactly the games whose key is new, i.e. whose submissions changed (any of their
files). Which games a job plays is its format's (:mod:`harness.tournament.formats`).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from harness.submission import Submission, SubmissionError, read_submission
from harness.tournament.job import Job, login_of


@dataclass(frozen=True)
class Entrant:
    """A bot taking part in a job."""

    login: str
    path: str
    submission: Submission
    reference: bool = False  # a reference player: ranked, but never awarded points

    @property
    def sha256(self) -> str:
        return self.submission.sha256


@dataclass(frozen=True)
class Absent:
    """A student with no usable submission: a row with 0 points and the reason."""

    login: str
    reason: str


@dataclass
class Roll:
    """Who takes part in a job: the entrants, the gauntlet's opponent, and who does not (and why)."""

    entrants: list[Entrant]
    opponent: Entrant | None
    absent: list[Absent] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)  # e.g. logins that are not on the roster


@dataclass(frozen=True)
class Task:
    """One game to play; self-contained (submissions included) so any worker can play it."""

    key: str
    job: str
    game: str
    settings: dict[str, Any]
    seed: int
    entrants: tuple[Entrant, ...]  # in seat order
    tournament: bool
    limits: dict[str, Any]
    settings_index: int = 0  # which of the job's settings sets the game uses
    interpreter: str = ""  # the job's ``interpreter:`` for its bots ("": the harness's rule; not part of the key)


def as_submitted(reason: str, folder: Path) -> str:
    """``reason`` with the grading machine's paths of a submission named as the student submitted
    them: ``/srv/course/submissions/bob/player.zip: not a valid zip file`` becomes ``player.zip:
    not a valid zip file`` (a reason reaches the student's feedback, the leaderboard and the CSV)."""
    named = folder.name if folder.is_file() else "your submission"
    for root in sorted({str(folder), str(folder.resolve()), str(folder.absolute())}, key=len, reverse=True):
        reason = reason.replace(root + "/", "").replace(root, named)
    return reason


def load_entrants(job: Job) -> Roll:
    """The job's entrants (submissions, then reference players), the opponent, and the absent.

    A submission folder without a usable ``player.py`` (or a broken zip) is absent with the
    reason; with a roster, every login of the roster without a submission is absent ("no
    submission") and submissions of logins not on the roster are warned about.
    """
    supplied = job.spec.botapi_modules
    entrants: list[Entrant] = []
    absent: list[Absent] = []
    for ref in job.submissions:
        try:
            entrants.append(Entrant(ref.login, str(ref.path), read_submission(ref.path, supplied)))
        except SubmissionError as exc:
            absent.append(Absent(ref.login, as_submitted(str(exc), Path(ref.path))))
    warnings: list[str] = []
    if job.roster is not None:
        roster = set(job.roster)
        present = {r.login for r in job.submissions}
        absent += [Absent(login, "no submission") for login in job.roster if login not in present]
        strangers = sorted(present - roster)
        if strangers:
            warnings.append(f"{job.name}: {len(strangers)} submission(s) of logins not on the roster: "
                            f"{', '.join(strangers[:10])}{' ...' if len(strangers) > 10 else ''}")

    def reference(path: Path) -> Entrant:
        return Entrant(login_of(path), str(path), read_submission(path, supplied), True)

    seen: dict[str, Entrant] = {}
    references = [reference(p) for p in job.reference]
    for e in entrants + references:
        if e.login in seen:
            raise SubmissionError(f"{job.config_file}: jobs.{job.name}: two bots are named {e.login!r} "
                                  f"({seen[e.login].path} and {e.path})")
        seen[e.login] = e
    opponent = reference(job.opponent) if job.opponent is not None else None
    return Roll(entrants + references, opponent, sorted(absent, key=lambda a: a.login), warnings)


def game_key(game: str, settings: dict[str, Any], seed: int, seats: list[tuple[str, str]], tournament: bool,
             limits: dict[str, Any], setup_version: int = 0) -> str:
    """The identity of a game (what resume and reuse compare): ``seats`` are (login, sha256).

    The login is part of it: two students who submit the same file still play their own games.
    ``setup_version`` is the game's (:attr:`GameSpec.setup_version`): games stored when the same
    settings and seed started a different game are not reused.
    """
    parts: list[Any] = [game, settings, seed, seats, tournament, limits]
    if setup_version:  # version 0 keeps the keys of games stored before versions existed
        parts.append(setup_version)
    blob = json.dumps(parts, sort_keys=True)
    return hashlib.sha256(blob.encode()).hexdigest()[:32]


__all__ = ["Absent", "Entrant", "Roll", "Task", "game_key", "load_entrants"]
