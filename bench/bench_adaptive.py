"""The adaptive schedule against a double round robin, on simulated bots of known strength.

Each bot has a true Elo strength (normal, sd ``--spread``); a game between a and b is won by a
with the Bradley-Terry probability ``1 / (1 + 10 ** ((b - a) / 400))`` (no draws). The round
robin plays every pair in both seat orders (``games: 1``, one settings set: 2 games a pair)
and ranks by wins, as the harness ranks a round robin by score; the adaptive schedule (the
harness's own :class:`~harness.tournament.adaptive.Planner`, fed the simulated results) ranks
by rating, and may rematch a pair on new seeds (``--rematches``, its ``games``). The budget is
a share of the double round robin's games (``--budget 0``: none, the adaptive job's own round
robin). Tier accuracy: the share of students whose award tier (top 10 / 20 / 40 %, or the
shipped streky-tournament's ranks 1-5) is their true one. Each seed draws its bots and plays
their round robin once; every budget of a curve runs the adaptive schedule on those same bots.
Mind the noise: one seed's accuracy moves by a point or two with the luck of its games, so
compare settings over a dozen seeds (waves of a quarter instead of a half: +1.6 points on
seeds 1-3, +0.4 over seeds 1-12). ``bench_adaptive_bound.py`` gives the idealised optimum on the same bots.

    python bench/bench_adaptive.py --bots 300 --seeds 2                # 15 % budget, sd 200 Elo
    python bench/bench_adaptive.py --bots 300 --seeds 12 --budget 0.15,0.2,0.3   # a curve, same bots
    python bench/bench_adaptive.py --bots 300 --seeds 2 --spread 400
    python bench/bench_adaptive.py --bots 1000 --seeds 1
    python bench/bench_adaptive.py --bots 302 --tiers ranks --rematches 2 --budget 0   # streky-tournament
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
# One BLAS thread: on the busy 2-core machine a threaded BLAS spins against the other load (a
# 1,000-item solve took 0.36 s with its threads, 0.034 s with one), and the planner is serial.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import numpy as np  # noqa: E402

from harness.config import Awards, Job, Tier  # noqa: E402
from harness.record import GameRecord, PlayerRecord  # noqa: E402
from harness.sandbox.limits import Limits  # noqa: E402
from harness.submission import Submission  # noqa: E402
from harness.tournament.adaptive import Planner, round_robin_games  # noqa: E402
from harness.tournament.schedule import Entrant, Roll  # noqa: E402
from harness.tournament.rating import fit, shrunk  # noqa: E402
from harness.tournament.standings import competition_ranks, fit_ratings, standings, tally, tier_reach  # noqa: E402

TIERS = {
    "fractions": (Tier(3.0, top=0.1), Tier(2.0, top=0.2), Tier(1.0, top=0.4)),
    "ranks": tuple(Tier(float(6 - r), rank=r) for r in range(1, 6)),
}


def tier_of(rank: int, n: int, tiers: tuple[Tier, ...]) -> int:
    """The tier index a rank reaches (0 = best; len(tiers) = none)."""
    for t, tier in enumerate(sorted(tiers, key=lambda t: -t.points)):
        reach = tier.rank if tier.rank is not None else tier_reach(tier.top or 0, n)
        if rank <= reach:
            return t
    return len(tiers)


def tiers_by(values: list[float], tiers: tuple[Tier, ...]) -> list[int]:
    ranks = competition_ranks(values)
    return [tier_of(r, len(values), tiers) for r in ranks]


@dataclass
class World:
    """One seed's bots: their true strengths and tiers, and the double round robin on them."""

    strength: np.ndarray
    p: np.ndarray  # [a, b]: the chance that a, seated first, beats b
    first: np.ndarray  # [a, b]: a, seated first, beat b in the round robin (also the adaptive's first meeting)
    later: np.ndarray  # [k - 1, a, b]: a uniform draw; a, seated first, beats b at meeting k if it is under p
    truth: list[int]
    rr_tiers: list[int]
    rr_games: int


def world(n: int, seed: int, spread: float, tiers: tuple[Tier, ...], rematches: int = 8) -> World:
    """Bots of normal Elo strength (sd ``spread``) and their double round robin, ranked by wins.

    Every game either schedule could play is drawn here once (common random numbers): the
    adaptive schedule's first meeting of a pair is the round robin's two games of that pair, so
    the two are compared on the same luck, and two planners on the same seed see the same
    outcome for the same game."""
    rng = np.random.default_rng(seed)
    strength = rng.normal(1500, spread, n)
    truth = tiers_by(list(strength), tiers)
    diff = strength[:, None] - strength[None, :]
    p = 1 / (1 + 10 ** (-diff / 400))
    first = (rng.random((n, n)) < p).astype(float)  # [i, j]: i, seated first, beat j
    np.fill_diagonal(first, 0.0)
    score = first.sum(axis=1) + (n - 1) - first.sum(axis=0)  # its wins seated first and seated second
    later = rng.random((max(0, rematches - 1), n, n), dtype=np.float32)
    return World(strength, p, first, later, truth, tiers_by(list(score), tiers), n * (n - 1))


def simulate(w: World, seed: int, budget: float | None, tiers: tuple[Tier, ...], confidence: float,
             rematches: int = 8, ahead: int | None = None) -> dict[str, float]:
    """The adaptive schedule on ``w``'s bots (the same Bradley-Terry model as its round robin)."""
    n = len(w.strength)
    p, truth, rr_tiers, rr_games = w.p, w.truth, w.rr_tiers, w.rr_games
    entrants = [Entrant(f"b{i:04d}", f"/sim/b{i:04d}", make_submission(f"b{i:04d}")) for i in range(n)]
    job = Job(name="sim", game="streky", format="adaptive", submissions=(), reference=(), opponent=None,
              settings=({"cards": "course"},), games=rematches, seed=seed, tournament=True, limits=Limits(),
              workers=1, awards=Awards("tiers", tiers=tiers), results=Path("/nonexistent"),
              confidence=confidence, budget=None if budget is None else round(budget * rr_games))
    roll = Roll(entrants, None)
    planner = Planner(job, roll)
    planner.ahead = ahead or planner.ahead  # --ahead 1: each wave chosen from every wave before it
    at = {e.login: i for i, e in enumerate(entrants)}
    stored: dict[str, GameRecord] = {}

    def lookup(keys: list[str]) -> dict[str, GameRecord]:
        return {k: stored[k] for k in keys if k in stored}

    started = time.perf_counter()
    progress = None
    for progress in planner.walk(lookup):
        for task in progress.pending:
            a, b = (at[e.login] for e in task.entrants)
            meeting = task.seed - job.seed  # one settings set: the k-th meeting plays on seed + k
            won = w.first[a, b] > 0 if meeting == 0 else w.later[meeting - 1, a, b] < p[a, b]
            winner = 0 if won else 1
            stored[task.key] = GameRecord(game="streky", settings=task.settings, seed=task.seed,
                                          players=[PlayerRecord(e.login, e.sha256) for e in task.entrants],
                                          winner=winner, scores=(1.0 - winner, float(winner)),
                                          places=(1 + winner, 2 - winner))
    elapsed = time.perf_counter() - started
    assert progress is not None
    # The adaptive standings as the leaderboard ranks them (the prior's fit), and the plain
    # maximum-likelihood fit on the same games.
    records = [stored[k] for k in sorted(progress.keys)]
    board = {r.login: r for r in standings(job.awards, entrants, records, by_rating=True, confidence=confidence)}
    ad_tiers = tiers_by([board[e.login].rating or 0.0 for e in entrants], tiers)
    rows = tally(entrants, records)
    fit_ratings(rows, records, confidence)
    mle_tiers = tiers_by([rows[e.login].rating or 0.0 for e in entrants], tiers)
    return {"mle_accuracy": float(np.mean(np.array(mle_tiers) == np.array(truth))),
            "mle_far": int(np.sum(np.abs(np.array(mle_tiers) - np.array(truth)) >= 2)),
            "rr_fit_accuracy": rr_by_fit(w, tiers),"rr_accuracy": float(np.mean(np.array(rr_tiers) == np.array(truth))),
            "ad_accuracy": float(np.mean(np.array(ad_tiers) == np.array(truth))),
            "rr_far": int(np.sum(np.abs(np.array(rr_tiers) - np.array(truth)) >= 2)),
            "ad_far": int(np.sum(np.abs(np.array(ad_tiers) - np.array(truth)) >= 2)),
            "games": progress.games, "rr_games": rr_games, "waves": progress.waves,
            "stopped": progress.stopped, "seconds": elapsed, "full": round_robin_games(job, roll),
            "unsettled": len(progress.unsettled)}


def rr_by_fit(w: World, tiers: tuple[Tier, ...]) -> float:
    """The double round robin's tier accuracy when ranked by the adaptive standings' fit (the
    prior's) instead of by wins."""
    n = len(w.strength)
    winners, losers = np.nonzero(w.first)  # seated first and won
    second_won = np.nonzero((1 - w.first) - np.eye(n))  # seated first and lost
    races = [(int(a), int(b)) for a, b in zip(winners, losers)] + [(int(b), int(a)) for a, b in zip(*second_won)]
    anchored = races + [(i, n) for i in range(n)] + [(n, i) for i in range(n)]
    theta, variance = fit(anchored, [1.0] * len(races) + [0.5] * 2 * n, n)
    theta, _, _ = shrunk(races, [1.0] * len(races), n, theta, variance)
    return float(np.mean(np.array(tiers_by(list(theta), tiers)) == np.array(w.truth)))


def make_submission(login: str) -> Submission:
    return Submission({"player.py": f"# {login}\n".encode()}, origin=login)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bots", type=int, default=300)
    ap.add_argument("--seeds", type=int, default=3)
    ap.add_argument("--first-seed", type=int, default=1)
    ap.add_argument("--spread", type=float, default=200.0, help="sd of the true Elo strengths")
    ap.add_argument("--budget", default="0.15",
                    help="share of the double round robin (0: none); several, comma-separated, give a curve")
    ap.add_argument("--confidence", type=float, default=0.95)
    ap.add_argument("--rematches", type=int, default=8,
                    help="the adaptive job's games (seeds) per pair and settings: how often a pair may meet")
    ap.add_argument("--tiers", choices=sorted(TIERS), default="fractions")
    ap.add_argument("--ahead", type=int, help="waves planned ahead of the results (default: the planner's)")
    args = ap.parse_args()
    budgets = [float(b) for b in args.budget.split(",")]
    results: dict[float, list[dict[str, float]]] = {b: [] for b in budgets}
    seeds = range(args.first_seed, args.first_seed + args.seeds)
    for seed in seeds:
        w = world(args.bots, seed, args.spread, TIERS[args.tiers], args.rematches)
        for budget in budgets:
            r = simulate(w, seed, budget or None, TIERS[args.tiers], args.confidence, args.rematches, args.ahead)
            results[budget].append(r)
            print(f"seed {seed}: round robin {r['rr_games']} games, accuracy {100 * r['rr_accuracy']:.1f} %, "
                  f"two tiers off {r['rr_far']} | adaptive {r['games']} games "
                  f"({100 * r['games'] / r['rr_games']:.1f} %), {r['waves']} waves, stopped: {r['stopped']}, "
                  f"accuracy {100 * r['ad_accuracy']:.1f} % (maximum likelihood {100 * r['mle_accuracy']:.1f} %), "
                  f"two tiers off {r['ad_far']} (maximum likelihood {r['mle_far']}), "
                  f"planner {r['seconds']:.1f} s", flush=True)
    for budget in budgets:
        rs = results[budget]
        rr = statistics.mean(r["rr_accuracy"] for r in rs)
        ad = statistics.mean(r["ad_accuracy"] for r in rs)
        diffs = [100 * (r["ad_accuracy"] - r["rr_accuracy"]) for r in rs]
        error = statistics.stdev(diffs) / len(diffs) ** 0.5 if len(diffs) > 1 else float("nan")
        share = statistics.mean(r["games"] / r["rr_games"] for r in rs)
        mle = statistics.mean(r["mle_accuracy"] for r in rs)
        rr_fit = statistics.mean(r["rr_fit_accuracy"] for r in rs)
        print(f"{args.bots} bots, seeds {seeds.start}-{seeds.stop - 1}, tiers {args.tiers}, budget {budget:g}: "
              f"round robin accuracy {100 * rr:.1f} %, adaptive {100 * ad:.1f} % ({100 * (ad - rr):+.1f} points, "
              f"standard error {error:.1f}) "
              f"with {100 * share:.1f} % of the games; bots two tiers off: round robin "
              f"{sum(r['rr_far'] for r in rs)}, adaptive {sum(r['ad_far'] for r in rs)}; ranked by maximum likelihood "
              f"the adaptive scores {100 * mle:.1f} %, ranked by the adaptive standings' fit the round robin "
              f"scores {100 * rr_fit:.1f} %")


if __name__ == "__main__":
    main()
