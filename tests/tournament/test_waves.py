"""Waves without idle workers: the planner keeps two waves planned, and a run plays them from one
live queue (a real job of sandboxed PriemSpel bots on a real pool and store)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from harness.config import Tier, load_config
from harness.tournament.adaptive import Planner
from harness.tournament.execute import LocalExecutor, Work, run_job
from harness.tournament.plancache import StoredPlans
from harness.tournament.schedule import load_entrants
from harness.tournament.store import ResultsStore
from tests.tournament.test_adaptive import make_job, sim_job, simulate


def test_two_waves_are_planned_and_the_walk_waits_for_the_oldest() -> None:
    tiers = (Tier(2.0, top=0.25), Tier(1.0, top=0.5))
    job, roll = sim_job(16, None, tiers)
    strength = [1500 + 50 * (8 - i) for i in range(16)]
    _, store = simulate(job, roll, strength)
    opening = {t.key for t in next(Planner(job, roll).walk(lambda keys: {})).pending}
    # With only the opening stored, the walk has planned waves 1 and 2 from its results.
    seen = {k: store[k] for k in opening}
    progress = next(Planner(job, roll).walk(lambda keys: {k: seen[k] for k in keys if k in seen}))
    assert progress.waves == 1 and progress.waiting
    assert progress.waiting < {t.key for t in progress.pending}, "the next wave is queued behind the one awaited"
    later = [t.key for t in progress.pending if t.key not in progress.waiting]
    assert later and not set(later) & opening
    # Planned one wave ahead (each wave from every wave before it) there is nothing behind it.
    planner = Planner(job, roll)
    planner.ahead = 1
    progress = next(planner.walk(lambda keys: {k: seen[k] for k in keys if k in seen}))
    assert progress.waiting == {t.key for t in progress.pending}


class CountingExecutor(LocalExecutor):
    """A local pool that counts the calls to ``run``."""

    def __init__(self, workers: int) -> None:
        super().__init__(workers)
        self.calls = 0

    def run(self, tasks: Sequence[Any], work: Work) -> Iterator[tuple[Any, dict[str, Any] | None, str]]:
        self.calls += 1
        yield from super().run(tasks, work)


def test_a_run_plays_every_wave_from_one_live_queue(tmp_path: Path) -> None:
    config = make_job(tmp_path, bots=6, budget="60%")
    job = load_config(config).jobs["ad"]
    executor = CountingExecutor(2)
    summary = run_job(job, executor)
    with ResultsStore(job.results, lock=False) as store:
        plans = StoredPlans(store.connection, job.name)
        final = next(Planner(job, load_entrants(job)).walk(lambda keys: store.found(keys, light=True), plans))
        assert plans.misses == 0, "every wave the run fitted was recorded"
        assert set(final.keys) == {k for k, _ in store.records(light=True)}, "every game played is in the schedule"
    assert final.finished and final.waves >= 3, final
    assert executor.calls == 1, "the waves went through one live queue, not one call each"
    assert summary.played == final.games == summary.total


class WaveByWave(LocalExecutor):
    """A local pool that takes no new games while it runs (as a Dask executor): wave by wave."""

    live = False


def test_the_schedule_does_not_depend_on_how_the_waves_are_fed(tmp_path: Path) -> None:
    stores = []
    for name, executor in (("live", LocalExecutor(2)), ("waves", WaveByWave(2))):
        job = load_config(make_job(tmp_path / name, bots=5, budget="60%")).jobs["ad"]
        run_job(job, executor)
        with ResultsStore(job.results, lock=False) as store:
            stores.append({k: ([p.login for p in r.players], r.winner) for k, r in store.records(light=True)})
    assert stores[0] and stores[0] == stores[1], "same seed, deterministic bots: the same games either way"
