"""A real adaptive job against its round robin: 40 PriemSpel bots of graded strength.

Bot ``sNN`` plays the seed's strategy but a random legal step with probability ``NN / 39``
(drawn from a generator seeded by the position), so ``s00`` is the strongest and the true
order is the bots' numbering. Both jobs play for real (sandboxed subprocess bots, a SQLite
store); the round robin plays every pair in both seat orders once (``games: 1``), the adaptive
job may rematch a pair on new seeds (``games: 4``) within a budget of 35 % of that round robin's
games (a number of games: ``35%`` would be of the adaptive job's own round robin, four times as big).
Tier accuracy: the share of students whose tier (top 10 / 20 / 40 %) is the one of their
true rank.

    python bench/bench_adaptive_job.py --bots 40 --workers 2
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from harness.config import load_config  # noqa: E402
from harness.tournament.execute import LocalExecutor, run_job  # noqa: E402
from harness.tournament.formats import job_results  # noqa: E402
from harness.tournament.standings import tier_reach  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
TOPS = (0.1, 0.2, 0.4)
GRADED = '''

import random as _random

P = {p!r}
_Strong = Player


class Player(_Strong):
    def zet(self, spel):
        rng = _random.Random(f"{{spel.positie}}/{{spel.N}}/{{P}}")
        if rng.random() < P:
            steps = self.stappen(spel.positie, spel.N)
            return rng.choice(steps) if steps else 1
        return super().zet(spel)
'''


def tier(rank: int, n: int) -> int:
    return next((t for t, top in enumerate(TOPS) if rank <= tier_reach(top, n)), len(TOPS))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bots", type=int, default=40)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--budget", type=float, default=0.35, help="share of the round robin's games")
    ap.add_argument("--rematches", type=int, default=4)
    ap.add_argument("--folder", help="reuse this folder (its bots and stored games) instead of a new one")
    args = ap.parse_args()
    folder = Path(args.folder) if args.folder else Path(tempfile.mkdtemp(prefix="bench-adaptive-"))
    strategy = (REPO / "reference_players/priemspel/strategie.py").read_bytes()
    for i in range(args.bots):
        if (folder / "subs" / f"s{i:02d}").exists():
            continue
        (folder / "subs" / f"s{i:02d}").mkdir(parents=True)
        p = round(i / (args.bots - 1), 3)
        (folder / "subs" / f"s{i:02d}" / "player.py").write_bytes(strategy + GRADED.format(p=p).encode())
    tiers = ", ".join(f"{{top: {t}, points: {3 - n}}}" for n, t in enumerate(TOPS))
    common = f"""    game: priemspel
    submissions: subs
    settings: [{{N: 7}}]
    workers: {args.workers}
    awards: {{policy: tiers, tiers: [{tiers}]}}"""
    (folder / "tournaments.yaml").write_text(f"""
jobs:
  rr:
    format: round_robin
    games: 1
{common}
  ad:
    format: adaptive
    games: {args.rematches}
    budget: {round(args.budget * args.bots * (args.bots - 1))}
    results: results/ad-{args.budget:g}
{common}
""")
    config = load_config(folder / "tournaments.yaml")
    assert not config.problems, config.problems
    out = {}
    for name in ("rr", "ad"):
        job = config.jobs[name]
        started = time.perf_counter()
        summary = run_job(job, LocalExecutor(job.workers))
        elapsed = time.perf_counter() - started
        results = job_results(job)
        students = [r for r in results.rows if r.rank is not None]
        n = len(students)
        right = sum(tier(r.rank or 0, n) == tier(int(r.login[1:]) + 1, n) for r in students)
        out[name] = (summary.total, elapsed, right / n, results.stopped)
        print(f"{name}: {summary.total} games ({summary.reused} reused), {summary.played} played in {elapsed:.0f} s "
              f"({summary.played / max(elapsed, 1e-9):.1f} games/s), "
              f"tier accuracy {100 * right / n:.1f} %{', stopped: ' + results.stopped if results.stopped else ''}",
              flush=True)
    rr, ad = out["rr"], out["ad"]
    print(f"{args.bots} bots: adaptive played {ad[0]} games = {100 * ad[0] / rr[0]:.1f} % of the round robin's "
          f"{rr[0]}; tier accuracy {100 * ad[2]:.1f} % against {100 * rr[2]:.1f} % ({100 * (ad[2] - rr[2]):+.1f} "
          f"points); store in {folder}")


if __name__ == "__main__":
    main()
