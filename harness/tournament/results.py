"""A job's results as the store holds them now: its schedule, the stored games, the standings.

Every reader (leaderboard, export, report, status) goes through :func:`job_results`, so each
says the same thing about a job whose games are not all stored yet ("incomplete: 42 of 220
games") and gives every student a row, with or without a usable submission.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from harness.config import Job
from harness.record import GameRecord
from harness.tournament.schedule import Roll, load_entrants, make_tasks
from harness.tournament.standings import Row, standings
from harness.tournament.store import StoreError, open_readonly


@dataclass
class JobResults:
    """A job's stored games (or gradings) of its current schedule, and the standings they give."""

    job: Job
    roll: Roll
    rows: list[Row]
    records: list[GameRecord]
    keys: list[str]  # the store's key of each record
    total: int  # games (or gradings) the job's schedule has
    done: int  # of which the store holds
    runs: list[dict[str, Any]] = field(default_factory=list)  # the job's history, oldest first

    @property
    def complete(self) -> bool:
        return self.done >= self.total

    @property
    def incomplete(self) -> str:
        """``""`` when every game is stored, else ``"incomplete: 42 of 220 games"``."""
        if self.complete:
            return ""
        what = "gradings" if self.job.format == "sembasic" else "games"
        return f"incomplete: {self.done} of {self.total} {what}"


def job_results(job: Job) -> JobResults:
    """The standings of a job from its store, over the games of its current schedule.

    :class:`StoreError` if the job has never been run.
    """
    roll = load_entrants(job)
    if job.format == "sembasic":
        from harness.tournament.sembasic import sembasic_results

        return sembasic_results(job, roll)
    tasks = make_tasks(job, roll)
    wanted = [t.key for t in tasks]
    with open_readonly(job.results) as store:
        pairs = list(store.records(wanted))
        runs = store.runs()
    records = [r for _, r in pairs]
    done = sum(1 for r in records if not r.harness_fault)
    rows = standings(job.awards, roll.entrants, records, roll.absent)
    return JobResults(job, roll, rows, records, [k for k, _ in pairs], len(tasks), done, runs)


__all__ = ["JobResults", "StoreError", "job_results"]
