"""``format: battery`` (or the battery's own name, e.g. ``sembasic``): each submission is graded
once per version on its game's grading battery (:mod:`harness.tournament.battery`) instead of
playing games; the result is stored like a game and its points reach the gradebook."""

from __future__ import annotations

from typing import Any

from harness.games.base import GameSpec
from harness.games.battery import Battery
from harness.keys import Reader
from harness.tournament.battery import battery_rows, grade_task, grade_tasks
from harness.tournament.formats.base import Format, Schedule, Settled
from harness.tournament.job import Job
from harness.tournament.results import JobResults
from harness.tournament.schedule import Roll
from harness.tournament.store import ResultsStore


class BatterySchedule(Schedule):
    """One wave: every submission whose version is not graded yet."""

    work = staticmethod(grade_task)

    def stored(self, keys: list[str]) -> set[str]:
        return set(self.store.grades(keys))

    def settle(self, task: Any, result: dict[str, Any] | None, fault: str, attempt: int) -> Settled:
        if result is None:  # a grading the harness failed is never stored: the next run grades it
            return Settled(retry=True) if attempt <= self.job.retries else Settled(fault=True)
        self.store.put_grade(task.key, self.job.name, task.login, task.submission.sha256, result)
        return Settled(played=True)


class BatteryFormat(Format):
    name = "battery"
    unit = "gradings"

    def check(self, r: Reader, game: GameSpec, name: str) -> None:
        if game.battery is None:
            raise r.fail("format", f"{game.title} declares no grading battery for format {name}")
        if name != self.name and name != game.battery.name:
            raise r.fail("format", f"{name} is not {game.title}'s grading battery (its battery: {game.battery.name})")

    def bots_needed(self, game: GameSpec) -> int:
        return 0

    def schedule(self, job: Job, roll: Roll, store: ResultsStore) -> Schedule:
        return BatterySchedule(job, roll, store, grade_tasks(job, roll))

    def login_keys(self, job: Job, roll: Roll, store: ResultsStore, login: str) -> list[str]:
        return [t.key for t in grade_tasks(job, roll) if t.login == login]

    def results(self, job: Job, roll: Roll, light: bool) -> JobResults:
        graded = battery_rows(job, roll)
        return JobResults(job, roll, graded.rows, [], [], graded.total, graded.done, graded.runs, unit="gradings")

    def battery(self, job: Job) -> Battery | None:
        return job.spec.battery

    def max_points(self, job: Job) -> float:
        battery = job.spec.battery
        return float(battery.points) if battery is not None else super().max_points(job)

    def against(self, job: Job) -> str:
        battery = job.spec.battery
        return f"with the {battery.title} checks ({', '.join(('interface', *battery.parts))})" if battery \
            else super().against(job)

    def extent(self, job: Job) -> str:
        return ""

    def checks(self, job: Job) -> str:
        return "your answers are compared with the referee's"


FORMAT = BatteryFormat()
