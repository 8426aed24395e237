"""Where a real adaptive Štreky job loses time between its waves, against the same games in one batch.

``--bots`` bots, copies in turn of the legal Štreky players (the reference players ``brute``,
``strong`` and ``random``, and the sample submission ``correct_student``), play an adaptive job
of the shipped ``streky-tournament``'s shape (both card sets, ``games: 1``, ranks 1-5 awarded,
1 s a move) within ``--budget`` games on ``--workers`` workers, through ``run_job`` as
``harness run`` plays it, once as this branch's parent did (``before``: each wave chosen from
every wave before it and played to its last game before the next is planned) and once as now
(``after``: two waves planned ahead, one live queue). Then the games of the last mode (the
adaptive keys are round-robin keys) are played again as one batch on a warm pool into a new
store. For each mode: games/s, the time between the executor's calls (planning: the fit, the
store lookups), the time each call's last game ran alone (a worker idle), the pool's start-up.

    python bench/bench_waves.py --bots 80 --budget 1200 --workers 2
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from harness.config import load_config  # noqa: E402
from harness.tournament import adaptive  # noqa: E402
from harness.record import GameRecord  # noqa: E402
from harness.tournament.execute import LocalExecutor, Work, play_task, run_job  # noqa: E402
from harness.tournament.formats import make_tasks  # noqa: E402
from harness.tournament.schedule import load_entrants  # noqa: E402
from harness.tournament.store import ResultsStore  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
PLAYERS = [REPO / "reference_players/streky/brute.py", REPO / "reference_players/streky/strong.py",
           REPO / "reference_players/streky/random.py", REPO / "submissions/streky/correct_student/player.py"]


class TimedExecutor(LocalExecutor):
    """A local pool that notes when each call to ``run`` (a wave) starts and when each game ends."""

    def __init__(self, workers: int) -> None:
        super().__init__(workers)
        self.calls: list[tuple[float, list[float], int]] = []  # (start, game end times, games)
        self.pool_start = 0.0

    def run(self, tasks: Sequence[Any], work: Work) -> Iterator[tuple[Any, dict[str, Any] | None, str]]:
        started = time.perf_counter()
        if self.pool is None:
            self.pool = self._new_pool()
            self.pool.submit(int).result()  # the pool's first worker up: its start-up, timed apart
            self.pool_start = time.perf_counter() - started
            started = time.perf_counter()
        ends: list[float] = []
        self.calls.append((started, ends, len(tasks)))
        for item in super().run(tasks, work):
            ends.append(time.perf_counter())
            yield item


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bots", type=int, default=80)
    ap.add_argument("--budget", type=int, default=1200, help="games of the adaptive job")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--modes", default="before,after", help="before (wave by wave), after (two waves ahead, live)")
    ap.add_argument("--folder", help="work in this folder (kept) instead of a new temporary one")
    args = ap.parse_args()
    folder = Path(args.folder) if args.folder else Path(tempfile.mkdtemp(prefix="bench-adaptive-waves-"))
    for i in range(args.bots):
        target = folder / "subs" / f"b{i:03d}"
        target.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(PLAYERS[i % len(PLAYERS)], target / "player.py")
    (folder / "tournaments.yaml").write_text(f"""
jobs:
  ad:
    game: streky
    format: adaptive
    submissions: subs
    settings: [{{cards: course}}, {{cards: tournament}}]
    games: 1
    budget: {args.budget}
    workers: {args.workers}
    limits: {{move: 1.0}}
    awards: {{policy: tiers, tiers: [{{rank: 1, points: 5}}, {{rank: 2, points: 4}}, {{rank: 3, points: 3}},
                                     {{rank: 4, points: 2}}, {{rank: 5, points: 1}}]}}
""")
    config = load_config(folder / "tournaments.yaml")
    assert not config.problems, config.problems
    job = config.jobs["ad"]
    out: dict[str, tuple[int, float]] = {}
    for mode in args.modes.split(","):
        # before: each wave chosen from every wave before it, played to its last game before the
        # next is planned (this branch's parent); after: two waves planned ahead, one live queue.
        adaptive.AHEAD = 1 if mode == "before" else 2
        TimedExecutor.live = mode != "before"
        run = replace(job, results=folder / f"results-{mode}")
        executor = TimedExecutor(args.workers)
        load = os.getloadavg()[0]
        started = time.perf_counter()
        summary = run_job(run, executor)
        waved = time.perf_counter() - started
        calls = executor.calls
        gaps = [calls[k + 1][0] - calls[k][1][-1] for k in range(len(calls) - 1) if calls[k][1]] or [0.0]
        alone = [ends[-1] - ends[-2] for _, ends, _n in calls if len(ends) >= 2] or [0.0]
        waves = next(r for r in reversed(job_runs(run)) if "adaptive" in r)["adaptive"]["waves"]
        out[mode] = (summary.played, waved)
        print(f"{mode}: {summary.played} games in {waves} waves, {len(calls)} calls of the executor, {waved:.1f} s: "
              f"{summary.played / waved:.2f} games/s; pool start-up {executor.pool_start:.2f} s; "
              f"between calls {statistics.mean(gaps) * 1000:.0f} ms mean ({sum(gaps):.1f} s in all); "
              f"a call's last game alone {statistics.mean(alone) * 1000:.0f} ms mean ({sum(alone):.1f} s in all); "
              f"load average {load:.1f} -> {os.getloadavg()[0]:.1f}", flush=True)
    adaptive.AHEAD = 2

    with ResultsStore(run.results, lock=False) as store:
        keys = {key for key, _ in store.records(light=True)}
    roll = load_entrants(job)
    tasks = [t for t in make_tasks(replace(job, format="round_robin"), roll) if t.key in keys]
    assert len(tasks) == len(keys), (len(tasks), len(keys))
    batch = LocalExecutor(args.workers)
    batch.pool = batch._new_pool()
    batch.pool.submit(int).result()  # the same start-up outside the clock
    load = os.getloadavg()[0]
    started = time.perf_counter()
    with ResultsStore(folder / "batch") as store:
        for task, result, _fault in batch.run(tasks, play_task):
            assert result is not None
            store.put(task.key, job.name, GameRecord.from_json(result))
    batched = time.perf_counter() - started
    batch.close()
    print(f"one batch: the last mode's {len(tasks)} games in {batched:.1f} s: {len(tasks) / batched:.2f} games/s; "
          f"load average {load:.1f} -> {os.getloadavg()[0]:.1f}", flush=True)
    for mode, (played, seconds) in out.items():
        print(f"{mode}: {played / seconds:.2f} games/s = {100 * (played / seconds) / (len(tasks) / batched):.0f} % "
              f"of the batch's rate")
    print(f"folder {folder}")


def job_runs(job: Any) -> list[dict[str, Any]]:
    with ResultsStore(job.results, lock=False) as store:
        return store.runs()

if __name__ == "__main__":
    main()
