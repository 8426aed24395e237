"""Strength of the Quoridor reference players: seeded games in-process, both seatings.

    python bench/bench_quoridor_strength.py [--games 240] [--pairs waller:runner,...]

Each pair plays ``games`` games: game ``i`` uses seed ``i // 2`` with the seats swapped for odd
``i``, so every start position (random start columns, 0-6 random initial walls, 9x9, 10 walls
each) is played from both seats. The referee judges every move (an illegal or bad answer loses
the game and is reported). Bots run in this process (no sandbox), through the real wire
encoding; the figures include the slowest turn of each bot.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from harness.games.quoridor import GAME
from harness.inprocess import load_class, play

REFERENCE = Path(__file__).resolve().parents[1] / "reference_players" / "quoridor"


def settings_for(seed: int) -> dict[str, object]:
    return {"start_columns": "random", "initial_walls": {"random": seed % 7}}


def match(a: str, b: str, games: int) -> dict[str, float]:
    classes = {n: load_class(GAME, REFERENCE / f"{n}.py") for n in (a, b)}
    wins = {a: 0, b: 0}
    draws = failures = plies = 0
    slowest = {a: 0.0, b: 0.0}
    for i in range(games):
        seed = i // 2
        seats = (a, b) if i % 2 == 0 else (b, a)
        game = play(GAME, [classes[seats[0]], classes[seats[1]]], settings_for(seed), seed=seed, logins=seats)
        if game.failed is not None:
            failures += 1
            print(f"  game {i}: {seats[game.failed]} failed: {game.reason}")
        winner = game.winner
        if winner is None:
            draws += 1
        else:
            wins[seats[winner]] += 1
        plies += game.state.ply
        for seat, name in enumerate(seats):
            slowest[name] = max(slowest[name], max(game.think[seat], default=0.0))
    return {"wins_a": wins[a], "wins_b": wins[b], "draws": draws, "failures": failures,
            "plies": plies / games, "slow_a": slowest[a], "slow_b": slowest[b]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=240, help="games per pair (even: both seatings)")
    parser.add_argument("--pairs", default="waller:runner,waller:random_legal,runner:random_legal")
    args = parser.parse_args()
    for pair in args.pairs.split(","):
        a, b = pair.split(":")
        t0 = time.perf_counter()
        r = match(a, b, args.games)
        dt = time.perf_counter() - t0
        print(f"{a} vs {b}: {args.games} games, {a} won {r['wins_a']} ({100 * r['wins_a'] / args.games:.1f} %), "
              f"{b} won {r['wins_b']}, draws/nobody {r['draws']}, bad or illegal moves {r['failures']}; "
              f"{r['plies']:.1f} plies/game; slowest turn {a} {r['slow_a'] * 1e3:.0f} ms, "
              f"{b} {r['slow_b'] * 1e3:.0f} ms; {dt:.1f} s")


if __name__ == "__main__":
    main()
