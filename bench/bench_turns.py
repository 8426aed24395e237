"""What turn-taking costs: two bots answering in turn, each stopped during the other's call.

    python bench/bench_turns.py [--plies 2000]

Three ways, in one run, with trivial bots in the real sandbox (bubblewrap and cgroups where
the machine has them):

1. ``pause=False``: nobody is stopped (the floor: what the calls cost without turn-taking);
2. the default: SIGSTOP/SIGCONT of the worker while it is the bot's only process, after one
   read of the cgroup's task count (and of the worker's thread count);
3. the whole group, as for a bot that started a process of its own: the cgroup freezer
   (SIGSTOP of every process in the cgroup where there is no freezer).

Prints the median wall-clock time per ply of each and the difference from the floor.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from harness.games import get_game  # noqa: E402
from harness.games.base import Call, WireObject  # noqa: E402
from harness.sandbox import BotProcess, Limits  # noqa: E402

TRIVIAL = b"class Player:\n    def __init__(self, name):\n        pass\n    def zet(self, spel):\n        return 2\n"
GAME = get_game("priemspel")
VIEW = WireObject("Spel", {"_N": 5, "_positie": 0, "_eind": 23})


def per_ply(plies: int, pause: bool, whole_group: bool) -> list[float]:
    """Seconds per ply (one call of one bot), alternating between two bots."""
    limits = replace(Limits().with_game(GAME), pause=pause)
    with BotProcess(GAME, TRIVIAL, limits=limits) as a, BotProcess(GAME, TRIVIAL, limits=limits) as b:
        for bot in (a, b):
            assert bot.load().ok and bot.call(Call("__init__", ("x",), "init")).ok
            assert bot.turns is not None
            bot.turns.whole_group = whole_group  # as if it had started a process of its own
        call = Call("zet", (VIEW,), "move")
        for _ in range(50):  # warm-up
            a.call(call)
            b.call(call)
        samples = []
        for _ in range(plies // 2):
            t0 = time.perf_counter()
            a.call(call)
            t1 = time.perf_counter()
            b.call(call)
            samples += [t1 - t0, time.perf_counter() - t1]
        how = a.turns.stopped if a.turns is not None else ()
    print(f"  (stopped by: {', '.join(how) or 'nothing'})", file=sys.stderr)
    return samples


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--plies", type=int, default=2000)
    args = parser.parse_args()
    rows = [("no stopping (floor)", False, False), ("worker alone: SIGSTOP", True, False),
            ("whole group: freezer", True, True)]
    floor = None
    for name, pause, group in rows:
        us = statistics.median(per_ply(args.plies, pause, group)) * 1e6
        floor = us if floor is None else floor
        print(f"{name:<24} {us:8.1f} us/ply  (+{us - floor:.1f} us)")


if __name__ == "__main__":
    main()
