"""``format: shuffled`` (the seeds' strategy comparisons): ``games`` games per settings set, each
seating ``p`` of the entrants in a seeded random order (all of them when there are ``p``). Its
leaderboard adds the wins of each strategy."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from harness.tournament.formats.base import FixedFormat, seeded
from harness.tournament.job import Job
from harness.tournament.results import JobResults
from harness.tournament.schedule import Entrant, Roll


class Shuffled(FixedFormat):
    name = "shuffled"

    def seatings(self, job: Job, roll: Roll, seats: int) -> Callable[[int, int], Iterable[tuple[Entrant, ...]]]:
        def seat(seed: int, k: int) -> Iterable[tuple[Entrant, ...]]:
            yield tuple(seeded(job.name, seed).sample(roll.entrants, seats))

        return seat

    def against(self, job: Job) -> str:
        return "at tables with the reference players"

    def analysis(self, results: JobResults) -> str | None:
        return "wins"


FORMAT = Shuffled()
