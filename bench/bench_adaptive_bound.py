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
this for the same accuracy; compare the double round robin's accuracy from ``bench_adaptive.py``
on the same bots (93.2 % for 300 bots, sd 200, seeds 1-3).

    python bench/bench_adaptive_bound.py --bots 300
"""

from __future__ import annotations

import argparse
import math
import os

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


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bots", type=int, default=300)
    ap.add_argument("--spread", type=float, default=200.0)
    ap.add_argument("--worlds", type=int, default=6)
    ap.add_argument("--most", type=int, default=1200, help="most games of one student")
    ap.add_argument("--costs", default="0.0005,0.00075,0.001,0.0015,0.002")
    args = ap.parse_args()
    table = beliefs(prior(args.bots, args.worlds, args.spread, 1), args.most)
    drr = args.bots * (args.bots - 1)
    for cost in (float(c) for c in args.costs.split(",")):
        errors, games = optimum(table, cost)
        print(f"cost {cost:g}: tier accuracy {100 * (1 - errors):.1f} % with {100 * games * args.bots / drr:.1f} % "
              f"of the double round robin's games ({games * args.bots:.0f} of {drr})", flush=True)


if __name__ == "__main__":
    main()
