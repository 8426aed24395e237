"""Games of one pair of submissions in a fresh harness process, and what they cost that process.

    python -m tests.hostile.door_games SPEC.json

``SPEC`` names the game, the isolation mode, how many games, and each seat's files (a folder of
``.py`` files). The output is one JSON object: each game's verdicts and reasons, the CPU time the
harness's own process spent on it (``RUSAGE_SELF``: the games' threads, the decoding, the door's
bookkeeping; not the bots, not the door's children) and the door's children it started with
their CPU time; then the process's own peak RSS and the door's largest child's. A fresh process
per measurement: a test process's peak RSS is that of everything it ever ran.
"""

from __future__ import annotations

import json
import resource
import sys
import time
from dataclasses import replace
from pathlib import Path

from harness import door
from harness.games import get_game
from harness.match import play_match
from harness.sandbox import Limits
from harness.submission import read_folder


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def main() -> None:
    spec = json.loads(Path(sys.argv[1]).read_text())
    game = get_game(spec["game"])
    limits = replace(Limits(init=3.0, move=3.0), **spec.get("limits", {}))
    seats = [read_folder(Path(folder)) for folder in spec["seats"]]
    games = []
    for seed in range(1, spec["games"] + 1):
        cpu, children, door_cpu, t = _cpu(), door.stats.children, door.stats.cpu, time.perf_counter()
        record = play_match(game, seats, seed=seed, limits=limits, logins=[f"p{i}" for i in range(len(seats))])
        games.append({"verdicts": [p.verdict.value for p in record.players],
                      "reasons": [p.reason for p in record.players], "harness_fault": record.harness_fault,
                      "parent_cpu": _cpu() - cpu, "door_children": door.stats.children - children,
                      "door_cpu": door.stats.cpu - door_cpu, "seconds": time.perf_counter() - t})
    print(json.dumps({"games": games, "parent_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                      "parent_cpu": _cpu(), "door_peak_rss_mb": door.stats.peak_rss_mb, "door_cpu": door.stats.cpu,
                      "door_children": door.stats.children}))


if __name__ == "__main__":
    main()
