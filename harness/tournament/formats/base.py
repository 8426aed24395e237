"""What a job format is: a plug-in that owns its keys, its waves, its ranking and its words.

A format (one module of :mod:`harness.tournament.formats` each) answers every question that
depends on how a job is played, so that the runner, the readers and the publishers ask it
instead of branching on ``job.format``:

* **its keys**: the YAML keys only it accepts (:attr:`Format.keys`), read and checked by
  :meth:`Format.read`, and what the game must offer (:meth:`Format.check`);
* **its schedule, as waves**: :meth:`Format.schedule` gives the run's :class:`Schedule`, whose
  :meth:`Schedule.waves` yields what to play next (a fixed schedule is one wave);
* **how it ranks**: :meth:`Format.results` turns the store into :class:`JobResults`;
* **how it describes itself**: to the bundle and ``check`` (:meth:`Format.against`), to the
  leaderboard and the report (:attr:`Format.rated`, :attr:`Format.by_rating`,
  :meth:`Format.summary`), to the gradebook (:meth:`Format.battery`, :meth:`Format.max_points`).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import asdict, dataclass, field
from typing import Any, ClassVar

from harness.games.base import GameSpec
from harness.games.battery import Battery
from harness.keys import Reader
from harness.record import GameRecord
from harness.tournament.job import Job
from harness.tournament.replays import Replays
from harness.tournament.results import JobResults, stored_results
from harness.tournament.schedule import Entrant, Roll, Task, game_key
from harness.tournament.standings import max_points
from harness.tournament.store import ResultsStore
from harness.tournament.work import Work, fault_record, play_task

Faults = Mapping[str, GameRecord]  # this run's games that failed every retry, by key


@dataclass
class Wave:
    """What a schedule wants played now: ``pending`` games (not yet stored), of which the
    schedule needs ``waiting`` stored before it can say more; ``finished`` once it is over."""

    pending: list[Any] = field(default_factory=list)
    waiting: set[str] = field(default_factory=set)
    finished: bool = False


@dataclass
class Settled:
    """What became of a finished task: stored (``played``), to be played again (``retry``), or
    lost to the harness's own fault after every retry (``fault``, the record if one was stored)."""

    played: bool = False
    retry: bool = False
    fault: bool = False
    record: GameRecord | None = None


class Schedule:
    """One run of a job: its games in waves, and how a finished one is stored.

    ``total`` and ``reused`` are what the run announces before it plays; ``expected`` is the
    length of its progress bar. The base class is a fixed schedule of games: one wave of every
    game not yet stored.
    """

    work: Callable[[Any], dict[str, Any]] = staticmethod(play_task)

    def __init__(self, job: Job, roll: Roll, store: ResultsStore, tasks: list[Any]) -> None:
        self.job, self.roll, self.store, self.tasks = job, roll, store, tasks
        done = self.stored([t.key for t in tasks])
        self.todo = [t for t in tasks if t.key not in done]
        self.total = self.expected = len(tasks)
        self.reused = len(tasks) - len(self.todo)

    def stored(self, keys: list[str]) -> set[str]:
        """The keys among ``keys`` that the store holds for good (never played again)."""
        return self.store.done_keys()

    def waves(self, faults: Faults) -> Iterator[Wave]:
        """One wave of every game not yet stored, then the end."""
        if self.todo:
            yield Wave(self.todo, {t.key for t in self.todo})
        yield Wave(finished=True)

    def settle(self, task: Any, result: dict[str, Any] | None, fault: str, attempt: int) -> Settled:
        """Store a finished game (a harness fault too, once its retries are spent).

        A game replayed once because the host killed a bot's process is not replayed again for
        the same bot (:mod:`harness.tournament.replays`): that bot is charged instead.
        """
        record = fault_record(task, fault) if result is None else GameRecord.from_json(result)
        replays = self.__dict__.get("_replays")
        if replays is None:
            replays = self.__dict__["_replays"] = Replays(self.store.fault)
        record = replays.judge(task.key, record)
        if record.harness_fault and attempt <= self.job.retries:
            return Settled(retry=True)
        self.store.put(task.key, self.job.name, record, attempt)
        return Settled(played=True, fault=record.harness_fault, record=record)

    def finish(self, last: Any, played: int, faults: Faults, info: dict[str, Any]) -> tuple[int, int]:
        """After the last wave: the run's (total, reused), and what its history entry adds."""
        return self.total, self.reused


class Format:
    """A job format; see the module's docstring. Subclasses set the class attributes."""

    name: ClassVar[str] = ""
    keys: ClassVar[dict[str, str]] = {}  # its own YAML keys -> the problem when another format's job has one
    tournament: ClassVar[bool] = False  # what bots see in ``tournament`` unless the job says
    rated: ClassVar[bool] = True  # a rating tells something (not when all meet one opponent)
    by_rating: ClassVar[bool] = False  # ranked by rating (then score) instead of score
    unit: ClassVar[str] = "games"  # what its schedule holds: games, or gradings
    analyses: ClassVar[tuple[str, ...]] = ()  # the ``analysis:`` it offers
    grading: ClassVar[bool] = False  # what ``harness check`` plays when a game has no ``<game>-grading`` job

    # ---- its keys ---------------------------------------------------------------------------
    def check(self, r: Reader, game: GameSpec, name: str) -> None:
        """Refuse a game this format cannot play (``name``: the job's ``format:``)."""

    def bots_needed(self, game: GameSpec) -> int:
        """How many bots a job of this format needs at least."""
        return game.players

    def read(self, r: Reader, body: Mapping[str, Any], game: GameSpec) -> dict[str, Any]:
        """Its own keys of a job's mapping, as :class:`Job` fields (checked; ConfigError if not)."""
        return {}

    # ---- its schedule -----------------------------------------------------------------------
    def tasks(self, job: Job, roll: Roll) -> list[Any]:
        """Every game of a fixed schedule, in a deterministic order."""
        return []

    def schedule(self, job: Job, roll: Roll, store: ResultsStore) -> Schedule:
        """The waves of one run of ``job`` on ``store``."""
        return Schedule(job, roll, store, self.tasks(job, roll))

    numbered: ClassVar[bool] = True  # its games have fixed numbers (the ones students see)

    def login_keys(self, job: Job, roll: Roll, store: ResultsStore, login: str) -> list[str]:
        """The keys of ``login``'s games in the order students number them (re-judging)."""
        return [t.key for t in self.tasks(job, roll) if any(e.login == login for e in t.entrants)]

    # ---- how it ranks -----------------------------------------------------------------------
    def results(self, job: Job, roll: Roll, light: bool) -> JobResults:
        """The job's standings from its store (see :func:`harness.tournament.formats.job_results`)."""
        tasks = self.tasks(job, roll)
        results = stored_results(job, roll, [t.key for t in tasks], len(tasks), light)
        results.schedule = [t.key for t in tasks]  # the job's order: the numbers students see
        return results

    # ---- how it describes itself ------------------------------------------------------------
    def battery(self, job: Job) -> Battery | None:
        """The grading battery the job runs instead of games, if any."""
        return None

    def max_points(self, job: Job) -> float:
        """The most points the job can give one student."""
        return max_points(job.awards)

    def against(self, job: Job) -> str:
        """Whom (or what) a submission is graded against, in words (for the bundle and ``check``)."""
        return "against the reference players"

    def extent(self, job: Job) -> str:
        """How much is played, in words (after :meth:`against`)."""
        return f", {len(job.settings)} setting(s) x {job.games} seed(s)"

    def checks(self, job: Job) -> str:
        """What judges the answers, in words."""
        return "the referee checks every move"

    def stored_text(self, results: JobResults) -> str:
        """What the store holds of the job's schedule, for ``harness status``."""
        return f"{results.done} of {results.total} {results.unit} ({results.incomplete or 'complete'})"

    def summary(self, results: JobResults) -> dict[str, Any]:
        """What the leaderboard's JSON adds for this format."""
        return {}

    def analysis(self, results: JobResults) -> str | None:
        """The kind of analysis the job's leaderboard and report show, if any."""
        return results.job.analysis if results.job.analysis in self.analyses else None


class FixedFormat(Format):
    """A format whose games are known before any is played: ``games`` seeds per settings set,
    each seed seating the bots as :meth:`seatings` says."""

    def seatings(self, job: Job, roll: Roll, seats: int) -> Callable[[int, int], Iterable[tuple[Entrant, ...]]]:
        """``(seed, k) -> the seatings of that seed`` (``k``: the seed's number within its settings)."""
        raise NotImplementedError

    def tasks(self, job: Job, roll: Roll) -> list[Task]:
        limits = asdict(job.limits)
        seats, version = job.spec.players, job.spec.setup_version
        seat = self.seatings(job, roll, seats)
        tasks: list[Task] = []
        for rnd, settings in enumerate(job.settings):
            for k in range(job.games):
                seed = job.seed + rnd * 100_000 + k
                for seated in seat(seed, k):
                    key = game_key(job.game, settings, seed, [(e.login, e.sha256) for e in seated], job.tournament,
                                   limits, version)
                    tasks.append(Task(key, job.name, job.game, settings, seed, seated, job.tournament, limits, rnd,
                                      job.interpreter))
        return tasks


def seeded(*parts: Any) -> random.Random:
    """A generator seeded by the parts' text (the same on every machine and Python)."""
    return random.Random("/".join(map(str, parts)))


__all__ = ["Faults", "FixedFormat", "Format", "Schedule", "Settled", "Wave", "Work", "seeded"]
