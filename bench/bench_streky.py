"""Speed of Štreky's referee: legal-placement enumeration, check, apply, and whole random games.

    python bench/bench_streky.py [--reps 50]

The enumeration is timed on positions of a seeded random game on the tournament setting
(33x33, 24 fully coloured 4x4 and 3x5 cards) at several plies: building the player's
``Placements`` from scratch (what the forced-move rule and ``legal_moves`` cost), and turning
it into a list of ``Place`` objects (what a caller that wants every object pays). Target: the
enumeration well under 50 ms.
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

from harness.games.streky.placements import PASS
from harness.games.streky.rules import RULES, State

PLIES = (0, 1, 4, 8, 16, 24, 32, 40)


def median_ms(fn: Callable[[], Any], reps: int) -> float:
    times = []
    for _ in range(reps):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def fresh(state: State) -> State:
    state._cache.clear()  # the benchmark's only use of the cache: time the work, not the lookup
    return state


def positions(settings: dict[str, Any], seed: int) -> dict[int, State]:
    """The states of one seeded random game at the plies in PLIES (those it reaches)."""
    state = RULES.initial(RULES.parse_settings(settings), random.Random(seed))
    rng = random.Random(seed)
    found = {}
    ply = 0
    while not RULES.is_over(state):
        if ply in PLIES:
            found[ply] = state
        moves = RULES.legal_moves(state)
        state = RULES.apply(state, moves[rng.randrange(len(moves))])
        ply += 1
    return found


def game_time(settings: dict[str, Any], seed: int) -> tuple[float, int]:
    """Seconds for one random game through the referee (legal_moves, check, apply each ply)."""
    start = time.perf_counter()
    state = RULES.initial(RULES.parse_settings(settings), random.Random(seed))
    rng = random.Random(seed)
    plies = 0
    while not RULES.is_over(state):
        moves = RULES.legal_moves(state)
        move = moves[rng.randrange(len(moves))]
        if RULES.check(state, move) is not None:
            raise RuntimeError("a listed move was refused")
        state = RULES.apply(state, move)
        plies += 1
    return time.perf_counter() - start, plies


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=50)
    args = parser.parse_args()
    reps = args.reps
    print("Tournament setting (33x33, 24 cards), seeded random game, medians over", reps, "runs:")
    print(f"{'ply':>4} {'cards':>5} {'placements':>10} {'enumerate ms':>13} {'as list ms':>11} "
          f"{'check ms':>9} {'pass check ms':>14} {'apply ms':>9}")
    for ply, state in positions({"cards": "tournament"}, 1).items():
        player = RULES.to_move(state)
        count = len(fresh(state).placements(player))
        moves = RULES.legal_moves(state)
        move = moves[len(moves) // 2]
        enum = median_ms(lambda s=state, p=player: fresh(s).placements(p), reps)
        as_list = median_ms(lambda s=state, p=player: list(fresh(s).placements(p)), max(3, reps // 10))
        check = median_ms(lambda s=state, m=move: RULES.check(s, m), reps)
        pass_check = median_ms(lambda s=state: RULES.check(fresh(s), PASS), reps)
        apply = median_ms(lambda s=state, m=move: RULES.apply(s, m), reps)
        print(f"{ply:>4} {len(state.placed):>5} {count:>10} {enum:>13.3f} {as_list:>11.2f} "
              f"{check:>9.3f} {pass_check:>14.3f} {apply:>9.3f}")
    for name, settings in (("tournament 33x33", {"cards": "tournament"}), ("course 19x23 (default)", {}),
                           ("random deals", {"cards": "random"})):
        runs = [game_time(settings, seed) for seed in range(20)]
        per_game = statistics.median(t for t, _ in runs) * 1000
        plies = statistics.median(p for _, p in runs)
        print(f"whole random game, {name}: median {per_game:.1f} ms for a median of {plies:g} plies "
              f"(legal_moves + check + apply each ply)")


if __name__ == "__main__":
    main()
