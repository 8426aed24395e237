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
   process, the disk cache): how many children each started (0 means no recheck).
   ``--before`` adds what parsing the 4 MiB file in the parent itself (the old way) cost.
3. Compiling (target: under 400 MB of the parent's peak RSS and within 2 s of its CPU time; a
   second game costs nothing). Issue 32's sources -- a 12 KB chain of string additions the
   optimiser folds, the same in an imported helper.py, a 200 KB tuple of distinct strings (65 MB
   of bytecode), 20 unused modules of such chains, the same 20 imported -- and two normal bots
   (the seed's basis.py, a student's two-file Quoridor bot). A fresh process does what a game does with a submission:
   the static checks and the pycs placed in a game's code folder (``harness.door``), three
   times: a first game (empty cache), a second game (same process), a later run (a new
   process). Per step: the parent's own CPU time (``RUSAGE_SELF``), the door's children and
   their CPU time and peak RSS (their own rusage, from ``wait4``), the verdict; then the parent's
   peak RSS. ``--before`` adds what compiling them in the parent (the old ``botside.bytecode``)
   cost: CPU, peak RSS, bytecode size.
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
    # The most pairs the pre-check (judge.crowded) lets through to the parser: 2 commas a pair.
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
from harness import door
from harness.sandbox.checks.static import check_source
source = open({path!r}, "rb").read()
out = {{}}
for n, game in enumerate(("priemspel", "quoridor")):
    t, c = time.perf_counter(), door.stats.children
    reason = check_source(get_game(game), source)
    out[game] = {{"seconds": time.perf_counter() - t, "children": door.stats.children - c, "reason": (reason or "")[:70]}}
out["parent_rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
out["child_rss_mb"] = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
print(json.dumps(out))
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
        if before:
            line = subprocess.run([sys.executable, "-c", IN_PARENT.format(path=str(path))],
                                  capture_output=True, text=True, check=True).stdout.split()
            print(f"\nbefore (ast.parse in the parent, per game): {float(line[0]):.1f} s of CPU, "
                  f"peak RSS {float(line[1]):.0f} MB")


GAME = """
import json, resource, sys, tempfile, time
sys.path.insert(0, {root!r})
from pathlib import Path
from harness import door
from harness.door import modules
from harness.games import get_game
from harness.sandbox.checks.static import check_source
from harness.submission import read_folder

def cpu():
    u = resource.getrusage(resource.RUSAGE_SELF)
    return u.ru_utime + u.ru_stime

sub = read_folder(Path({folder!r}))
game = get_game({game!r})
steps = []
for step in {steps!r}:
    c, k, d = cpu(), door.stats.children, door.stats.cpu
    reason = check_source(game, sub)
    with tempfile.TemporaryDirectory() as code:  # what spawn does with a game's code folder
        for name, data in sub.files.items():
            (Path(code) / name).write_bytes(data)
        placed = modules.place(sub.files, Path(code))
    steps.append({{"step": step, "parent_cpu": cpu() - c, "children": door.stats.children - k,
                  "door_cpu": door.stats.cpu - d, "reason": reason or "ok", "placed": placed}})
print(json.dumps({{"steps": steps, "parent_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                  "door_rss_mb": door.stats.peak_rss_mb}}))
"""

OLD_COMPILE = """
import marshal, resource, sys, time
t = time.process_time()
total = 0
for path in sys.argv[1:]:
    source = open(path, "rb").read()
    if len(source) <= 256 << 10:  # the old botside.MAX_COMPILED
        try:
            total += len(marshal.dumps(compile(source, "<submission>", "exec", dont_inherit=True)))
        except MemoryError:
            total = -1
            break
print(time.process_time() - t, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, total)
"""


def door_cases() -> dict[str, tuple[str, dict[str, bytes]]]:
    """Issue 32's sources and two normal bots: name -> (game, files)."""
    basis = (ROOT / "reference_players/priemspel/basis.py").read_bytes()
    chain = b"+".join([b"'a'*4096"] * 1330)
    small = b"X = " + b"+".join([b"'a'*4096"] * 400) + b"\n"
    tuple_ = b"WORDS = (" + b",".join(b"'%05d'*819" % i for i in range(16_000)) + b")\n"
    two = ROOT / "tests/bots/course/quoridor_zip"
    return {
        "normal: basis.py (priemspel's seed bot)": ("priemspel", {"player.py": basis}),
        "normal: a student's two-file Quoridor bot": ("quoridor", {p.name: p.read_bytes()
                                                                   for p in sorted(two.glob("*.py"))}),
        "12 KB folded chain in player.py": ("priemspel", {"player.py": b"BANNER = " + chain + b"\n" + basis}),
        "the chain in an imported helper.py": ("priemspel", {"player.py": b"import helper\n" + basis,
                                                             "helper.py": b"X = " + chain + b"\n"}),
        "200 KB tuple of distinct strings": ("priemspel", {"player.py": tuple_ + basis}),
        "20 unused modules of chains": ("priemspel", {"player.py": basis,
                                                      **{f"mod{i:02d}.py": small for i in range(20)}}),
        "20 imported modules of chains": ("priemspel", {"player.py": b"".join(b"import mod%02d\n" % i for i in range(20))
                                                        + basis, **{f"mod{i:02d}.py": small.replace(b"X", b"X%d" % i, 1)
                                                                    for i in range(20)}}),
    }


def bench_door(before: bool) -> None:
    print("\nthe door: a game's static checks and pycs (parent CPU / door children, door CPU; verdict)")
    print(f"{'source':38} {'first game':>22} {'second game':>16} {'later run':>16} {'parent RSS':>10} {'door RSS':>9}")
    for name, (game, files) in door_cases().items():
        with tempfile.TemporaryDirectory() as tmp:
            folder = Path(tmp) / "sub"
            folder.mkdir()
            for file, data in files.items():
                (folder / file).write_bytes(data)
            env = {**os.environ, "XDG_CACHE_HOME": str(Path(tmp) / "cache")}
            runs = []
            for steps in (["first", "second"], ["later"]):
                done = subprocess.run([sys.executable, "-c", GAME.format(root=str(ROOT), folder=str(folder),
                                                                         steps=steps, game=game)],
                                      env=env, capture_output=True, text=True, check=True)
                runs.append(json.loads(done.stdout))
            steps = runs[0]["steps"] + runs[1]["steps"]
            cells = [f"{s['parent_cpu'] * 1e3:5.0f} ms/{s['children']},{s['door_cpu']:5.2f} s" for s in steps]
            print(f"{name:38} {cells[0]:>22} {cells[1]:>16} {cells[2]:>16} "
                  f"{runs[0]['parent_rss_mb']:7.0f} MB {runs[0]['door_rss_mb']:6.0f} MB")
            print(f"{'':38} {steps[0]['reason'][:100]}")
            if before:
                paths = [str(folder / f) for f in files]
                line = subprocess.run([sys.executable, "-c", OLD_COMPILE, *paths], capture_output=True, text=True,
                                      check=False).stdout.split() or ["nan", "nan", "-2"]
                size = int(line[2])
                what = "MemoryError" if size == -1 else "killed" if size == -2 else f"{size / 1024:.0f} KiB of bytecode"
                print(f"{'':38} before (compiled in the parent): {float(line[0]):.2f} s CPU, peak RSS "
                      f"{float(line[1]):.0f} MB, {what}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--before", action="store_true", help="also measure parsing in the parent (the old way)")
    args = parser.parse_args()
    bench_replies(args.repeat)
    bench_source(args.before)
    bench_door(args.before)


if __name__ == "__main__":
    main()
