"""Blokovanie: the referee's speed, the strong player's strength, and the seed's analysis.

    python bench/bench_blokovanie.py [--seeds 5] [--analysis-games 100] [--skip-analysis]

1. Referee speed on a few board sizes: ``legal_moves``, ``check`` and ``apply`` per second on
   positions from random playouts, and whole random playouts per second.
2. Perfect play: which seat wins each empty board (strong's exact solver, Sprague-Grundy
   values), the answer to the seed's question "does the first or the second player have the
   advantage" for players without mistakes.
3. Strength of ``strong`` against ``max_block``, ``random`` and ``first_free``: every board
   size in both seats (``seeds`` games each where the opponent is random), in-process through
   the real wire encoding, adapter and referee (harness.inprocess), without the sandbox, so
   the per-move times are the bots' own compute (the limit is 1 s per move).
4. The seed's ``analyze_game()``: for each pair of the seed's strategies (first free, random,
   max block) and a few sizes, how often the first and the second player won.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from harness.games.base import import_bot
from harness.games.blokovanie import GAME
from harness.games.blokovanie.rules import RULES, State
from harness.inprocess import load_class, play
from harness.record import Verdict

REFERENCE = ROOT / "reference_players" / "blokovanie"
SPEED_SIZES = [(5, 6), (10, 10), (30, 30), (50, 50)]
STRENGTH_SIZES = [(r, c) for r in range(2, 8) for c in range(r, 9)] + [(8, 8), (9, 9), (9, 12), (12, 12),
                                                                         (15, 20), (30, 30)]
ANALYSIS_SIZES = [(3, 3), (4, 4), (5, 6), (6, 6), (7, 9), (10, 10)]
SEED_STRATEGIES = ["first_free", "random", "max_block"]


def positions(rows: int, cols: int, count: int, rng: random.Random) -> list[State]:
    """``count`` positions taken from random playouts (each game sampled at every ply)."""
    out: list[State] = []
    while len(out) < count:
        state = RULES.initial(RULES.parse_settings({"rows": rows, "cols": cols}), rng)
        while not RULES.is_over(state) and len(out) < count:
            out.append(state)
            state = RULES.apply(state, rng.choice(list(RULES.legal_moves(state))))
    return out


def rate(fn: Callable[[], object], seconds: float = 0.3, batch: int = 50) -> float:
    """Calls of ``fn`` per second, over about ``seconds`` (timed in batches of ``batch`` calls)."""
    calls, start = 0, time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        for _ in range(batch):
            fn()
        calls += batch
    return calls / elapsed


def referee_speed() -> None:
    print("1. Referee speed (calls per second; positions from random playouts)")
    print(f"   {'board':>7} {'legal_moves':>12} {'check':>10} {'apply':>10} {'playouts':>9}")
    rng = random.Random(1)
    for rows, cols in SPEED_SIZES:
        states = positions(rows, cols, 200, rng)
        moves = [(s, rng.choice(list(RULES.legal_moves(s)))) for s in states]
        it = iter(range(10**12))

        def legal() -> object:
            return RULES.legal_moves(states[next(it) % len(states)])

        def check() -> object:
            s, m = moves[next(it) % len(moves)]
            return RULES.check(s, m)

        def apply() -> object:
            s, m = moves[next(it) % len(moves)]
            return RULES.apply(s, m)

        def playout() -> object:
            state = RULES.initial({"rows": rows, "cols": cols}, rng)
            while not RULES.is_over(state):
                state = RULES.apply(state, rng.choice(list(RULES.legal_moves(state))))
            return state

        print(f"   {rows:>3}x{cols:<3} {rate(legal):>12,.0f} {rate(check):>10,.0f} {rate(apply):>10,.0f} "
              f"{rate(playout, 0.5, 1):>9,.1f}")


_SOLVER: list[object] = []


def first_wins(rows: int, cols: int) -> bool | None:
    """Does the first player win the empty board with perfect play (``None``: not computed)?"""
    if rows % 2 and cols % 2:
        return True  # the centre, then mirror moves
    if rows * cols > 49:
        return None
    if not _SOLVER:
        _SOLVER.append(import_bot(REFERENCE / "strong.py", None).Solver())
    solver: Any = _SOLVER[0]
    grid = solver.grid(rows, cols)
    return solver.position(grid, grid.full) != 0


def perfect_play() -> None:
    print("\n2. Perfect play on the empty board: the seat that wins (1 = first, 2 = second) and the "
          "board's Grundy value")
    first_wins(1, 2)
    solver: Any = _SOLVER[0]
    limit = 7
    print("   rows\\cols " + "".join(f"{c:>7}" for c in range(1, limit + 2)))
    for rows in range(1, limit + 1):
        cells = []
        for cols in range(1, limit + 2):
            if rows * cols > 49:
                cells.append(f"{'?':>7}")
                continue
            grid = solver.grid(rows, cols)
            value = solver.position(grid, grid.full)
            cells.append(f"{('1' if value else '2') + ' (' + str(value) + ')':>7}")
        print(f"   {rows:>9} " + "".join(cells))
    print("   (odd x odd boards are first-player wins at any size: the centre, then mirror moves)")


def strength(seeds: int) -> None:
    print(f"\n3. Strength of strong: every size of {len(STRENGTH_SIZES)} (2x2 .. 30x30) in both seats")
    strong = load_class(GAME, REFERENCE / "strong.py")
    for name in ("max_block", "random", "first_free"):
        other = load_class(GAME, REFERENCE / f"{name}.py")
        n_seeds = seeds if name == "random" else 1
        won = played = 0
        slowest = 0.0
        lost: list[str] = []
        excused = 0  # losses on a seat that loses against perfect play
        start = time.perf_counter()
        for rows, cols in STRENGTH_SIZES:
            for seat in (0, 1):
                for seed in range(n_seeds):
                    classes = [strong, other] if seat == 0 else [other, strong]
                    result = play(GAME, classes, {"rows": rows, "cols": cols}, seed=seed)
                    if result.verdicts != [Verdict.OK, Verdict.OK]:
                        raise SystemExit(f"{rows}x{cols} seed {seed}: {result.verdicts} {result.reasons}")
                    won += result.winner == seat
                    played += 1
                    slowest = max(slowest, result.max_move[seat])
                    if result.winner != seat:
                        lost.append(f"{rows}x{cols} as {'first' if seat == 0 else 'second'}")
                        excused += first_wins(rows, cols) == (seat == 1)
        elapsed = time.perf_counter() - start
        print(f"   vs {name:<10} {won:>4} / {played:<4} won ({won / played:6.1%}); slowest move {slowest:.3f} s; "
              f"{elapsed:.0f} s")
        if lost:
            shown = ", ".join(sorted(set(lost), key=lost.index)[:12])
            print(f"      lost: {shown}{' ...' if len(set(lost)) > 12 else ''}")
            print(f"      {excused} of the {len(lost)} losses are on a seat that loses against perfect play")


def analysis(games: int) -> None:
    print(f"\n4. The seed's analyze_game(): {games} games per pair and size (wins of the first : second player)")
    classes = {n: load_class(GAME, REFERENCE / f"{n}.py") for n in SEED_STRATEGIES}
    print(f"   {'first vs second':<24}" + "".join(f"{f'{r}x{c}':>12}" for r, c in ANALYSIS_SIZES))
    for a in SEED_STRATEGIES:
        for b in SEED_STRATEGIES:
            deterministic = "random" not in (a, b)
            n = 1 if deterministic else games
            cells = []
            for rows, cols in ANALYSIS_SIZES:
                first = sum(play(GAME, [classes[a], classes[b]], {"rows": rows, "cols": cols}, seed=s).winner == 0
                            for s in range(n))
                cells.append(f"{f'{first}:{n - first}':>12}")
            print(f"   {a + ' vs ' + b:<24}" + "".join(cells))
    print("   (first_free and max_block are deterministic: one game each)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=5, help="games per size and seat against random")
    parser.add_argument("--analysis-games", type=int, default=100, help="games per pair and size (random pairs)")
    parser.add_argument("--skip-analysis", action="store_true", help="leave out the seed's analysis")
    args = parser.parse_args()
    referee_speed()
    perfect_play()
    strength(args.seeds)
    if not args.skip_analysis:
        analysis(args.analysis_games)


if __name__ == "__main__":
    main()
