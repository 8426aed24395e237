"""The long PriemSpel game (start 0, N = 100): what a ply costs, referee alone and end to end.

    python bench/bench_long_game.py [--start 0] [--n 100] [--repeat 3] [--no-sandbox]

1. The referee alone, in this process: per ply, the calls ``harness.match`` makes on it
   (``is_over``, ``to_move``, the adapter's ``turn_calls``, ``check``, ``apply``, ``scores``,
   the transcript's ``describe``), the smallest step played each time. Best of ``--repeat``.
2. The whole game through real sandboxed bots (``play_match``), both seats the smallest-step
   strategy with a fast prime table (so the bots' own thinking is not what is measured), per
   ply, next to the bare JSON pipe round trip of ``bench_overhead`` measured in the same run.

Run it on a checkout before and after a change to compare: it only uses the game contract.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from harness.games import get_game  # noqa: E402

# Smallest legal step, like reference_players/priemspel/basis.py, from a prime table grown on
# demand (a table rather than trial division: the bot should cost next to nothing here).
FAST = b'''
class Player:
    def __init__(self, name):
        self.name = name
        self.flags = bytearray(b"\\x00\\x00") + bytearray(b"\\x01") * 1022
        self._sieve()

    def _sieve(self):
        flags = self.flags
        for i in range(2, int(len(flags) ** 0.5) + 1):
            if flags[i]:
                flags[i * i::i] = bytes(len(range(i * i, len(flags), i)))

    def zet(self, spel):
        top = spel.positie + spel.N + 1
        if top > len(self.flags):
            size = len(self.flags)
            while size < top:
                size *= 2
            self.flags = bytearray(b"\\x00\\x00") + bytearray(b"\\x01") * (size - 2)
            self._sieve()
        for stap in range(1, spel.N + 1):
            if self.flags[spel.positie + stap]:
                return stap
        return 1
'''


def referee_per_ply(start: int, n: int) -> tuple[float, int]:
    """Seconds per ply of the referee's work in one game, and the game's plies."""
    game = get_game("priemspel")
    rules, adapter, describe = game.rules, game.adapter, game.describe
    names = ["a", "b"]
    t0 = time.perf_counter()
    state = rules.initial(rules.parse_settings({"start": start, "N": n}), random.Random(0))
    plies = 0
    while not rules.is_over(state):
        seat = rules.to_move(state)
        adapter.turn_calls(state, seat, [])
        move = rules.legal_moves(state)[0]
        if rules.check(state, move) is not None:
            raise SystemExit(f"the referee refused its own legal move {move} at {state}")
        state = rules.apply(state, move)
        rules.scores(state)
        if describe is not None:
            describe(state, names)
        plies += 1
    return (time.perf_counter() - t0) / plies, plies


def sandboxed_per_ply(start: int, n: int) -> tuple[float, int, str]:
    """Seconds per ply of the whole game through two sandboxed bots, the plies, the isolation."""
    from harness.match import play_match

    game = get_game("priemspel")
    t0 = time.perf_counter()
    record = play_match(game, [FAST, FAST], settings={"start": start, "N": n}, seed=0, logins=["a", "b"])
    elapsed = time.perf_counter() - t0
    bad = [p.reason for p in record.players if p.verdict.value != "ok"]
    if bad:
        raise SystemExit(f"a bot failed: {bad}")
    isolation = getattr(record, "isolation", "") or ""
    return elapsed / max(record.plies, 1), record.plies, str(isolation)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--start", type=int, default=0)
    parser.add_argument("--n", type=int, default=100)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--no-sandbox", action="store_true", help="measure the referee only")
    args = parser.parse_args()
    runs = [referee_per_ply(args.start, args.n) for _ in range(args.repeat)]
    best, plies = min(r[0] for r in runs), runs[0][1]
    print(f"PriemSpel start {args.start}, N = {args.n}: {plies} plies")
    print(f"referee per ply, in process:     {best * 1e6:8.1f} us (best of {args.repeat})")
    if args.no_sandbox:
        return
    from bench_overhead import bench_pipe

    pipe = bench_pipe(3000)
    per_ply, played, _ = sandboxed_per_ply(args.start, args.n)
    print(f"bare JSON round trip over pipe:  {pipe:8.1f} us (median of 3000)")
    print(f"whole game per ply, sandboxed:   {per_ply * 1e6:8.1f} us ({played} plies)")
    print(f"per ply / bare pipe:             {per_ply * 1e6 / pipe:8.1f} x")


if __name__ == "__main__":
    main()
