"""What reading an adaptive job costs: with the plan cache, and replaying every wave's fit.

Builds a synthetic store of the shipped ``streky-tournament``'s shape (``--students`` one-line
submissions plus the two reference players' logins, both card sets, ``games: 1``, ranks 1-5
awarded, no budget of its own) whose games are decided by Bradley-Terry on true strengths
(normal, sd 200 Elo; no bot runs): the planner walks it to its end as a run would, recording
each wave's plan. Then the reader (``job_results``: the leaderboard's, status's, the report's
and the exports' first step) runs with the plans, with the plans table emptied (a store written
before the cache: a full replay, which records them again), and with the plans once more.

    python bench/bench_plan_cache.py --students 300
    python bench/bench_plan_cache.py --students 1000 --budget 0.005
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import sqlite3
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # as bench_adaptive: the planner is serial
os.environ.setdefault("OMP_NUM_THREADS", "1")

from harness.config import load_config  # noqa: E402
from harness.record import GameRecord, PlayerRecord  # noqa: E402
from harness.tournament.adaptive import Planner  # noqa: E402
from harness.tournament.plancache import StoredPlans  # noqa: E402
from harness.tournament.formats import job_results  # noqa: E402
from harness.tournament.schedule import load_entrants  # noqa: E402
from harness.tournament.store import ResultsStore  # noqa: E402


def build(folder: Path, students: int, budget: float | None, seed: int) -> tuple[float, int, int]:
    """The synthetic job and its store; returns (seconds, games, waves) of the run's planning."""
    rng = random.Random(seed)
    logins = [f"s{i:04d}" for i in range(students)] + ["ref_a", "ref_b"]
    strength = {login: rng.gauss(1500, 200) for login in logins}
    for login in logins:
        (folder / "subs" / login).mkdir(parents=True, exist_ok=True)
        (folder / "subs" / login / "player.py").write_text(f"# {login}\n")
    budget_line = f"\n    budget: {budget}" if budget else ""
    (folder / "tournaments.yaml").write_text(f"""
jobs:
  ad:
    game: streky
    format: adaptive
    submissions: subs
    settings: [{{cards: course}}, {{cards: tournament}}]
    games: 1
    seed: {seed}{budget_line}
    awards: {{policy: tiers, tiers: [{{rank: 1, points: 5}}, {{rank: 2, points: 4}}, {{rank: 3, points: 3}},
                                     {{rank: 4, points: 2}}, {{rank: 5, points: 1}}]}}
""")
    config = load_config(folder / "tournaments.yaml")
    assert not config.problems, config.problems
    job = config.jobs["ad"]
    roll = load_entrants(job)
    started = time.perf_counter()
    last = None
    with ResultsStore(job.results) as store:
        plans = StoredPlans(store.connection, job.name)
        for last in Planner(job, roll).walk(lambda keys: store.found(keys, light=True), plans):
            for task in last.pending:
                a, b = (strength[e.login] for e in task.entrants)
                winner = 0 if random.Random(task.key).random() < 1 / (1 + 10 ** ((b - a) / 400)) else 1
                record = GameRecord(game="streky", settings=task.settings, seed=task.seed,
                                    players=[PlayerRecord(e.login, e.sha256) for e in task.entrants],
                                    winner=winner, scores=(1.0 - winner, float(winner)), places=(1 + winner, 2 - winner),
                                    plies=40, end="board full")
                store.put(task.key, job.name, record)
    assert last is not None
    return time.perf_counter() - started, last.games, last.waves


def read(folder: Path) -> tuple[float, str]:
    """One reader's pass (standings of the adaptive job): seconds, and what it says."""
    job = load_config(folder / "tournaments.yaml").jobs["ad"]
    started = time.perf_counter()
    results = job_results(job, light=True)
    elapsed = time.perf_counter() - started
    top = [r.login for r in results.rows if r.rank is not None][:5]
    return elapsed, f"{results.done} games, stopped: {results.stopped}, top 5 {top}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--students", type=int, default=300)
    ap.add_argument("--budget", type=float, default=0.0, help="share of the round robin (0: none, as shipped)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--folder", help="reuse a store built before (its plans are kept)")
    args = ap.parse_args()
    folder = Path(args.folder) if args.folder else Path(tempfile.mkdtemp(prefix="bench-adaptive-read-"))
    if not (folder / "results" / "ad" / "results.sqlite").exists():
        seconds, games, waves = build(folder, args.students, args.budget or None, args.seed)
        print(f"built {folder}: {games} games in {waves} waves; the run's planning took {seconds:.1f} s "
              f"({1000 * seconds / max(waves, 1):.1f} ms a wave)", flush=True)
    database = folder / "results" / "ad" / "results.sqlite"
    cached, said = read(folder)
    print(f"reader with the plan cache: {cached:.2f} s ({said})", flush=True)
    with sqlite3.connect(database) as db:
        db.execute("DELETE FROM waves")
    replayed, said_replayed = read(folder)
    print(f"reader replaying every wave (no cache, as before): {replayed:.2f} s ({said_replayed})", flush=True)
    again, said_again = read(folder)
    print(f"reader with the cache the replay recorded: {again:.2f} s", flush=True)
    assert said == said_replayed == said_again, "the cache and the replay disagree"
    print(f"{args.students} students: {replayed / min(cached, again):.0f}x faster with the cache; "
          f"store {database.stat().st_size / 1e6:.1f} MB; peak RSS "
          f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB")


if __name__ == "__main__":
    main()
