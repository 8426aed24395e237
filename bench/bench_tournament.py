"""Games per minute of a round robin of fast bots, with 1 and 2 workers, and the parallel efficiency.

    python bench/bench_tournament.py [--bots 20] [--workers 1 2]

Builds a temporary job: N PriemSpel bots (copies of the two reference strategies under
different logins), every pair in both seatings, one settings set; plays it from an empty store
with each worker count through the real ``run_job`` (process pool, SQLite store) and prints
games/minute and efficiency = rate(w) / (w * rate(1)). Target: >= 90 % on two cores.

It also reports how many cores the machine was busy on average during each run (Linux:
``/proc/stat``) and games per busy-core-minute. One game is itself parallel (both bots start
and run in processes of their own), so a single worker already keeps more than one core busy;
on a two-core machine that caps the efficiency above at 2 / (cores busy with one worker), and
the per-core rate shows whether a second worker adds any waste of its own.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from harness.config import load_config  # noqa: E402
from harness.tournament.execute import LocalExecutor, run_job  # noqa: E402

REPO = Path(__file__).resolve().parents[1]


def make_job(folder: Path, bots: int) -> Path:
    sources = [(REPO / "reference_players/priemspel/basis.py").read_bytes(),
               (REPO / "reference_players/priemspel/strategie.py").read_bytes()]
    for i in range(bots):
        (folder / "subs" / f"bot{i:02d}").mkdir(parents=True)
        (folder / "subs" / f"bot{i:02d}" / "player.py").write_bytes(sources[i % 2] + f"\n# bot {i}\n".encode())
    config = folder / "tournaments.yaml"
    config.write_text("jobs:\n  rr:\n    game: priemspel\n    format: round_robin\n    submissions: subs\n"
                      "    settings: {start: 0, N: 5}\n    games: 1\n")
    return config


def cpu_ticks() -> tuple[int, int] | None:
    """(all, idle) jiffies of the whole machine, or None off Linux."""
    try:
        with open("/proc/stat") as f:
            values = [int(x) for x in f.readline().split()[1:]]
    except OSError:
        return None
    return sum(values), values[3] + values[4]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bots", type=int, default=20)
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    args = parser.parse_args()
    rates: dict[int, float] = {}
    for workers in args.workers:
        with tempfile.TemporaryDirectory() as tmp:
            job = load_config(make_job(Path(tmp), args.bots)).resolve("rr")[0]
            ticks0, start = cpu_ticks(), time.perf_counter()
            summary = run_job(job, LocalExecutor(workers))
            elapsed, ticks1 = time.perf_counter() - start, cpu_ticks()
        rates[workers] = summary.played / elapsed * 60
        line = f"{workers} worker(s): {summary.played} games in {elapsed:.1f} s = {rates[workers]:.0f} games/min"
        if ticks0 and ticks1 and ticks1[0] > ticks0[0]:
            total, idle = ticks1[0] - ticks0[0], ticks1[1] - ticks0[1]
            busy = (total - idle) / total * (os.cpu_count() or 1)
            line += f"; {busy:.2f} of {os.cpu_count()} cores busy = {rates[workers] / busy:.0f} games per busy-core-minute"
        print(line)
    base = rates.get(1)
    for workers, rate in rates.items():
        if base and workers > 1:
            print(f"parallel efficiency with {workers} workers: {rate / (workers * base):.0%}")


if __name__ == "__main__":
    main()
