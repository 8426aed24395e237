"""``format: round_robin``: every combination of ``p`` entrants (every pair in a two-player
game), in each of its ``p`` seat rotations, on every settings set and seed; with ``tables: N``
(more than two seats and many entrants) a seeded sample of ``N`` combinations per seed instead.
Its leaderboard may add the seats analysis (``analysis: seats``)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from itertools import combinations

from harness.tournament.formats.base import FixedFormat, seeded
from harness.tournament.job import Job
from harness.tournament.schedule import Entrant, Roll


class RoundRobin(FixedFormat):
    name = "round_robin"
    keys = {"analysis": "must be one of seats (for a round_robin), got {value!r}"}
    tournament = True
    analyses = ("seats",)

    def seatings(self, job: Job, roll: Roll, seats: int) -> Callable[[int, int], Iterable[tuple[Entrant, ...]]]:
        every_table = list(combinations(roll.entrants, seats))

        def seat(seed: int, k: int) -> Iterable[tuple[Entrant, ...]]:
            tables = every_table
            if job.tables is not None and len(tables) > job.tables:
                picked = seeded(job.name, seed, "tables").sample(range(len(tables)), job.tables)
                tables = [tables[i] for i in sorted(picked)]
            for table in tables:
                for turn in range(seats):
                    yield table[turn:] + table[:turn]

        return seat

    def against(self, job: Job) -> str:
        return "against every reference player, both seatings"


FORMAT = RoundRobin()
