"""Games on a Dask ``LocalCluster``: games/s on 1 and 2 workers, and the coordinator's memory
while it schedules 200,000 games.

    python bench/bench_dask.py --games 200 --schedule 200000

Part 1 plays ``--games`` real PriemSpel games (sandboxed bots; the seed's strategy against the
basic player, N = 7) through :class:`DaskExecutor` on clusters of 1 and 2 worker processes.
Part 2 pushes ``--schedule`` empty tasks (the work is ``vars``: only the scheduling costs)
through the executor on 2 workers and prints the coordinator's resident memory before, at
the peak and after, and the futures it held at most. The scheduler runs in its own process,
as on a real cluster; its memory is printed beside the coordinator's as the games go by (it
keeps bounded histories of its own, which fill up over the first games).
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import time
from pathlib import Path
from types import SimpleNamespace

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from distributed import LocalCluster  # noqa: E402

from harness.config import Awards, Job, SubmissionRef  # noqa: E402
from harness.sandbox.limits import Limits  # noqa: E402
from harness.tournament.cluster import DaskExecutor  # noqa: E402
from harness.tournament.execute import play_task  # noqa: E402
from harness.tournament.formats import make_tasks  # noqa: E402
from harness.tournament.schedule import load_entrants  # noqa: E402

REPO = Path(__file__).resolve().parents[1]


def rss_mb() -> float:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * resource.getpagesize() / 1e6


def games_per_second(workers: int, games: int) -> float:
    refs = (SubmissionRef("strategie", REPO / "reference_players/priemspel/strategie.py"),
            SubmissionRef("basis", REPO / "reference_players/priemspel/basis.py"))
    job = Job(name="bench", game="priemspel", format="round_robin", submissions=refs, reference=(), opponent=None,
              settings=({"start": 0, "N": 7},), games=max(1, games // 2), seed=1, tournament=False,
              limits=Limits(), workers=workers, awards=Awards("none"), results=Path("/nonexistent"))
    tasks = make_tasks(job, load_entrants(job))
    with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None) as c:
        executor = DaskExecutor(c.scheduler_address, self_check=False)
        try:
            list(executor.run(tasks[:2], play_task))  # warm the workers' imports up
            started = time.perf_counter()
            played = sum(1 for _, result, _ in executor.run(tasks, play_task) if result is not None)
            return played / (time.perf_counter() - started)
        finally:
            executor.close()


CLUSTER = """
import os, sys
from distributed import LocalCluster
if __name__ == "__main__":
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as c:
        print(c.scheduler_address, os.getpid(), flush=True)
        sys.stdin.read()  # until the coordinator closes the pipe
"""


def rss_of(pid: int) -> float:
    """Resident memory of process ``pid`` in MB."""
    with open(f"/proc/{pid}/statm") as f:
        return int(f.read().split()[1]) * resource.getpagesize() / 1e6


def schedule(count: int) -> None:
    """Coordinator and scheduler in separate processes, as on a real cluster: each one's memory."""
    cluster = subprocess.Popen([sys.executable, "-c", CLUSTER], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL, text=True)
    assert cluster.stdout is not None and cluster.stdin is not None
    address, pid = cluster.stdout.readline().split()
    executor = DaskExecutor(address, self_check=False, batch=256)
    try:
        before = rss_mb()
        peak = before
        trace = []
        started = time.perf_counter()
        tasks = (SimpleNamespace(key=f"{n:07d}") for n in range(count))
        seen = 0
        for _ in executor.run(tasks, vars):  # read lazily: the coordinator holds a few batches
            seen += 1
            if seen % 5000 == 0:
                peak = max(peak, rss_mb())
            if seen % max(1, count // 8) == 0:
                trace.append(f"{seen // 1000}k: {rss_mb():.0f}/{rss_of(int(pid)):.0f}")
        elapsed = time.perf_counter() - started
        print(f"scheduled {seen} empty games in {elapsed:.0f} s ({seen / elapsed:.0f}/s); coordinator "
              f"{before:.0f} MB before, {peak:.0f} MB at most, {rss_mb():.0f} MB after; at most "
              f"{executor.peak} futures outstanding")
        print("memory as games go by, coordinator/scheduler MB: " + ", ".join(trace))
    finally:
        executor.close()
        cluster.stdin.close()
        cluster.wait(timeout=60)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--schedule", type=int, default=200_000)
    args = ap.parse_args()
    for workers in (1, 2) if args.games else ():
        print(f"{workers} worker(s): {games_per_second(workers, args.games):.1f} games/s", flush=True)
    if args.schedule:
        schedule(args.schedule)


if __name__ == "__main__":
    main()
