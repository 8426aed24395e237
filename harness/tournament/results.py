"""A job's results as the store holds them now: its schedule, the stored games, the standings.

Every reader (leaderboard, export, report, status) goes through
:func:`harness.tournament.formats.job_results` (the job's format builds them), so each
says the same thing about a job whose games are not all stored yet ("incomplete: 42 of 220
games") and gives every student a row, with or without a usable submission.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from harness.record import GameRecord
from harness.tournament.job import Job
from harness.tournament.schedule import Roll
from harness.tournament.standings import Row, standings
from harness.tournament.store import ResultsStore, StoreError, open_readonly


class StoredGames(Collection[GameRecord]):
    """A job's stored games, read again from its store at each pass instead of held in memory.

    Iterating opens the store (read-only) and yields the games with the given keys one at a time,
    in the order they finished; ``len`` is the number of keys. ``light`` records leave out the
    moves (see :meth:`ResultsStore.records`). A game stored again since the keys were read (a
    harness fault retried) is read as it is stored now.
    """

    def __init__(self, folder: Path, keys: list[str], light: bool) -> None:
        self.folder, self.keys, self.light = folder, keys, light

    def pairs(self) -> Iterator[tuple[str, GameRecord]]:
        """(key, record) of every game, one at a time."""
        with open_readonly(self.folder) as store:
            yield from store.records(self.keys, light=self.light)

    def __iter__(self) -> Iterator[GameRecord]:
        return (record for _, record in self.pairs())

    def __len__(self) -> int:
        return len(self.keys)

    def __contains__(self, item: object) -> bool:
        return any(record == item for record in self)


def light_records(results: JobResults) -> Collection[GameRecord]:
    """The job's games for a pass that reads no moves: read light from the store when stored."""
    records = results.records
    return StoredGames(records.folder, records.keys, True) if isinstance(records, StoredGames) else records


@dataclass
class JobResults:
    """A job's stored games (or gradings) of its current schedule, and the standings they give."""

    job: Job
    roll: Roll
    rows: list[Row]
    records: Collection[GameRecord]  # a list, or the games read again from the store at each pass
    keys: list[str]  # the store's key of each record
    total: int  # games (or gradings) the job's schedule has
    done: int  # of which the store holds
    runs: list[dict[str, Any]] = field(default_factory=list)  # the job's history, oldest first
    round_robin: int = 0  # adaptive: the games the full round robin would play
    stopped: str = ""  # adaptive: why the schedule stopped ("settled", "budget", "exhausted"), or ""
    open_ended: bool = False  # the schedule grows until it stops (adaptive): complete once stopped
    unit: str = "games"  # what the schedule holds: games, or gradings
    first_errors: dict[str, dict[str, Any]] | None = field(default=None, repr=False)  # by login, once asked
    schedule: list[str] = field(default_factory=list, repr=False)  # every game's key in the job's order
    own_games: dict[str, Any] | None = field(default=None, repr=False)  # login -> its numbered games, once asked

    @property
    def complete(self) -> bool:
        return bool(self.stopped) if self.open_ended else self.done >= self.total

    @property
    def incomplete(self) -> str:
        """``""`` when every game is stored, else ``"incomplete: 42 of 220 games"``."""
        if self.complete:
            return ""
        so_far = " of the schedule so far" if self.open_ended else ""
        return f"incomplete: {self.done} of {self.total} {self.unit}{so_far}"


def stored_results(job: Job, roll: Roll, wanted: list[str] | None, total: int, light: bool = False) -> JobResults:
    """The standings of the stored games with the ``wanted`` keys (every stored game if None).

    One pass over the store's light rows folds the standings as it goes (see :func:`job_results`).
    """
    keys: list[str] = []
    done = 0

    def stream(store: ResultsStore) -> Iterator[GameRecord]:
        nonlocal done
        for key, record in store.records(wanted, light=True):
            keys.append(key)
            done += not record.harness_fault
            yield record

    with open_readonly(job.results) as store:
        rows = standings(job.awards, roll.entrants, stream(store), roll.absent)
        runs = store.runs()
    records = StoredGames(job.results, keys, light)
    return JobResults(job, roll, rows, records, keys, total, done, runs)


__all__ = ["JobResults", "StoredGames", "light_records", "StoreError", "stored_results"]
