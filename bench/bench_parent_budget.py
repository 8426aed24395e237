"""The parent's own budget: what the worst reply and the worst source file a bot can send cost the harness.

    python bench/bench_parent_budget.py [--repeat 20] [--before]

1. Replies (targets: under 50 ms of the parent's CPU each). Each frame is as large as the
   parent lets through (the 1 MiB answer cap plus the 4 KiB envelope allowance) or sits at a
   decode cap: a dict of int keys that all hash to 0 (multiples of 2**61-1), as an answer the
   game uses (refused before any dict is built) and as one it ignores (Quoridor's
   ``opponent_move``, Človeče's ``setattr``: never decoded), in the worker's format and in a
   forged one; and the other shapes that fill a frame. The figure is ``judge.read_reply``'s CPU
   time (``time.process_time``), median and worst of ``--repeat`` runs.
2. Source (target: under 400 MB of the parent's peak RSS, once per submission). A fresh Python
   process runs the static checks of a 4 MiB ``player.py`` that is one list literal, with an
   empty scan cache: its own peak RSS (``ru_maxrss`` of itself), the capped child's, the time;
   then the same submission in a second game (another game's rules) and in a later run (a new
   process, the disk cache): how many children each started (0 means no recheck). Also the
   peak RSS of ``botside.bytecode`` on the largest module it compiles in the parent (256 KiB).
   ``--before`` adds what parsing the 4 MiB file in the parent itself (the old way) cost.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from harness.sandbox import judge
from harness.sandbox.bot import wire  # noqa: E402
from harness.sandbox.limits import Limits  # noqa: E402

M = 2 ** 61 - 1  # CPython hashes every int multiple of this to 0
CAP = Limits().answer_bytes + 4096  # the largest frame the parent reads (process.py)


def fill(head: bytes, item: bytes, tail: bytes, sep: bytes = b",") -> bytes:
    """``head`` + as many ``item`` s as fit the frame cap + ``tail``."""
    count = (CAP - len(head) - len(tail)) // (len(item) + len(sep))
    return head + sep.join([item] * count) + tail


def colliding(head: bytes, tail: bytes, limit: int = CAP) -> tuple[bytes, int]:
    """A frame whose value is a tagged dict of colliding int keys, as many as fit ``limit`` bytes."""
    pairs, size, k = [], len(head) + len(tail) + 10, 0
    while True:
        pair = b"[%d,0]" % (M * k)
        if size + len(pair) + 1 > limit:
            break
        pairs.append(pair)
        size += len(pair) + 1
        k += 1
    return head + b'{"$d":[' + b",".join(pairs) + b"]}" + tail, len(pairs)


def reply_cases() -> dict[str, tuple[bytes, bool]]:
    worker = b'{"ok":true,"cpu":0.01,"seq":1,"value":'
    spaced = b'{"seq": 1, "ok": true, "cpu": 0.01, "value": '
    big, n = colliding(worker, b"}")
    big_spaced, _ = colliding(spaced, b"}")
    small, k = colliding(worker, b"}", limit=len(worker) + 2 + 30 * wire.ANSWER_DICT_ITEMS)
    # The most pairs the pre-check (wire.crowded) lets through to the parser: 2 commas a pair.
    under, u = colliding(worker, b"}", limit=len(worker) + 12 + 30 * (wire.ANSWER_NODES + 30))
    under_spaced, _ = colliding(spaced, b"}", limit=len(spaced) + 12 + 30 * (wire.ANSWER_NODES + 30))
    while under.count(b",") > 2 * wire.ANSWER_NODES + 64:  # trim to just under the count
        under = under[:under.rindex(b",[")] + b"]}}"
        under_spaced = under_spaced[:under_spaced.rindex(b",[")] + b"]}}"
    u = under.count(b"],[") + 1
    strs = worker + wire.dumps({f"k{i}": i for i in range(wire.ANSWER_DICT_ITEMS)}) + b"}"
    return {
        f"used: dict of {n} colliding keys": (big, True),
        f"used: dict of {k} colliding keys": (small, True),
        f"used: dict of {wire.ANSWER_DICT_ITEMS} str keys (kept)": (strs, True),
        f"used: {wire.ANSWER_NODES - 1} ints (node cap, kept)": (worker + wire.dumps([0] * (wire.ANSWER_NODES - 1)) + b"}", True),
        "used: a frame of ints": (fill(worker + b"[", b"0", b"]}"), True),
        "used: a frame of [int,int] pairs": (fill(worker + b"[", b"[1,2]", b"]}"), True),
        "used: an object of a frame of fields": (worker + b'{"$o":null,"type":"t","f":{'
                                                 + b",".join(b'"f%d":0' % i for i in range(CAP // 12)) + b"}}}", True),
        f"used: dict of {u} colliding keys (parsed)": (under, True),
        f"ignored: dict of {n} colliding keys": (big, False),
        f"ignored, forged format: {u} colliding keys": (under_spaced, False),
        f"ignored, forged format: {n} colliding keys": (big_spaced, False),
    }


def bench_replies(repeat: int) -> None:
    print(f"{'reply (parent CPU per reply)':48} {'bytes':>9} {'median ms':>10} {'worst ms':>9}  outcome")
    for name, (frame, used) in reply_cases().items():
        assert len(frame) <= CAP, (name, len(frame))
        samples = []
        for _ in range(repeat):
            t = time.process_time()
            outcome = judge.read_reply(frame, 1, "move()", value=used)
            samples.append(time.process_time() - t)
        what = (outcome.verdict.value + ": " + outcome.reason[:60]) if isinstance(outcome, judge.Failure) else "ok"
        print(f"{name:48} {len(frame):9d} {statistics.median(samples) * 1e3:10.2f} {max(samples) * 1e3:9.2f}  {what}")


CHECK = """
import json, resource, sys, time
sys.path.insert(0, {root!r})
from harness.games import get_game
from harness.sandbox.checks import scan
from harness.sandbox.checks.static import check_source
source = open({path!r}, "rb").read()
out = {{}}
for n, game in enumerate(("priemspel", "quoridor")):
    t, c = time.perf_counter(), scan.children
    reason = check_source(get_game(game), source)
    out[game] = {{"seconds": time.perf_counter() - t, "children": scan.children - c, "reason": (reason or "")[:70]}}
out["parent_rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
out["child_rss_mb"] = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
print(json.dumps(out))
"""

COMPILE = """
import resource, sys
sys.path.insert(0, {root!r})
from harness.sandbox import botside
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
source = open({path!r}, "rb").read()
data = botside.bytecode(source)
print(before, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, data is not None)
"""

IN_PARENT = """
import ast, resource, sys, time
t = time.process_time()
try:
    ast.parse(open({path!r}, "rb").read())
except MemoryError:
    pass
print(time.process_time() - t, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)
"""


def bench_source(before: bool) -> None:
    from harness.sandbox import botside
    from harness.submission import MAX_FILE_BYTES

    with tempfile.TemporaryDirectory() as tmp:
        body = b"\n\nclass Player:\n    def __init__(self, name):\n        pass\n\n    def zet(self, spel):\n        return 1\n"
        source = b"TABLE = [" + b"0," * ((MAX_FILE_BYTES - 200) // 2) + b"]\n" + body
        path = Path(tmp) / "player.py"
        path.write_bytes(source)
        env = {**os.environ, "XDG_CACHE_HOME": str(Path(tmp) / "cache")}
        print(f"\nstatic checks of a {len(source) / 2 ** 20:.2f} MiB one-literal player.py (fresh cache)")
        for run in ("first run", "later run"):
            out = json.loads(subprocess.run([sys.executable, "-c", CHECK.format(root=str(ROOT), path=str(path))],
                                            env=env, capture_output=True, text=True, check=True).stdout)
            print(f"  {run}: parent peak RSS {out['parent_rss_mb']:.0f} MB, capped child peak RSS "
                  f"{out['child_rss_mb']:.0f} MB")
            for game in ("priemspel", "quoridor"):
                g = out[game]
                print(f"    {game:9}: {g['seconds']:6.2f} s, {g['children']} child(ren) started; {g['reason']}")
        compiled = Path(tmp) / "compiled.py"
        compiled.write_bytes(b"TABLE = [" + b"0," * ((botside.MAX_COMPILED - len(body) - 16) // 2) + b"]\n" + body)
        line = subprocess.run([sys.executable, "-c", COMPILE.format(root=str(ROOT), path=str(compiled))],
                              capture_output=True, text=True, check=True).stdout.split()
        print(f"\nbotside.bytecode of a {botside.MAX_COMPILED >> 10} KiB one-literal module (its input cap), in "
              f"the parent: peak RSS {float(line[0]):.0f} MB before, {float(line[1]):.0f} MB after "
              f"(compiled: {line[2]})")
        if before:
            line = subprocess.run([sys.executable, "-c", IN_PARENT.format(path=str(path))],
                                  capture_output=True, text=True, check=True).stdout.split()
            print(f"\nbefore (ast.parse in the parent, per game): {float(line[0]):.1f} s of CPU, "
                  f"peak RSS {float(line[1]):.0f} MB")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--before", action="store_true", help="also measure parsing in the parent (the old way)")
    args = parser.parse_args()
    bench_replies(args.repeat)
    bench_source(args.before)


if __name__ == "__main__":
    main()
