"""Per-move overhead of the sandbox, next to two floors measured in the same run.

    python bench/bench_overhead.py [--moves 3000]

1. a direct in-process call of a trivial bot (plus the JSON encode/decode of its answer);
2. a bare length-prefixed JSON round trip over a pipe to a child process that only echoes;
3. the harness: ``BotProcess.call`` of a trivial bot's move (wire encoding, func_timeout in the
   child, deadline, output draining), the same number of times.

Prints medians and the ratio harness / bare pipe (target: at most 2).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import textwrap
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from harness.games import get_game  # noqa: E402
from harness.games.base import Call, WireObject  # noqa: E402
from harness.sandbox import BotProcess  # noqa: E402
from harness.sandbox import wire  # noqa: E402

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


def bench_pipe(n: int) -> float:
    req_r, req_w = os.pipe()
    rep_r, rep_w = os.pipe()
    proc = subprocess.Popen([sys.executable, "-I", "-c", ECHO_CHILD, str(req_r), str(rep_w)],
                            pass_fds=(req_r, rep_w))
    os.close(req_r)
    os.close(rep_w)
    samples = []
    try:
        for _ in range(n):
            t = time.perf_counter()
            payload = json.dumps({"op": "call", "method": "zet", "args": [{"N": 5, "positie": 0}]}).encode()
            wire.write_frame(req_w, payload)
            json.loads(wire.read_frame(rep_r, 1 << 20))
            samples.append(time.perf_counter() - t)
    finally:
        os.close(req_w)
        proc.wait()
        os.close(rep_r)
    return median_us(samples)


def bench_harness(n: int) -> tuple[float, float]:
    game = get_game("priemspel")
    view = WireObject("Spel", {"_N": 5, "_positie": 0, "_eind": 23})
    samples = []
    with BotProcess(game, TRIVIAL) as bot:
        if not bot.load().ok or not bot.call(Call("__init__", ("x",), "init")).ok:
            raise SystemExit("the trivial bot did not start")
        for _ in range(n):
            t = time.perf_counter()
            result = bot.call(Call("zet", (view,), "move"))
            samples.append(time.perf_counter() - t)
            if result.value != 2:
                raise SystemExit(f"unexpected answer {result}")
    return median_us(samples), statistics.quantiles(samples, n=100)[98] * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--moves", type=int, default=3000)
    args = parser.parse_args()
    direct = bench_direct(args.moves)
    pipe = bench_pipe(args.moves)
    harness, p99 = bench_harness(args.moves)
    print(f"moves per measurement:          {args.moves}")
    print(f"direct in-process call + JSON:  {direct:8.1f} us (median)")
    print(f"bare JSON round trip over pipe: {pipe:8.1f} us (median)")
    print(f"harness per move:               {harness:8.1f} us (median), p99 {p99:.1f} us")
    print(f"harness / bare pipe:            {harness / pipe:8.2f} x  (target <= 2)")


if __name__ == "__main__":
    main()
