"""What the Landlock ruleset costs a bot's start in the container tier (plain mode as root).

    python bench/bench_landlock.py [--runs 30]

Each run is a fresh interpreter started as a bot's is (``-I -S -B``) that imports ``ctypes``
(plain mode's worker imports it anyway, for ``PR_SET_PDEATHSIG``) and then times
:func:`harness.sandbox.bot.landlock.restrict` with the rules a bot gets (its interpreter's
standard library, the system's shared libraries, the devices, a code and a work folder).
Prints the minimum and median in milliseconds, with the kernel's ABI.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

CHILD = """
import sys, time, ctypes
sys.path.insert(0, {here!r})
import landlock
version = landlock.abi()
t0 = time.perf_counter()
landlock.restrict({read!r} + [p for p in sys.path if p], {write!r}, version)
print(version, (time.perf_counter() - t0) * 1000)
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=30)
    args = parser.parse_args()
    sys.path.insert(0, str(REPO))
    from harness.sandbox import container

    with tempfile.TemporaryDirectory() as tmp:
        code, work = Path(tmp, "code"), Path(tmp, "work")
        code.mkdir()
        work.mkdir()
        read = [*container.landlock_args(sys.executable, [code], work)[2:]]
        reads = [a[2:] for a in read if a.startswith("r:")]
        writes = [a[2:] for a in read if a.startswith("w:")]
        if not reads:
            print("no Landlock in this kernel (or HARNESS_LANDLOCK=0)")
            return
        source = CHILD.format(here=str(REPO / "harness" / "sandbox"), read=reads, write=writes)
        times, version = [], ""
        for _ in range(args.runs):
            out = subprocess.run([sys.executable, "-I", "-S", "-B", "-c", source], capture_output=True, text=True,
                                 check=True).stdout.split()
            version, times = out[0], [*times, float(out[1])]
    print(json.dumps({"abi": int(version), "rules_besides_sys_path": len(reads) + len(writes), "runs": args.runs,
                      "min_ms": round(min(times), 3), "median_ms": round(statistics.median(times), 3)}))


if __name__ == "__main__":
    main()
