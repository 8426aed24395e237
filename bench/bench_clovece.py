"""Speed of the Človeče referee, its bot interface, and the strategies' strength.

    python bench/bench_clovece.py [--playouts 300] [--games 40]

1. Random playouts through the referee alone (legal_moves + check + apply per decision):
   games and decisions per second, decisions per game.
2. ``legal_moves``, ``check`` and ``apply`` on positions taken from those games (median µs).
3. In-process games of the four reference players through the real wire encoding and adapter
   (:func:`harness.inprocess.play`): ms per game and µs per decision, and the seed's
   ``find_best_strategy`` over the same games (seats shuffled; harness.inprocess.shuffled_wins).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from harness.games.clovece.rules import RULES, State  # noqa: E402
from harness.games.clovece import GAME  # noqa: E402
from harness.inprocess import load_class, shuffled_wins  # noqa: E402


def playouts(n: int) -> tuple[float, int, list[State]]:
    """``n`` random games: seconds, decisions, and every 25th position seen."""
    settings = RULES.parse_settings({})
    decisions, sample = 0, []
    t0 = time.perf_counter()
    for seed in range(n):
        rng = random.Random(seed)
        state = RULES.initial(settings, random.Random(seed))
        while not RULES.is_over(state):
            moves = RULES.legal_moves(state)
            move = moves[rng.randrange(len(moves))]
            if RULES.check(state, move) is not None:
                raise AssertionError("a listed move is refused")
            if decisions % 25 == 0:
                sample.append(state)
            state = RULES.apply(state, move)
            decisions += 1
    return time.perf_counter() - t0, decisions, sample


def median_us(fn: Callable[[State], Any], states: list[State], repeat: int = 20) -> float:
    """The median over ``states`` of the best of ``repeat`` timings of ``fn(state)``, in µs."""
    times = []
    for state in states:
        best = float("inf")
        for _ in range(repeat):
            t0 = time.perf_counter()
            fn(state)
            best = min(best, time.perf_counter() - t0)
        times.append(best)
    return statistics.median(times) * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--playouts", type=int, default=300)
    parser.add_argument("--games", type=int, default=40)
    args = parser.parse_args()

    seconds, decisions, sample = playouts(args.playouts)
    print(f"referee playouts: {args.playouts} games, {decisions} decisions in {seconds:.2f} s: "
          f"{args.playouts / seconds:.0f} games/s, {decisions / seconds:.0f} decisions/s, "
          f"{decisions / args.playouts:.0f} decisions/game")
    print(f"legal_moves: {median_us(RULES.legal_moves, sample):.1f} µs   "
          f"check: {median_us(lambda s: RULES.check(s, RULES.legal_moves(s)[0]), sample):.1f} µs (with legal_moves)   "
          f"apply: {median_us(lambda s: RULES.apply(s, RULES.legal_moves(s)[0]), sample):.1f} µs (with legal_moves)"
          f"   [{len(sample)} positions]")

    names = ("random", "safe", "mean", "eager")
    types = [(n, load_class(GAME, GAME.reference_dir / f"{n}.py")) for n in names]
    t0 = time.perf_counter()
    wins = shuffled_wins(GAME, types, args.games, seed=0)
    best = max(wins, key=lambda n: wins[n])
    seconds = time.perf_counter() - t0
    print(f"in-process games of the reference players (wire + adapter + referee): {args.games} games in "
          f"{seconds:.2f} s, {seconds / args.games * 1e3:.0f} ms/game")
    share = ", ".join(f"{n} {wins[n]:g} ({wins[n] / args.games:.0%})" for n in names)
    print(f"find_best_strategy, seats shuffled: best {best}; wins: {share}")


if __name__ == "__main__":
    main()
