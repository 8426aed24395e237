"""What the container-tier checks cost the parent: the folder cap's walk, the shared folder's seal,
and removing what a bot left.

    python bench/bench_cleanup.py [--repeat 200] [--depth 3000]

1. ``workcap.usage`` of a bot's working folder with 3 files (a typical bot) and with 4,000 (the
   most the cap lets a walk see): median per walk;
2. ``botside._seal`` of this process's compiled bot-side folder (checked at every bot start);
3. removing a chain of ``--depth`` folders built by renames: ``remove_tree`` against ``rm -rf``
   (``shutil.rmtree`` raises ``RecursionError`` on it).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from harness.sandbox import botside  # noqa: E402
from harness.sandbox.remove import remove_tree  # noqa: E402
from harness.sandbox.workcap import MAX_ENTRIES, usage  # noqa: E402


def median_us(function: object, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        function()  # type: ignore[operator]
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1e6


def chain(root: Path, depth: int) -> None:
    here = os.getcwd()
    os.chdir(root)
    try:
        os.mkdir("d")
        for _ in range(depth):
            os.mkdir("n")
            os.rename("d", "n/d")
            os.rename("n", "d")
    finally:
        os.chdir(here)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=200)
    parser.add_argument("--depth", type=int, default=3000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-cleanup-") as tmp:
        small, large = Path(tmp, "small"), Path(tmp, "large")
        small.mkdir()
        large.mkdir()
        for i in range(3):
            (small / f"f{i}").write_bytes(b"x" * 10000)
        for i in range(4000):
            (large / f"f{i}").write_bytes(b"x")
        print(f"workcap walk, 3 files:     {median_us(lambda: usage(str(small), MAX_ENTRIES), args.repeat):8.1f} us")
        print(f"workcap walk, 4000 files:  {median_us(lambda: usage(str(large), MAX_ENTRIES), args.repeat):8.1f} us")
        lib = botside.folder()
        print(f"seal check of {lib.name} ({len(botside._seal(lib))} entries): "
              f"{median_us(lambda: botside._seal(lib), args.repeat):8.1f} us")
        for name, remove in (("remove_tree", lambda p: remove_tree(p)),
                             ("rm -rf", lambda p: subprocess.run(["rm", "-rf", str(p)], check=True))):
            folder = Path(tmp, name.replace(" ", ""))
            folder.mkdir()
            chain(folder, args.depth)
            start = time.perf_counter()
            remove(folder)
            print(f"{name:12s} of a {args.depth}-deep chain: {time.perf_counter() - start:6.2f} s"
                  f" (left: {folder.exists()})")


if __name__ == "__main__":
    main()
