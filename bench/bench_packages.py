"""What making installed packages visible to a bot costs per bot start, and its first import.

    python bench/bench_packages.py [--starts 20] [--imports 6]

A trivial bot is started with ``BotProcess(...).load()`` and its first call (the constructor),
then closed, many times, under three package sets: none, ``("PIL",)`` and ``("numpy",)``
(``Limits(packages=...)`` with a game of no packages of its own), in bubblewrap and as a plain
process. Configurations are interleaved (one start of each in turn), so a change of the
machine's load touches them all alike. Prints the median start (load + first call) and close
per configuration, and the difference per start against no packages (the median of the
differences between starts of the same round).

Then the first ``import numpy`` / ``from PIL import Image`` in a fresh bot (inside the bot:
``time.perf_counter()`` around the import statement; outside: the parent's wall-clock time of
that call), next to the same first import in a bare ``python -I`` outside the sandbox (with
the bot's one-thread BLAS settings).
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from harness.games.base import Call, GameSpec, SubmissionRules  # noqa: E402
from harness.sandbox.bubblewrap import support  # noqa: E402
from harness.sandbox.limits import Limits  # noqa: E402
from harness.sandbox.checks.packages import THREAD_ENV, PackageError, link_folder, resolve_all  # noqa: E402
from harness.sandbox.process import BotProcess  # noqa: E402

BOT = b'''
import time


class Player:
    def __init__(self, name):
        self.name = name

    def import_numpy(self):
        start = time.perf_counter()
        import numpy
        return time.perf_counter() - start

    def import_pil(self):
        start = time.perf_counter()
        from PIL import Image
        return time.perf_counter() - start
'''

# A game with no packages of its own: only Limits(packages=...) makes any visible.
GAME: GameSpec[Any, Any] = GameSpec(name="bench", title="bench", rules=None, adapter=None,  # type: ignore[arg-type]
                                    submission=SubmissionRules(packages=()))
PACKAGE_SETS: dict[str, tuple[str, ...]] = {"none": (), "PIL": ("PIL",), "numpy": ("numpy",)}
IMPORTS = {"numpy": ("import_numpy", "import numpy"), "PIL": ("import_pil", "from PIL import Image")}


def limits(isolation: str, packages: tuple[str, ...]) -> Limits:
    # Roomy limits: a cold import of numpy on a busy machine must not be a timeout.
    return Limits(isolation=isolation, packages=packages, init=10.0, move=10.0, load=10.0)


def one_start(isolation: str, packages: tuple[str, ...], then: str | None = None) -> dict[str, float]:
    """Start a bot, make its first call, optionally one import call; close it. Seconds."""
    t0 = time.perf_counter()
    bot = BotProcess(GAME, BOT, label="bench", limits=limits(isolation, packages))
    try:
        loaded = bot.load()
        if not loaded.ok:
            raise SystemExit(f"{isolation}/{packages}: the bot did not load: {loaded.reason}")
        if isolation == "bwrap" and not bot.bwrap:
            raise SystemExit("bubblewrap was asked for but not used")
        init = bot.call(Call("__init__", ("bench",), "init"))
        if not init.ok:
            raise SystemExit(f"{isolation}/{packages}: the constructor failed: {init.reason}")
        t1 = time.perf_counter()
        out = {"start": t1 - t0}
        if then is not None:
            result = bot.call(Call(then, (), "move"))
            if not result.ok or not isinstance(result.value, float):
                raise SystemExit(f"{isolation}/{packages}: {then} failed: {result.verdict} {result.reason}")
            out.update(inside=result.value, wall=result.wall)
    finally:
        t2 = time.perf_counter()
        bot.close()
    out["close"] = time.perf_counter() - t2
    return out


def bare_import(statement: str) -> float:
    """The first import in a fresh ``python -I`` outside the sandbox (site-packages visible), with
    the bot's environment's one-thread settings for BLAS (OpenBLAS starts a thread per core otherwise)."""
    code = f"import time\nt = time.perf_counter()\n{statement}\nprint(time.perf_counter() - t)"
    env = {"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", **THREAD_ENV}
    return float(subprocess.run([sys.executable, "-I", "-c", code], capture_output=True, text=True,
                                check=True, env=env).stdout)


def link_cost(wanted: tuple[str, ...], n: int = 200) -> float:
    """Median seconds for what a start does for its packages in the parent (resolution is cached)."""
    samples = []
    with tempfile.TemporaryDirectory(prefix="bench-packages-") as tmp:
        for i in range(n):
            t = time.perf_counter()
            link_folder(Path(tmp) / str(i), resolve_all(wanted))
            samples.append(time.perf_counter() - t)
    return statistics.median(samples)


def ms(samples: list[float]) -> str:
    return f"{statistics.median(samples) * 1000:7.1f} ms"


def spread(samples: list[float]) -> str:
    """The middle half of the samples (25th to 75th percentile), in ms."""
    q = statistics.quantiles(samples, n=4) if len(samples) > 1 else [samples[0]] * 3
    return f"{q[0] * 1000:5.1f}-{q[2] * 1000:5.1f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--starts", type=int, default=20, help="starts per configuration (default 20)")
    parser.add_argument("--imports", type=int, default=6, help="fresh bots per first-import figure (default 6)")
    args = parser.parse_args()
    modes = ["bwrap", "plain"] if support().available else ["plain"]
    if "bwrap" not in modes:
        print(f"bubblewrap unavailable ({support().reason}): plain mode only")
    for name, wanted in list(PACKAGE_SETS.items()):
        try:
            resolve_all(wanted)
        except PackageError as exc:
            print(f"left out: {name}: {exc}")
            del PACKAGE_SETS[name]
            IMPORTS.pop(name, None)
    configs = [(mode, name) for mode in modes for name in PACKAGE_SETS]
    began = time.perf_counter()
    for mode, name in configs:  # warm-up: package resolution, bwrap probe, page cache
        one_start(mode, PACKAGE_SETS[name])
    starts: dict[tuple[str, str], list[float]] = {c: [] for c in configs}
    closes: dict[tuple[str, str], list[float]] = {c: [] for c in configs}
    for _ in range(args.starts):
        for mode, name in configs:
            r = one_start(mode, PACKAGE_SETS[name])
            starts[mode, name].append(r["start"])
            closes[mode, name].append(r["close"])

    print(f"Bot start (BotProcess.load() + the constructor call), median of {args.starts}; close separately")
    print(f"  {'mode':6} {'packages':9} {'start':>10} {'(middle half)':>14} {'vs none':>10} {'close':>10}")
    for mode, name in configs:
        # Paired: each start against the no-package start of the same round (same moment's load).
        diff = statistics.median(a - b for a, b in zip(starts[mode, name], starts[mode, "none"]))
        print(f"  {mode:6} {name:9} {ms(starts[mode, name])} {spread(starts[mode, name]):>14} "
              f"{diff * 1000:+7.1f} ms {ms(closes[mode, name])}")

    print("\nThe parent's part of it: the folder of links to the packages' roots, per start (median of 200)")
    for name, wanted in PACKAGE_SETS.items():
        if wanted:
            print(f"  {name:9} {link_cost(wanted) * 1e6:7.0f} us")

    print(f"\nFirst import in a fresh bot, median of {args.imports} (inside the bot / the call's wall time)")
    for name, (method, statement) in IMPORTS.items():
        bare = [bare_import(statement) for _ in range(args.imports)]
        print(f"  {statement:22} bare python -I (no sandbox): {ms(bare)}")
        for mode in modes:
            runs = [one_start(mode, PACKAGE_SETS[name], then=method) for _ in range(args.imports)]
            print(f"  {statement:22} {mode:5}: inside {ms([r['inside'] for r in runs])}, "
                  f"call {ms([r['wall'] for r in runs])}")
    print(f"\n({time.perf_counter() - began:.1f} s in all)")


if __name__ == "__main__":
    main()
