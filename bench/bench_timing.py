"""Timing fairness: false-positive and false-negative rates of the limit policies, idle and loaded.

    python bench/bench_timing.py [--moves 30] [--policies cpu,wall] [--isolation auto]

A bot computing 0.9 s of CPU time per move must never be flagged (a flag is a false
positive) and one computing 1.1 s must always be (a pass is a false negative), with a 1 s
move limit. Each bot makes ``--moves`` moves (a fresh process after every flagged move),
first on an idle machine, then with every core busy with another process (a busy loop per
core, each in its own session, started and stopped here). Prints one table row per (policy, machine, bot): the rate,
and the wall/CPU figures the verdicts were based on.

Both wall clocks judge the bot's own time (elapsed less its wait for a CPU), so the ``wall``
rows on a loaded machine show what the run-queue accounting buys.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from harness.games import get_game  # noqa: E402
from harness.games.base import Call, WireObject  # noqa: E402
from harness.sandbox import BotProcess, Limits  # noqa: E402

BOT = """
import time
class Player:
    def __init__(self, name):
        pass
    def zet(self, spel):
        start = time.process_time()
        x = 0
        while time.process_time() - start < {seconds}:
            for i in range(1000):
                x += i
        return 2
"""
VIEW = WireObject("Spel", {"_N": 5, "_positie": 0, "_eind": 23})


def run(seconds: float, limits: Limits, moves: int) -> dict[str, object]:
    """``moves`` timed moves of a bot burning ``seconds`` of CPU each; how many were flagged."""
    game = get_game("priemspel")
    source = BOT.format(seconds=seconds).encode()
    flagged, walls, cpus, clocks = 0, [], [], []
    done = 0
    while done < moves:
        with BotProcess(game, source, limits=limits) as bot:
            if not (bot.load().ok and bot.call(Call("__init__", ("x",), "init")).ok):
                raise SystemExit("the benchmark bot did not start")
            while done < moves:
                result = bot.call(Call("zet", (VIEW,), "move"))
                done += 1
                walls.append(result.wall)
                if result.cpu is not None:
                    cpus.append(result.cpu)
                if not result.ok:
                    flagged += 1
                    clocks.append(result.clock or "?")
                    break  # a flagged bot is killed: the next move gets a fresh process
    return {"flagged": flagged, "walls": walls, "cpus": cpus, "clocks": clocks}


def load(n: int) -> list[subprocess.Popen[bytes]]:
    # Each in its own session, like another game's bot: with the kernel's autogroup scheduling,
    # processes of one session share one share of the CPU, which would flatter the bot.
    return [subprocess.Popen([sys.executable, "-c", "while True: pass"], start_new_session=True) for _ in range(n)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--moves", type=int, default=30, help="moves per bot per row (default 30)")
    parser.add_argument("--policies", default="cpu,wall", help="comma-separated: cpu, wall")
    parser.add_argument("--isolation", default="auto", help="auto, bwrap or plain")
    args = parser.parse_args()
    cores = os.cpu_count() or 2
    rows = []
    print(f"{cores} cores; load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}; "
          f"isolation {args.isolation}; {args.moves} moves per row", flush=True)
    for machine in ("idle", "loaded"):
        hogs = load(cores) if machine == "loaded" else []
        try:
            time.sleep(0.5 if hogs else 0)
            for policy in args.policies.split(","):
                limits = Limits(policy=policy, isolation=args.isolation)
                for seconds in (0.9, 1.1):
                    t0 = time.perf_counter()
                    r = run(seconds, limits, args.moves)
                    flagged = int(r["flagged"])  # type: ignore[call-overload]
                    should_flag = seconds > limits.move
                    wrong = (args.moves - flagged) if should_flag else flagged
                    walls, cpus = r["walls"], r["cpus"]
                    rows.append((policy, machine, f"{seconds:.1f} s", "false negatives" if should_flag else
                                 "false positives", f"{wrong}/{args.moves}", f"{100 * wrong / args.moves:.0f} %",
                                 f"{statistics.median(walls):.3f}", f"{max(walls):.3f}",  # type: ignore[arg-type]
                                 f"{statistics.median(cpus):.3f}" if cpus else "-",  # type: ignore[arg-type]
                                 f"{max(cpus):.3f}" if cpus else "-",  # type: ignore[arg-type]
                                 ",".join(sorted(set(r["clocks"]))) or "-",  # type: ignore[arg-type]
                                 f"{time.perf_counter() - t0:.0f} s"))
                    print("  " + " | ".join(rows[-1]), flush=True)
        finally:
            for hog in hogs:
                hog.kill()
                hog.wait()
    header = ("policy", "machine", "bot CPU/move", "error kind", "errors", "rate", "wall med", "wall max",
              "cpu med", "cpu max", "clock fired", "took")
    widths = [max(len(str(x)) for x in col) for col in zip(header, *rows)]
    print()
    print("  ".join(h.ljust(w) for h, w in zip(header, widths)))
    for row in rows:
        print("  ".join(str(x).ljust(w) for x, w in zip(row, widths)))


if __name__ == "__main__":
    main()
