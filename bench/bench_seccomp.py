"""What the seccomp filter costs a bot: at its start, and on each of its system calls.

    python bench/bench_seccomp.py [--runs 30]

* the container tier (plain mode): each run is a fresh interpreter started as a bot's is
  (``-I -S -B``) that imports ``ctypes`` (plain mode's worker imports it anyway, for
  ``PR_SET_PDEATHSIG``), then times the import of the filter's module (from the bot-side
  folder, compiled, as the worker imports it) and
  :func:`harness.sandbox.bot.seccomp.confine` (build the program, ``no_new_privs``, install),
  on the process's CPU clock and the wall clock;
* under bubblewrap the bot's interpreter does nothing: bubblewrap loads the program from a pipe
  (``--seccomp``); the harness's side, :func:`harness.sandbox.syscalls.bwrap_pipe`, is timed;
* every system call then runs the filter: ``getppid`` (allowed after every comparison) timed in
  a loop, with and without it.

Prints the minimum and median of each.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

START = """
import sys, time, ctypes, json
sys.path.insert(0, {here!r})
c0, t0 = time.process_time(), time.perf_counter()
import _harness_seccomp as seccomp
seccomp.confine()
print(json.dumps([time.process_time() - c0, time.perf_counter() - t0]))
"""

PER_CALL = """
import sys, time, ctypes, json, os
sys.path.insert(0, {here!r})
import _harness_seccomp as seccomp
def loop():
    n = 200000
    t0 = time.process_time()
    for _ in range(n):
        os.getppid()
    return (time.process_time() - t0) / n
without = min(loop() for _ in range(3))
seccomp.confine()
print(json.dumps([without, min(loop() for _ in range(3))]))
"""


def child(code: str, python: str) -> list[float]:
    from harness.sandbox import botside

    here = str(botside.folder())  # the bot-side folder as bots run it: its module with checked-hash bytecode
    done = subprocess.run([python, "-I", "-S", "-B", "-c", code.format(here=here)], capture_output=True, text=True,
                          check=True, timeout=120)
    return json.loads(done.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--python", default=sys.executable, help="the bots' interpreter (default: this one)")
    args = parser.parse_args()
    from harness.sandbox import syscalls
    from harness.sandbox.bot import seccomp

    starts = [child(START, args.python) for _ in range(args.runs)]
    cpu, wall = [s[0] * 1000 for s in starts], [s[1] * 1000 for s in starts]
    print(f"{seccomp.machine()}, {len(syscalls.program()) // 8} BPF instructions, {args.python}")
    print(f"container tier, per bot start: CPU {min(cpu):.2f} ms min, {statistics.median(cpu):.2f} ms median; "
          f"wall {min(wall):.2f} ms min, {statistics.median(wall):.2f} ms median ({args.runs} starts)")
    pipes = []
    for _ in range(args.runs):
        t0 = time.perf_counter()
        fd = syscalls.bwrap_pipe()
        pipes.append((time.perf_counter() - t0) * 1e6)
        if fd is not None:
            os.close(fd)
    print(f"bubblewrap, per bot start: the harness's pipe {min(pipes):.1f} us min, {statistics.median(pipes):.1f} us "
          f"median; the bot's interpreter: nothing (bubblewrap loads the program)")
    calls = [child(PER_CALL, args.python) for _ in range(max(3, args.runs // 10))]
    without = [c[0] * 1e9 for c in calls]
    with_filter = [c[1] * 1e9 for c in calls]
    print(f"per system call (getppid from Python): {statistics.median(without):.0f} ns without the filter, "
          f"{statistics.median(with_filter):.0f} ns with it (median of {len(calls)} processes)")


if __name__ == "__main__":
    main()
