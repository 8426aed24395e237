"""``format: gauntlet``: each submission plays ``games`` seeded games per settings set against the
job's ``opponent`` (in every other seat), its seat rotating with the game number. Every bot meets
the same opponent, so a rating would say nothing more than the score: none is shown."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from harness.games.base import GameSpec
from harness.keys import Reader
from harness.tournament.formats.base import FixedFormat
from harness.tournament.job import Job
from harness.tournament.schedule import Entrant, Roll


class Gauntlet(FixedFormat):
    name = "gauntlet"
    keys = {"opponent": "only a gauntlet has an opponent"}
    rated = False
    grading = True  # what ``harness check`` plays when a game has no ``<game>-grading`` job

    def bots_needed(self, game: GameSpec) -> int:
        return 0

    def read(self, r: Reader, body: Mapping[str, Any], game: GameSpec) -> dict[str, Any]:
        return {"opponent": r.file("opponent", r.get("opponent"), game)}

    def seatings(self, job: Job, roll: Roll, seats: int) -> Callable[[int, int], Iterable[tuple[Entrant, ...]]]:
        opponent = roll.opponent
        assert opponent is not None  # the job's validation guarantees it for a gauntlet

        def seat(seed: int, k: int) -> Iterable[tuple[Entrant, ...]]:
            for e in roll.entrants:
                if not e.reference:
                    seated = [opponent] * seats
                    seated[k % seats] = e
                    yield tuple(seated)

        return seat

    def against(self, job: Job) -> str:
        return f"against {job.opponent.stem if job.opponent else 'the reference player'}"


FORMAT = Gauntlet()
