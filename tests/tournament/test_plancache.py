"""The adaptive schedule's plan cache: a recorded wave is read instead of refitted, never stale.

Each test compares the walk (or a reader's results) with the plans against a full replay
without them, on a real SQLite store of simulated games (Bradley-Terry outcomes, no bots: the
plans depend on the results only, and a bot-played store is covered by the resume tests).
"""

from __future__ import annotations

import json
import random
import sqlite3
from dataclasses import replace
from pathlib import Path

from harness.config import Job, load_config
from harness.record import GameRecord, PlayerRecord
from harness.tournament.adaptive import Planner, Progress
from harness.tournament.plancache import MemoryPlans, StoredPlans
from harness.tournament.formats import job_results
from harness.tournament.schedule import Roll, load_entrants
from harness.tournament.store import ResultsStore

BOTS = 24


def make_job(tmp_path: Path, budget: str = "40%", seed: int = 1) -> Job:
    """An adaptive PriemSpel job of ``BOTS`` one-line submissions (never run: the games are simulated)."""
    subs = tmp_path / "submissions"
    for i in range(BOTS):
        (subs / f"s{i:02d}").mkdir(parents=True, exist_ok=True)
        (subs / f"s{i:02d}" / "player.py").write_text(f"# bot {i}\n")
    config = tmp_path / "tournaments.yaml"
    config.write_text(f"""
jobs:
  ad:
    game: priemspel
    format: adaptive
    submissions: submissions
    settings: [{{N: 5}}, {{N: 7}}]
    games: 2
    seed: {seed}
    budget: {budget}
    awards: {{policy: tiers, tiers: [{{rank: 1, points: 3}}, {{top: 0.25, points: 2}}, {{top: 0.5, points: 1}}]}}
""")
    loaded = load_config(config)
    assert not loaded.problems, loaded.problems
    return loaded.jobs["ad"]


def outcome(task_key: str, login_a: str, login_b: str, flip: bool = False) -> int:
    """The simulated winner's seat: s00 strongest, 60 Elo a step, drawn from the key (replays alike)."""
    a, b = int(login_a[1:]), int(login_b[1:])
    p = 1 / (1 + 10 ** ((a - b) * 60 / 400))
    winner = 0 if random.Random(task_key).random() < p else 1
    return 1 - winner if flip else winner


def record_of(task, winner: int) -> GameRecord:  # type: ignore[no-untyped-def]
    return GameRecord(game="priemspel", settings=task.settings, seed=task.seed,
                      players=[PlayerRecord(e.login, e.sha256) for e in task.entrants],
                      winner=winner, scores=(1.0 - winner, float(winner)), places=(1 + winner, 2 - winner))


def play_out(job: Job, roll: Roll, store: ResultsStore, plans: StoredPlans | None) -> Progress:
    """Walk the schedule to its end, storing each pending game's simulated result."""
    last = None
    for last in Planner(job, roll).walk(lambda keys: store.found(keys, light=True), plans):
        for task in last.pending:
            store.put(task.key, job.name, record_of(task, outcome(task.key, *(e.login for e in task.entrants))))
    assert last is not None and last.finished
    return last


def replay(job: Job, roll: Roll, folder: Path, plans: bool) -> tuple[Progress, StoredPlans]:
    """A reader's walk over the store: with the recorded plans, or a full replay (plans unused)."""
    with ResultsStore(folder, lock=False) as store:
        stored = StoredPlans(store.connection, job.name)
        progress = next(Planner(job, roll).walk(lambda keys: store.found(keys, light=True),
                                                stored if plans else None))
        return progress, stored


def same(a: Progress, b: Progress) -> bool:
    return (a.waves, a.games, a.keys, a.stopped, a.unsettled, [t.key for t in a.pending]) == \
        (b.waves, b.games, b.keys, b.stopped, b.unsettled, [t.key for t in b.pending])


def waves_recorded(folder: Path) -> int:
    with sqlite3.connect(folder / "results.sqlite") as db:
        return int(db.execute("SELECT COUNT(*) FROM waves").fetchone()[0])


def test_a_cache_hit_equals_the_replay(tmp_path: Path) -> None:
    job = make_job(tmp_path)
    roll = load_entrants(job)
    with ResultsStore(job.results) as store:
        played = play_out(job, roll, store, StoredPlans(store.connection, job.name))
    assert played.waves > 5 and waves_recorded(job.results) == played.waves
    cached, stats = replay(job, roll, job.results, plans=True)
    full, _ = replay(job, roll, job.results, plans=False)
    assert same(cached, full) and same(cached, played)
    assert (stats.hits, stats.misses) == (played.waves, 0), "every wave read, none refitted"
    # The readers say the same with the cache and without it (an emptied table: an old store).
    with_cache = job_results(job)
    with sqlite3.connect(job.results / "results.sqlite") as db:
        db.execute("DELETE FROM waves")
    without = job_results(job)
    assert [(r.login, r.rank, r.rating, r.near_boundary) for r in with_cache.rows] == \
        [(r.login, r.rank, r.rating, r.near_boundary) for r in without.rows]
    assert (with_cache.done, with_cache.total, with_cache.stopped) == (without.done, without.total, without.stopped)
    assert waves_recorded(job.results) == played.waves, "the reader filled the emptied cache again"


def test_a_store_without_the_waves_table_still_reads(tmp_path: Path) -> None:
    job = make_job(tmp_path)
    roll = load_entrants(job)
    with ResultsStore(job.results) as store:
        played = play_out(job, roll, store, None)
    with sqlite3.connect(job.results / "results.sqlite") as db:
        db.execute("DROP TABLE waves")  # as a store written before the cache
    results = job_results(job)
    assert results.done == played.games and results.stopped == played.stopped
    assert {r.login for r in results.rows if r.near_boundary} == played.unsettled
    assert waves_recorded(job.results) == played.waves


def test_a_changed_result_misses_from_its_wave_on(tmp_path: Path) -> None:
    job = make_job(tmp_path)
    roll = load_entrants(job)
    with ResultsStore(job.results) as store:
        played = play_out(job, roll, store, StoredPlans(store.connection, job.name))
    # Turn round one game of wave 3 (as a harness fault played again would): the cache must not
    # give wave 4 on, which depended on it.
    with sqlite3.connect(job.results / "results.sqlite") as db:
        ends = [json.loads(plan)["games"] for (plan,) in db.execute("SELECT plan FROM waves ORDER BY wave")]
    starts = [0] + ends  # where each wave's games begin in the schedule's keys
    with ResultsStore(job.results, lock=False) as store:
        key = played.keys[starts[3]]
        (old,) = store.found([key]).values()
        store.put(key, job.name, replace(old, winner=1 - (old.winner or 0), scores=old.scores[::-1],
                                         places=old.places[::-1]))
    full, _ = replay(job, roll, job.results, plans=False)
    cached, stats = replay(job, roll, job.results, plans=True)
    assert same(cached, full), "the cache gives the replay's schedule after a changed result"
    assert stats.hits == 3 and stats.misses >= 1, (stats.hits, stats.misses)
    assert full.keys[:starts[4]] == played.keys[:starts[4]], "waves 0-3 were the same games"


def test_a_changed_job_or_submission_misses_from_the_start(tmp_path: Path) -> None:
    job = make_job(tmp_path)
    roll = load_entrants(job)
    with ResultsStore(job.results) as store:
        play_out(job, roll, store, StoredPlans(store.connection, job.name))
    changes = [replace(job, seed=job.seed + 1), replace(job, budget=0.3), replace(job, confidence=0.9),
               replace(job, awards=replace(job.awards, tiers=job.awards.tiers[:2]))]
    for changed in changes:
        cached, stats = replay(changed, roll, job.results, plans=True)
        full, _ = replay(changed, roll, job.results, plans=False)
        assert same(cached, full), changed
        assert stats.hits == 0, f"{changed}: a plan of another job was read"
    # A changed submission: its games have other keys, and the schedule starts afresh.
    (tmp_path / "submissions" / "s05" / "player.py").write_text("# bot 5, improved\n")
    roll2 = load_entrants(job)
    cached, stats = replay(job, roll2, job.results, plans=True)
    full, _ = replay(job, roll2, job.results, plans=False)
    assert same(cached, full) and stats.hits == 0


def test_a_daily_run_replans_and_prunes_the_old_schedule(tmp_path: Path) -> None:
    job = make_job(tmp_path)
    with ResultsStore(job.results) as store:
        first = play_out(job, load_entrants(job), store, StoredPlans(store.connection, job.name))
    (tmp_path / "submissions" / "s05" / "player.py").write_text("# bot 5, improved\n")
    roll = load_entrants(job)
    with ResultsStore(job.results) as store:
        plans = StoredPlans(store.connection, job.name)
        second = play_out(job, roll, store, plans)
        assert plans.hits == 0 and waves_recorded(job.results) == first.waves + second.waves
        assert plans.prune() == first.waves
    assert waves_recorded(job.results) == second.waves
    cached, stats = replay(job, roll, job.results, plans=True)
    assert same(cached, second) and stats.hits == second.waves


def test_memory_plans_give_the_same_walk() -> None:
    """The planner with plans in memory (a simulation's) equals the plain walk, hit or miss."""
    from tests.tournament.test_adaptive import sim_job, simulate
    from harness.config import Tier

    job, roll = sim_job(16, 300, (Tier(2.0, top=0.25), Tier(1.0, top=0.5)))
    strength = [1500 + 50 * (8 - i) for i in range(16)]
    steps, store = simulate(job, roll, strength)
    plans = MemoryPlans()
    lookup = lambda keys: {k: store[k] for k in keys if k in store}  # noqa: E731
    first = next(Planner(job, roll).walk(lookup, plans))
    assert len(plans.plans) == first.waves
    again = next(Planner(job, roll).walk(lookup, plans))
    plain = next(Planner(job, roll).walk(lookup))
    assert same(first, again) and same(first, plain) and first.stopped == steps[-1][3]
