"""Strength of the Štreky reference players: win rates over seeded games, played in-process.

    python bench/bench_streky_strength.py [--games 240] [--a strong] [--b brute]

Games alternate between the course setting (19x23), random deals and the tournament setting
(33x33), each deal played twice with the seats swapped. The bots run in this process through
the real wire encoding, adapter and referee (harness.inprocess), without the sandbox,
so the per-move times printed are the bots' own compute (the limit is 1 s per move).
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from harness.games.streky import GAME
from harness.inprocess import load_class, play
from harness.record import Verdict

SETTINGS = [("course", {}), ("random", {"cards": "random"}), ("tournament", {"cards": "tournament"})]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=240, help="games in all (default 240)")
    parser.add_argument("--a", default="strong", help="reference player measured (default strong)")
    parser.add_argument("--b", default="brute", help="its opponent (default brute)")
    args = parser.parse_args()
    a = load_class(GAME, ROOT / "reference_players" / "streky" / f"{args.a}.py")
    b = load_class(GAME, ROOT / "reference_players" / "streky" / f"{args.b}.py")
    tally = {name: [0, 0, 0] for name, _ in SETTINGS}  # a wins, b wins, draws
    slowest = [0.0, 0.0]
    start = time.perf_counter()
    for game in range(args.games):
        deal, seat_a = game // 2, game % 2
        name, settings = SETTINGS[deal % len(SETTINGS)]
        players = [a, b] if seat_a == 0 else [b, a]
        result = play(GAME, players, settings, seed=deal)
        if result.verdicts != [Verdict.OK, Verdict.OK]:
            raise SystemExit(f"game {game}: {result.verdicts} {result.reasons}")
        winner = result.winner
        tally[name][2 if winner is None else (0 if winner == seat_a else 1)] += 1
        slowest[0] = max(slowest[0], result.max_move[seat_a])
        slowest[1] = max(slowest[1], result.max_move[1 - seat_a])
    elapsed = time.perf_counter() - start
    total = [sum(t[i] for t in tally.values()) for i in range(3)]
    print(f"{args.a} vs {args.b}: {args.games} games in {elapsed:.0f} s")
    for name, (wins, losses, draws) in tally.items():
        n = wins + losses + draws
        if n:
            print(f"  {name:<10} {wins:>4} wins {losses:>4} losses {draws:>3} draws  "
                  f"score {(wins + draws / 2) / n:6.1%}")
    n = sum(total)
    rate = (total[0] + total[2] / 2) / n
    half = 1.96 * math.sqrt(rate * (1 - rate) / n)
    print(f"  {'all':<10} {total[0]:>4} wins {total[1]:>4} losses {total[2]:>3} draws  score {rate:6.1%} "
          f"(95% interval {rate - half:.1%} .. {rate + half:.1%})")
    print(f"  slowest move: {args.a} {slowest[0] * 1000:.0f} ms, {args.b} {slowest[1] * 1000:.0f} ms")


if __name__ == "__main__":
    main()
