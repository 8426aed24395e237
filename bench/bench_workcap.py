"""The parent's cost of a plain-mode bot's disk cap (harness/sandbox/workcap.py), and the disk held.

A bot keeps 990 entries in its working folder and rewrites 1 MiB over and over for 0.3 s in
each of four moves (tests/hostile/bots/disk_churn_990.py); the control keeps the same entries
and spins as long without writing. Printed: the harness's own CPU time (its rusage: the folder
walks, the polls, the game, the cleanup of 990 files) for each, in the container tier (plain
mode; as root), and the same with the rule before issue 32 (every MiB written walks the folder).

    .venv/bin/python bench/bench_workcap.py [games]
"""

from __future__ import annotations

import resource
import statistics
import sys
from dataclasses import replace
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from harness.games import get_game  # noqa: E402
from harness.match import play_match  # noqa: E402
from harness.sandbox import Limits, workcap  # noqa: E402

GAME = get_game("priemspel")
BASIS = (REPO / "reference_players/priemspel/basis.py").read_bytes()
CHURN = (REPO / "tests/hostile/bots/disk_churn_990.py").read_bytes()
CONTROL = CHURN.replace(b"REWRITE = True", b"REWRITE = False")
LIMITS = replace(Limits(init=1.0, move=5.0), isolation="plain")


def harness_cpu(source: bytes) -> float:
    before = resource.getrusage(resource.RUSAGE_SELF)
    record = play_match(GAME, [source, BASIS], seed=1, limits=LIMITS)
    after = resource.getrusage(resource.RUSAGE_SELF)
    assert [p.verdict.value for p in record.players] == ["ok", "ok"], [p.reason for p in record.players]
    return after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    harness_cpu(CONTROL)  # warm
    for label, spaced in (("bounded walk (now)", True), ("a walk per MiB written (before)", False)):
        if not spaced:
            workcap.SPACING = 0.0
            workcap.WorkCap._due = lambda self, now: self.pending >= workcap.TRIGGER  # type: ignore[method-assign]
        churn = [harness_cpu(CHURN) for _ in range(games)]
        control = [harness_cpu(CONTROL) for _ in range(games)]
        print(f"{label}: harness CPU per game, 990 entries {statistics.median(churn):.2f} s, "
              f"same entries without writes {statistics.median(control):.2f} s (median of {games})")


if __name__ == "__main__":
    main()
