"""What the parent's reading of a reply costs (``harness/sandbox/judge.py``), next to ``json.loads``.

    python bench/bench_decode.py [--repeat 200]

For each reply: the median time of ``json.loads`` of the frame alone (the floor), and of
``judge.read_reply`` (parse, shape checks, the iterative capped decode, the verdict). The
worst case is the largest reply the caps let through: a flat list of 200,000 values.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from harness.sandbox import judge
from harness.sandbox.bot import wire  # noqa: E402


def frame(value: object) -> bytes:
    return json.dumps({"ok": True, "seq": 1, "cpu": 0.01}).encode()[:-1] + b',"value":' + wire.dumps(value) + b"}"


def median_us(fn, repeat: int) -> float:
    samples = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - t)
    return statistics.median(samples) * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=200)
    args = parser.parse_args()

    class Obstacle:
        def __init__(self) -> None:
            self.fromx, self.fromy, self.tox, self.toy = 3, 4, 3, 6

    deep: object = 1
    for _ in range(wire.MAX_DEPTH - 1):
        deep = [deep]
    cases = {
        "an int (PriemSpel)": frame(3),
        "a tuple of ints (Quoridor move)": frame((4, 5)),
        "an Obstacle object": wire.dumps(0) and (json.dumps({"ok": True, "seq": 1}).encode()[:-1] + b',"value":'
                                                 + wire.dumps(Obstacle(), {Obstacle: "Obstacle"}) + b"}"),
        "a list 64 deep": frame(deep),
        "200,000 ints (the node cap)": frame([0] * (wire.MAX_NODES - 1)),
    }
    print(f"{'reply':34} {'bytes':>9} {'json.loads':>12} {'read_reply':>12}")
    for name, data in cases.items():
        repeat = args.repeat if len(data) < 10_000 else max(5, args.repeat // 20)
        floor = median_us(lambda: json.loads(data), repeat)
        full = median_us(lambda: judge.read_reply(data, 1, "zet()"), repeat)
        assert isinstance(judge.read_reply(data, 1, "zet()"), judge.Answer)
        print(f"{name:34} {len(data):>9} {floor:>10.1f} us {full:>10.1f} us")


if __name__ == "__main__":
    main()
