"""Speed of the Quoridor referee: legal-wall enumeration and whole playouts.

    python bench/bench_quoridor.py [--positions 60]

1. All legal walls of a 15x15 board with 30 walls (seeded random positions, pawns anywhere
   legal): the referee's enumeration (one shortest path per player; only walls touching it get
   a flood fill) next to the same enumeration with a flood fill for every candidate. Target:
   under 20 ms.
2. ``legal_moves`` on a fresh state (what a match pays per ply), 9x9 and 15x15.
3. Random playouts through the referee (legal_moves + check + apply per ply) on 9x9.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from harness.games.quoridor import board
from harness.games.quoridor.rules import RULES, State


def position(rng: random.Random, size: int, walls: int) -> State:
    """A legal position: random pawns (not on their goal rows) and ``walls`` random legal walls."""
    while True:
        pawns = [(rng.randrange(size), rng.randrange(size - 1)), (rng.randrange(size), rng.randrange(1, size))]
        if pawns[0] != pawns[1]:
            break
    state = State.build(size, size, pawns, ())
    keys: list[tuple[str, int, int]] = []
    while len(keys) < walls:
        legal = state.wall_keys
        keys.append(rng.choice(legal))
        state = State.build(size, size, pawns, keys)
    return state


def brute(state: State) -> list[tuple[str, int, int]]:
    """Every candidate wall with a flood fill for both players (the baseline)."""
    sx, sy = state.sizex, state.sizey
    targets = state._targets()
    out = []
    for kind in "HV":
        for y in range(sy - 1):
            for x in range(sx - 1):
                h, v = board.wall_bits((kind, x, y), sx)
                if state.hb & h or state.vb & v:
                    continue
                if all(board.reaches(s, t, state.up & ~h, state.right & ~v, sx) for s, t in targets):
                    out.append((kind, x, y))
    return out


def enumerate_walls(state: State) -> list[tuple[str, int, int]]:
    """The referee's enumeration on a state, bypassing the state's cache."""
    return list(board.legal_wall_keys(state.geo, state.hb, state.vb, state._targets()))


def fresh_legal_moves(state: State) -> object:
    """``legal_moves`` of a newly built copy of ``state`` (nothing cached yet)."""
    return RULES.legal_moves(State.build(state.sizex, state.sizey, state.pawns, [w.key for w in state.walls]))


def timed(fn: Callable[[State], object], state: State, repeat: int = 5) -> float:
    """The best of ``repeat`` timings of ``fn(state)``, in seconds."""
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn(state)
        best = min(best, time.perf_counter() - t0)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--positions", type=int, default=60)
    args = parser.parse_args()
    rng = random.Random(2024)

    states = [position(rng, 15, 30) for _ in range(args.positions)]
    fast, slow, counts = [], [], []
    for s in states:
        walls = enumerate_walls(s)
        if walls != brute(s):
            raise SystemExit("the referee's enumeration differs from the brute-force one")
        fast.append(timed(enumerate_walls, s))
        slow.append(timed(brute, s))
        counts.append(len(walls))
    print(f"all legal walls, 15x15 with 30 walls ({len(states)} positions, {statistics.median(counts):.0f} "
          f"legal walls median):")
    print(f"  referee (shortest-path filter): median {statistics.median(fast) * 1e3:.2f} ms, "
          f"max {max(fast) * 1e3:.2f} ms   (target < 20 ms)")
    print(f"  flood fill per candidate:       median {statistics.median(slow) * 1e3:.2f} ms, "
          f"max {max(slow) * 1e3:.2f} ms")

    for size, count in ((9, 10), (15, 30)):
        sts = [position(rng, size, count) for _ in range(20)]
        t = [timed(fresh_legal_moves, s) for s in sts]
        print(f"legal_moves on a fresh {size}x{size} state with {count} walls: median {statistics.median(t) * 1e3:.2f} ms")

    settings = RULES.parse_settings({"start_columns": "random", "initial_walls": {"random": 4}})
    plies = 0
    t0 = time.perf_counter()
    games = 200
    for seed in range(games):
        state = RULES.initial(settings, random.Random(seed))
        prng = random.Random(seed)
        while not RULES.is_over(state):
            moves = RULES.legal_moves(state)
            move = moves[prng.randrange(len(moves))]
            if RULES.check(state, move) is not None:
                raise SystemExit(f"a listed move was refused: {move}")
            state = RULES.apply(state, move)
            plies += 1
    dt = time.perf_counter() - t0
    print(f"random playouts, 9x9: {games} games, {plies} plies in {dt:.2f} s = {plies / dt:,.0f} plies/s "
          f"({dt / plies * 1e3:.2f} ms per ply for legal_moves + check + apply)")


if __name__ == "__main__":
    main()
