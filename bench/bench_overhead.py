"""Per-move overhead of the sandbox, next to two floors measured in the same run.

    taskset -c 0 python bench/bench_overhead.py [--moves 3000] [--rounds 3]

1. a direct in-process call of a trivial bot (plus the JSON encode/decode of its answer);
2. a bare length-prefixed JSON round trip over a pipe to a child process that only echoes;
3. the harness: ``BotProcess.call`` of a trivial bot's move (wire encoding, the worker, the
   deadline, output draining, the CPU meter and the own-time clock), the same number of times.

The pipe and the harness are measured in alternating rounds (``--rounds``), so a burst of load
from other processes falls on both; each prints the median of its best round. Besides wall
time, each prints what the kernel counted per move (CPU time of the parent's thread and of the
child, context switches of both), which a busy machine disturbs far less. Last, what the
harness's guarantees cost per call, each timed alone on the live bot: the own-time clock's
reading at the start of a call, the CPU meter's reading, and (with two bots, once a turn) the
stop and resume of the bot whose turn it is not, with its check that the worker is alone.

Run it pinned to one core (``taskset -c 0``), as the issue's target is stated.
Target: harness / bare pipe <= 1.5.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import statistics
import subprocess
import sys
import textwrap
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from harness.games import get_game  # noqa: E402
from harness.games.base import Call, WireObject  # noqa: E402
from harness.sandbox import BotProcess  # noqa: E402
from harness.sandbox.bot import wire  # noqa: E402

TRIVIAL = b"class Player:\n    def __init__(self, name):\n        pass\n    def zet(self, spel):\n        return 2\n"

ECHO_CHILD = textwrap.dedent("""
    import os, sys, json, struct
    r, w = int(sys.argv[1]), int(sys.argv[2])
    H = struct.Struct(">I")
    def read(n):
        b = b""
        while len(b) < n:
            c = os.read(r, n - len(b))
            if not c:
                sys.exit(0)
            b += c
        return b
    while True:
        (n,) = H.unpack(read(4))
        msg = json.loads(read(n))
        out = json.dumps({"ok": True, "value": 2, "echo": msg["op"]}).encode()
        os.write(w, H.pack(len(out)) + out)
""")


def median_us(samples: list[float]) -> float:
    return statistics.median(samples) * 1e6


class Counters:
    """CPU time (ns, from schedstat) and context switches of the parent's thread and a child's threads."""

    def __init__(self, child: int) -> None:
        self.child = child

    def read(self) -> tuple[int, int, int, int]:
        with open("/proc/thread-self/schedstat") as f:
            parent_ns = int(f.read().split()[0])
        parent_cs = _switches("/proc/thread-self/status")
        child_ns = child_cs = 0
        for tid in os.listdir(f"/proc/{self.child}/task"):
            try:
                with open(f"/proc/{self.child}/task/{tid}/schedstat") as f:
                    child_ns += int(f.read().split()[0])
                child_cs += _switches(f"/proc/{self.child}/task/{tid}/status")
            except OSError:
                continue
        return parent_ns, child_ns, parent_cs, child_cs


def _switches(path: str) -> int:
    total = 0
    with open(path) as f:
        for line in f:
            if "ctxt_switches:" in line:  # voluntary and involuntary
                total += int(line.split()[1])
    return total


class Round:
    """One measurement: median wall time per move, and the kernel's counts per move."""

    def __init__(self, samples: list[float], before: tuple[int, ...], after: tuple[int, ...]) -> None:
        n = len(samples)
        self.median = median_us(samples)
        self.p99 = statistics.quantiles(samples, n=100)[98] * 1e6
        self.parent_cpu, self.child_cpu = (after[0] - before[0]) / n / 1e3, (after[1] - before[1]) / n / 1e3
        self.parent_cs, self.child_cs = (after[2] - before[2]) / n, (after[3] - before[3]) / n


def bench_direct(n: int) -> float:
    class Player:
        def zet(self, spel: object) -> int:
            return 2

    bot, samples = Player(), []
    for _ in range(n):
        t = time.perf_counter()
        json.loads(json.dumps({"ok": True, "value": bot.zet(None)}))
        samples.append(time.perf_counter() - t)
    return median_us(samples)


def pipe_round(n: int) -> Round:
    req_r, req_w = os.pipe()
    rep_r, rep_w = os.pipe()
    proc = subprocess.Popen([sys.executable, "-I", "-c", ECHO_CHILD, str(req_r), str(rep_w)],
                            pass_fds=(req_r, rep_w))
    os.close(req_r)
    os.close(rep_w)
    counters = Counters(proc.pid)
    samples = []

    def one() -> None:
        payload = json.dumps({"op": "call", "method": "zet", "args": [{"N": 5, "positie": 0}]}).encode()
        wire.write_frame(req_w, payload)
        json.loads(wire.read_frame(rep_r, 1 << 20))

    try:
        for _ in range(min(200, n)):  # warm-up
            one()
        before = counters.read()
        for _ in range(n):
            t = time.perf_counter()
            one()
            samples.append(time.perf_counter() - t)
        after = counters.read()
    finally:
        os.close(req_w)
        proc.wait()
        os.close(rep_r)
    return Round(samples, before, after)


def bench_pipe(n: int) -> float:
    """The bare pipe's median round trip in microseconds (used by bench_long_game)."""
    return pipe_round(n).median


def _started(bot: BotProcess) -> None:
    if not bot.load().ok or not bot.call(Call("__init__", ("x",), "init")).ok:
        raise SystemExit("the trivial bot did not start")


def harness_round(n: int) -> Round:
    game = get_game("priemspel")
    view = WireObject("Spel", {"_N": 5, "_positie": 0, "_eind": 23})
    call = Call("zet", (view,), "move")
    samples = []
    with BotProcess(game, TRIVIAL) as bot:
        _started(bot)
        for _ in range(min(200, n)):
            bot.call(call)
        assert bot.worker_pid is not None
        counters = Counters(bot.worker_pid)
        before = counters.read()
        for _ in range(n):
            t = time.perf_counter()
            result = bot.call(call)
            samples.append(time.perf_counter() - t)
            if result.value != 2:
                raise SystemExit(f"unexpected answer {result}")
        after = counters.read()
    return Round(samples, before, after)


def guarantee_costs(n: int) -> list[tuple[str, float]]:
    """Median microseconds of each per-call or per-turn cost that a guarantee needs, on live bots."""
    game = get_game("priemspel")

    def timed(f: Callable[[], object]) -> float:
        samples = []
        for _ in range(n):
            t = time.perf_counter()
            f()
            samples.append(time.perf_counter() - t)
        return median_us(samples)

    with BotProcess(game, TRIVIAL) as bot:
        _started(bot)
        assert bot.turns is not None and bot.worker_pid is not None
        rows = [("own-time clock: reading at a call's start (schedstat of each thread)",
                 timed(bot.clock.begin) if bot.clock is not None else float("nan")),
                ("CPU meter: one reading a call (the bot's cgroup or /proc)", timed(bot.meter.read)),
                ("turn: is the worker alone (pids.current + thread count)", timed(bot.turns.lone_worker))]
        pid = bot.worker_pid

        def stop_and_go() -> None:
            os.kill(pid, signal.SIGSTOP)
            os.kill(pid, signal.SIGCONT)

        rows.append(("turn: SIGSTOP + SIGCONT of the idle worker (the signals alone)", timed(stop_and_go)))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--moves", type=int, default=3000)
    parser.add_argument("--rounds", type=int, default=3, help="alternating rounds of pipe and harness")
    args = parser.parse_args()
    direct = bench_direct(args.moves)
    pipes, harnesses = [], []
    for _ in range(args.rounds):
        pipes.append(pipe_round(args.moves))
        harnesses.append(harness_round(args.moves))
    pipe = min(pipes, key=lambda r: r.median)
    harness = min(harnesses, key=lambda r: r.median)
    print(f"moves per measurement:          {args.moves} (best of {args.rounds} alternating rounds)")
    print(f"direct in-process call + JSON:  {direct:8.1f} us (median)")
    for name, r in (("bare JSON round trip over pipe", pipe), ("harness per move", harness)):
        print(f"{name + ':':<31} {r.median:8.1f} us (median), p99 {r.p99:.1f} us; per move: CPU parent "
              f"{r.parent_cpu:.1f} us + child {r.child_cpu:.1f} us, context switches {r.parent_cs:.2f} + {r.child_cs:.2f}")
    print(f"harness / bare pipe:            {harness.median / pipe.median:8.2f} x wall, "
          f"{(harness.parent_cpu + harness.child_cpu) / (pipe.parent_cpu + pipe.child_cpu):.2f} x CPU  (target <= 1.5)")
    print("what the guarantees cost (median, each alone):")
    for name, us in guarantee_costs(min(args.moves, 3000)):
        print(f"  {name:<72} {us:6.2f} us")


if __name__ == "__main__":
    main()
