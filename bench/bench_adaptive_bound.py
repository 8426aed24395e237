"""How few games an ideal adaptive schedule could need: a yardstick for ``bench_adaptive.py``.

The same bots as ``bench_adaptive.py`` (normal Elo strengths, sd ``--spread``; top 10 / 20 / 40 %
tiers; Bradley-Terry games, no draws), but each student is settled by the Bayes-optimal
sequential test under idealised conditions no real schedule has:

* the tier boundaries' true strengths are known, and every game of a student is against an
  opponent of exactly its nearest boundary's strength (the most telling game for its tier);
* every game counts for two students (both players are students being tested);
* the prior over a student's distance to its boundary is the true one (``--worlds`` draws).

For a cost ``lambda`` per game, backward induction over (games, wins) gives the rule that
minimises expected wrong tiers + ``lambda`` x games; the table prints its tier accuracy and games
(as a share of the double round robin's) for a few costs. A real schedule estimates the
boundaries and the opponents' strengths from the games themselves, so it needs more games than
this for the same accuracy.

With ``--seeds`` the same rule is also scored on ``bench_adaptive.py``'s own bots (its seeds'
strengths, each student at its true distance from its nearest boundary), beside their double
round robin's accuracy: the like-for-like yardstick for that bench's figures. The rule itself
(its prior) is the same for every seed.

    python bench/bench_adaptive_bound.py --bots 300
    python bench/bench_adaptive_bound.py --bots 300 --seeds 12 --costs 0.0008,0.0009,0.001
"""

from __future__ import annotations

import argparse
import math
import os
import sys
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np  # noqa: E402

TOPS = (0.1, 0.2, 0.4)
ELO = 400 / math.log(10)


def prior(bots: int, worlds: int, spread: float, seed: int) -> np.ndarray:
    """Each student's chance to beat an opponent of its nearest boundary's strength, over ``worlds`` draws."""
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(worlds):
        s = np.sort(rng.normal(1500, spread, bots))[::-1]
        cuts = np.array([(s[k - 1] + s[k]) / 2 for k in (math.ceil(t * bots - 1e-9) for t in TOPS)])
        nearest = cuts[np.argmin(np.abs(s[:, None] - cuts[None, :]), axis=1)]
        out.append(1 / (1 + np.exp(-(s - nearest) / ELO)))
    return np.concatenate(out)


def beliefs(p: np.ndarray, most: int) -> list[tuple[np.ndarray, np.ndarray]]:
    """For each number of games ``k`` and wins ``w``: P(the student is above its boundary) and
    P(it wins the next game), given the prior points ``p`` (equally likely)."""
    lp, lq, above = np.log(p), np.log1p(-p), p > 0.5
    out = []
    for k in range(most + 1):
        w = np.arange(k + 1)
        log = w[:, None] * lp[None, :] + (k - w)[:, None] * lq[None, :]
        post = np.exp(log - log.max(axis=1, keepdims=True))
        post /= post.sum(axis=1, keepdims=True)
        out.append(((post * above).sum(axis=1), (post * p).sum(axis=1)))
    return out


def optimum(table: list[tuple[np.ndarray, np.ndarray]], cost: float) -> tuple[float, float]:
    """Expected wrong tiers and games (half a game per student's game) of the optimal rule, per student."""
    value = errors = games = None
    for k in range(len(table) - 1, -1, -1):
        above, win = table[k]
        stop = np.minimum(above, 1 - above)
        if value is None:
            value, errors, games = stop, stop, np.zeros_like(stop)
            continue
        go_on = cost / 2 + win * value[1:] + (1 - win) * value[:-1]
        play = go_on < stop
        value = np.where(play, go_on, stop)
        errors = np.where(play, win * errors[1:] + (1 - win) * errors[:-1], stop)
        games = np.where(play, 0.5 + win * games[1:] + (1 - win) * games[:-1], 0.0)
    assert errors is not None and games is not None
    return float(errors[0]), float(games[0])


def rule(table: list[tuple[np.ndarray, np.ndarray]], cost: float) -> list[np.ndarray]:
    """The optimal rule for ``cost``: for ``k`` games and each number of wins, whether to play on."""
    play: list[np.ndarray] = []
    value = None
    for k in range(len(table) - 1, -1, -1):
        above, win = table[k]
        stop = np.minimum(above, 1 - above)
        if value is None:
            value, keep = stop, np.zeros(len(stop), dtype=bool)
        else:
            go_on = cost / 2 + win * value[1:] + (1 - win) * value[:-1]
            keep = go_on < stop
            value = np.where(keep, go_on, stop)
        play.append(keep)
    return play[::-1]


def by_distance(table: list[tuple[np.ndarray, np.ndarray]], play: list[np.ndarray], distances: np.ndarray
                ) -> tuple[np.ndarray, np.ndarray]:
    """For a student at each (signed, Elo) distance from its boundary: the rule's chance to put it
    on the wrong side, and its expected games (its own, each also a game of its opponent's)."""
    errors, games = [], []
    for d in distances:
        win = 1 / (1 + math.exp(-d / ELO))
        reach = np.array([1.0])  # the chance of each number of wins after k games, still playing
        wrong = played = 0.0
        for k, keep in enumerate(play[:-1]):
            going = reach * keep
            stopped = reach - going
            above = table[k][0]
            wrong += float(stopped @ np.where(above == 0.5, 0.5, (above < 0.5) if d > 0 else (above > 0.5)))
            played += float(going.sum())
            reach = np.zeros(k + 2)
            reach[1:] += going * win
            reach[:-1] += going * (1 - win)
            if reach.sum() < 1e-7:
                break
        errors.append(wrong + 0.5 * float(reach.sum()))  # (out of games: a coin flip)
        games.append(played)
    return np.array(errors), np.array(games)


def on_bench_bots(table: list[tuple[np.ndarray, np.ndarray]], cost: float, bots: int, spread: float,
                  seeds: range) -> tuple[list[float], list[float], list[float]]:
    """The rule's tier accuracy and games (share of the double round robin's) on the bots of
    ``bench_adaptive.py``'s seeds, and that bench's round robin accuracy on them."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from bench_adaptive import TIERS, world  # noqa: PLC0415 - the other bench, for its bots

    grid = np.concatenate([-np.geomspace(400, 0.5, 40), np.geomspace(0.5, 400, 40)])
    errors, games = by_distance(table, rule(table, cost), grid)
    accuracy, shares, round_robin = [], [], []
    for seed in seeds:
        w = world(bots, seed, spread, TIERS["fractions"], rematches=1)
        ordered = np.sort(w.strength)[::-1]
        cuts = np.array([(ordered[k - 1] + ordered[k]) / 2 for k in (math.ceil(t * bots - 1e-9) for t in TOPS)])
        distance = w.strength - cuts[np.argmin(np.abs(w.strength[:, None] - cuts[None, :]), axis=1)]
        distance = np.clip(distance, grid[0], grid[-1])
        accuracy.append(1 - float(np.interp(distance, grid, errors).mean()))
        shares.append(float(np.interp(distance, grid, games).sum()) / 2 / (bots * (bots - 1)))
        round_robin.append(float(np.mean(np.array(w.rr_tiers) == np.array(w.truth))))
    return accuracy, shares, round_robin


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bots", type=int, default=300)
    ap.add_argument("--spread", type=float, default=200.0)
    ap.add_argument("--worlds", type=int, default=6)
    ap.add_argument("--most", type=int, default=1200, help="most games of one student")
    ap.add_argument("--costs", default="0.0005,0.00075,0.001,0.0015,0.002")
    ap.add_argument("--seeds", type=int, default=0, help="also score the rule on bench_adaptive.py's seeds 1..N")
    args = ap.parse_args()
    table = beliefs(prior(args.bots, args.worlds, args.spread, 1), args.most)
    drr = args.bots * (args.bots - 1)
    for cost in (float(c) for c in args.costs.split(",")):
        errors, games = optimum(table, cost)
        print(f"cost {cost:g}: tier accuracy {100 * (1 - errors):.1f} % with {100 * games * args.bots / drr:.1f} % "
              f"of the double round robin's games ({games * args.bots:.0f} of {drr})", flush=True)
        if args.seeds:
            accuracy, shares, round_robin = on_bench_bots(table, cost, args.bots, args.spread, range(1, args.seeds + 1))
            print(f"  on bench_adaptive.py's bots, seeds 1-{args.seeds}: tier accuracy {100 * np.mean(accuracy):.1f} % "
                  f"(seeds {min(accuracy) * 100:.1f}-{max(accuracy) * 100:.1f}) with {100 * np.mean(shares):.1f} % of "
                  f"the games; their double round robin {100 * np.mean(round_robin):.1f} %", flush=True)


if __name__ == "__main__":
    main()
