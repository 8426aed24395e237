"""``format: adaptive``: a round robin's games chosen wave by wave until every award tier is
settled at the job's ``confidence``, or its ``budget`` of games is spent.

The planner is :mod:`harness.tournament.adaptive` (its waves, fit and stopping rule); each
wave's plan is kept in the store (:mod:`harness.tournament.plancache`), so a resumed run and
every reader replay the waves without refitting them. Its bots meet different opponents, so
it ranks by rating and flags each student whose interval still straddles a tier boundary.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

from harness.games.base import GameSpec
from harness.keys import Reader
from harness.record import GameRecord
from harness.tournament.formats.base import Faults, Format, Schedule
from harness.tournament.job import Job
from harness.tournament.results import JobResults, StoredGames
from harness.tournament.schedule import Roll
from harness.tournament.standings import standings
from harness.tournament.store import ResultsStore, open_readonly

if TYPE_CHECKING:  # the planner brings numpy: imported when an adaptive job is run or read
    from harness.tournament.adaptive import Progress


def share(text: str) -> float | None:
    """``"35%"`` -> 0.35; ``None`` for anything else."""
    try:
        return float(text.strip().removesuffix("%")) / 100 if text.strip().endswith("%") else None
    except ValueError:
        return None


class AdaptiveSchedule(Schedule):
    """The planner's waves; the store's plan cache spares a resumed run the refits."""

    def __init__(self, job: Job, roll: Roll, store: ResultsStore) -> None:
        from harness.tournament.adaptive import budget_of
        from harness.tournament.plancache import StoredPlans

        self.job, self.roll, self.store = job, roll, store
        self.total = self.reused = 0  # known once the schedule stops
        self.expected = budget_of(job, roll)
        self.plans = StoredPlans(store.connection, job.name)  # each wave's plan, for readers and resumes

    def waves(self, faults: Faults) -> Iterator[Progress]:
        from harness.tournament.adaptive import Planner

        def lookup(keys: list[str]) -> Mapping[str, GameRecord]:
            return {**self.store.found(keys, light=True), **{k: faults[k] for k in keys if k in faults}}

        return Planner(self.job, self.roll).walk(lookup, self.plans)

    def finish(self, last: Any, played: int, faults: Faults, info: dict[str, Any]) -> tuple[int, int]:
        from harness.tournament.adaptive import round_robin_games

        if not faults:  # the schedule is the store's own: earlier days' plans are unreachable
            self.plans.prune()
        info.update(games=last.games, reused=last.games - played,
                    adaptive={"waves": last.waves, "stopped": last.stopped, "unsettled": len(last.unsettled),
                              "round_robin": round_robin_games(self.job, self.roll)})
        return last.games, last.games - played


class Adaptive(Format):
    name = "adaptive"
    keys = {"confidence": "only an adaptive job has one", "budget": "only an adaptive job has one"}
    tournament = True
    by_rating = True

    def check(self, r: Reader, game: GameSpec, name: str) -> None:
        if game.players != 2:
            raise r.fail("format", f"adaptive schedules two-player games; {game.title} seats {game.players}")

    def read(self, r: Reader, body: Mapping[str, Any], game: GameSpec) -> dict[str, Any]:
        """``confidence`` (a fraction or a percentage) and ``budget`` (games or a share)."""
        raw = body.get("confidence", 0.95)
        confidence = share(raw) if isinstance(raw, str) else raw if type(raw) in (int, float) else None
        if confidence is None or not 0.5 <= confidence < 1:
            raise r.fail("confidence", f"must be a fraction in [0.5, 1) or a percentage such as 95%, got {raw!r}")
        raw = body.get("budget")
        budget: int | float | None = None
        if raw is not None:
            budget = share(raw) if isinstance(raw, str) else raw if type(raw) in (int, float) else None
            if budget is None or budget <= 0 or (isinstance(budget, float) and budget > 1):
                raise r.fail("budget", f"must be a number of games or a share of the round robin such as 35%, "
                                       f"got {raw!r}")
        return {"confidence": float(confidence), "budget": budget}

    def schedule(self, job: Job, roll: Roll, store: ResultsStore) -> Schedule:
        return AdaptiveSchedule(job, roll, store)

    numbered = False

    def login_keys(self, job: Job, roll: Roll, store: ResultsStore, login: str) -> list[str]:
        return store.keys_with(login)  # the schedule is the store's own: its games in the order they were played

    def results(self, job: Job, roll: Roll, light: bool) -> JobResults:
        """Its waves replayed from the store (each wave's plan read from the store's plan cache when
        recorded), ranked by rating, each student's interval flagged when it still straddles an
        award tier's boundary."""
        from harness.tournament.adaptive import Planner, round_robin_games
        from harness.tournament.plancache import StoredPlans

        keys: list[str] = []

        def stream(store: ResultsStore, wanted: set[str]) -> Iterator[GameRecord]:
            for key, record in store.records(wanted, light=True):  # one pass, as job_results does
                if not record.harness_fault:
                    keys.append(key)
                    yield record

        with open_readonly(job.results) as store:
            # The recorded plans spare the refit of every wave; a store without them fills them once.
            plans = StoredPlans(store.connection, job.name, commit_each=False)
            progress = next(Planner(job, roll).walk(lambda keys: store.found(keys, light=True), plans))
            plans.flush()
            runs = store.runs()
            rows = standings(job.awards, roll.entrants, stream(store, set(progress.keys)), roll.absent,
                             by_rating=True, confidence=job.confidence)
        records = StoredGames(job.results, keys, light)
        for row in rows:
            row.near_boundary = row.login in progress.unsettled and not row.reference and not row.absent
        total = progress.games + len(progress.pending)
        return JobResults(job, roll, rows, records, keys, total, progress.games, runs,
                          round_robin=round_robin_games(job, roll), stopped=progress.stopped, open_ended=True,
                          schedule=list(progress.keys))

    def stored_text(self, results: JobResults) -> str:
        share = 100 * results.done / results.round_robin if results.round_robin else 0.0
        state = f"stopped: {results.stopped}" if results.stopped else results.incomplete
        return (f"{results.done} games in the adaptive schedule's complete waves ({state}); "
                f"the full round robin has {results.round_robin} ({share:.1f} % played)")

    def summary(self, results: JobResults) -> dict[str, Any]:
        return {"round_robin": results.round_robin, "stopped": results.stopped or None}


FORMAT = Adaptive()
