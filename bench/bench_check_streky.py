"""Time of ``harness check streky`` on the course's Brute: the whole grading job (64 games).

    python bench/bench_check_streky.py [--workers 1 2] [--bot reference_players/streky/brute.py]

For each worker count it runs ``harness check streky BOT --json --workers N`` as a student
would and prints the wall time, the games, the bot's own moves (its accepted answers, passes
included) and whether it passed, with the machine's load average before the run (the time
depends on what else runs). The grading deal itself is timed too: drawing the deals of the 64
seeds in this process.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from harness.games.streky.cards import random_deal  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, nargs="+", default=[1, os.cpu_count() or 1])
    parser.add_argument("--bot", default=str(REPO / "reference_players/streky/brute.py"))
    args = parser.parse_args()
    start = time.perf_counter()
    for seed in range(1, 65):
        random_deal(random.Random(seed))
    print(f"64 grading deals drawn in {1000 * (time.perf_counter() - start):.1f} ms")
    for workers in args.workers:
        load = os.getloadavg()[0]
        start = time.perf_counter()
        run = subprocess.run([sys.executable, "-m", "harness", "check", "streky", args.bot, "--json",
                              "--workers", str(workers)], capture_output=True, text=True, cwd=REPO)
        wall = time.perf_counter() - start
        if run.returncode not in (0, 1):
            print(run.stderr, file=sys.stderr)
            return 1
        report = json.loads(run.stdout)
        print(f"workers {workers}: {wall:.1f} s, {len(report['games'])} games, {report['own_moves']} own moves, "
              f"passed {report['passed']} (load average before: {load:.1f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
