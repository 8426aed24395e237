"""Bot text cleaning (harness/text.py) and the text leaderboard's fitting: what they cost.

    python bench/bench_text.py [--kib 64] [--rows 200]

1. ``block`` (a bot's output, kept per game and player) on ``--kib`` KiB of ordinary text, and
   on the same amount of a hostile bot's text (an escape sequence and a lone surrogate every
   few characters): the worst a game's record pays for its cleaning.
2. ``line`` on one reason: what every output pays per cell.
3. ``fit_table`` of a leaderboard of ``--rows`` rows with long reasons, at 80 columns and unfitted.
"""

from __future__ import annotations

import argparse
import sys
import timeit
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from harness.terminal import Column, fit_table  # noqa: E402
from harness.text import block, line  # noqa: E402


def best(stmt: object, number: int) -> float:
    """The best of five timings of ``number`` runs, per run, in seconds."""
    return min(timeit.repeat(stmt, number=number, repeat=5)) / number  # type: ignore[arg-type]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kib", type=int, default=64)
    parser.add_argument("--rows", type=int, default=200)
    args = parser.parse_args()
    size = args.kib * 1024
    ordinary = ("hello world, the move was 3 " * (size // 28 + 1))[:size]
    hostile = ("ab\x1b[2J\ud800\x9b\u202e " * (size // 10 + 1))[:size]
    print(f"block, {args.kib} KiB of ordinary text: {1e3 * best(lambda: block(ordinary), 50):.2f} ms")
    print(f"block, {args.kib} KiB of a hostile bot's escapes: {1e3 * best(lambda: block(hostile), 5):.2f} ms")
    reason = "exception: zet() raised ValueError: no plan for this board at player.py line 9 in zet"
    print(f"line, one reason: {1e6 * best(lambda: line(reason), 20000):.2f} us")
    columns = [Column("rank"), Column("login", give=3, floor=8), Column("bot", give=1), Column("games"),
               Column("status", give=2, floor=24)]
    rows = [[i, f"student{i:04d}", "My Bot v2", 80, reason if i % 3 else "ok"] for i in range(args.rows)]
    print(f"fit_table, {args.rows} rows, 80 columns: {1e3 * best(lambda: fit_table(columns, rows, 80), 5):.1f} ms")
    print(f"fit_table, {args.rows} rows, unfitted: {1e3 * best(lambda: fit_table(columns, rows, None), 5):.1f} ms")


if __name__ == "__main__":
    main()
