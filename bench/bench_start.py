"""Bot start: from a new BotProcess to its first answer, next to bare interpreter starts.

    python bench/bench_start.py [--starts 20] [--repo PATH]

Each start is a fresh bot (bubblewrap and cgroups where the machine has them): spawn, the
worker's hello, enrolment in the cgroups, the import of a trivial player.py, its constructor
and one move. The floors, in the same run: ``python -I -S -c pass`` bare, and under
``bwrap --ro-bind / /``. ``--repo`` measures another checkout (e.g. main) in the same run.
Prints the minimum and median of each, in milliseconds (the minimum is the figure that a
busy machine disturbs least).
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

TRIVIAL = b"class Player:\n    def __init__(self, name):\n        pass\n    def zet(self, spel):\n        return 2\n"


def timed(fn: object, n: int) -> list[float]:
    out = []
    for _ in range(n):
        t0 = time.perf_counter()
        fn()  # type: ignore[operator]
        out.append(time.perf_counter() - t0)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--starts", type=int, default=20)
    parser.add_argument("--repo", default=str(Path(__file__).resolve().parents[1]))
    args = parser.parse_args()
    sys.path.insert(0, args.repo)
    from harness.games import get_game
    from harness.games.base import Call, WireObject
    from harness.sandbox import BotProcess

    game = get_game("priemspel")
    view = WireObject("Spel", {"_N": 5, "_positie": 0, "_eind": 23})

    def bot() -> None:
        with BotProcess(game, TRIVIAL) as b:
            assert b.load().ok and b.call(Call("__init__", ("x",), "init")).ok
            assert b.call(Call("zet", (view,), "move")).ok

    rows = [("python -I -S (bare)", lambda: subprocess.run([sys.executable, "-I", "-S", "-c", "pass"], check=True))]
    if shutil.which("bwrap"):
        rows.append(("python -I -S in bwrap", lambda: subprocess.run(
            ["bwrap", "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--unshare-pid",
             sys.executable, "-I", "-S", "-c", "pass"], check=True)))
    rows.append((f"bot to first answer ({Path(args.repo).name})", bot))
    for name, fn in rows:
        fn()  # warm the page cache
        ms = [t * 1000 for t in timed(fn, args.starts)]
        print(f"{name:<36} min {min(ms):7.1f} ms   median {statistics.median(ms):7.1f} ms")


if __name__ == "__main__":
    main()
