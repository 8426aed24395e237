"""The parent's cap on a plain-mode bot's disk (harness/sandbox/workcap.py): what it counts, and when it walks.

The hostile bots (tests/hostile/test_syscalls.py, test_escape.py) attack it through real games;
these pin its parts: a real process holding unlinked files, a preallocated file, and the rule
that decides when a walk is due, on its own numbers.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from harness.sandbox import workcap
from harness.sandbox.workcap import WorkCap, held_open, walk

MiB = 1 << 20

HOLDER = textwrap.dedent("""
    import mmap, os, sys
    os.chdir(sys.argv[1])
    with open("mapped", "w+b") as f:
        f.write(b"m" * (2 << 20))
        f.flush()
        view = mmap.mmap(f.fileno(), 0)
    os.unlink("mapped")  # held by the mapping alone
    fd = os.open("open", os.O_CREAT | os.O_RDWR, 0o600)
    os.write(fd, b"o" * (3 << 20))
    os.unlink("open")  # held by the descriptor alone
    kept = os.open("kept", os.O_CREAT | os.O_RDWR, 0o600)
    os.write(kept, b"k" * (1 << 20))  # linked: the walk's, not counted twice
    print("ready", flush=True)
    sys.stdin.read()
""")


@pytest.mark.skipif(not Path("/proc/self/map_files").exists(), reason="needs Linux's /proc")
def test_files_held_after_unlinking_are_counted(tmp_path: Path) -> None:
    child = subprocess.Popen([sys.executable, "-c", HOLDER, str(tmp_path)], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout is not None and child.stdout.readline() == "ready\n"
        size, entries, deep, seen = walk(str(tmp_path), 1000)
        assert entries == 1 and not deep and 1 * MiB <= size < 2 * MiB  # the folder shows only "kept"
        held = held_open([child.pid], set(seen))
        assert 5 * MiB <= held < 6 * MiB, held  # 3 MiB open + 2 MiB mapped, "kept" not again
        cap = WorkCap(tmp_path, 4 * MiB, child.pid)
        assert cap.check() == ("the bot's working folder grew past 4 MiB (6 MiB written; the cap on its folder)")
        assert WorkCap(tmp_path, 8 * MiB, child.pid).check() is None
    finally:
        child.kill()
        child.wait()
    assert held_open([child.pid], set()) == 0  # gone with its process


def test_preallocated_blocks_are_counted(tmp_path: Path) -> None:
    """(A bot cannot preallocate under the seccomp filter; the walk counts it all the same.)"""
    fd = os.open(tmp_path / "reserved", os.O_CREAT | os.O_RDWR, 0o600)
    try:
        os.posix_fallocate(fd, 0, 3 * MiB)
    except OSError as exc:  # a file system without fallocate
        pytest.skip(f"no fallocate here: {exc}")
    finally:
        os.close(fd)
    size = walk(str(tmp_path), 1000)[0]
    assert size >= 3 * MiB and os.stat(tmp_path / "reserved").st_size == 3 * MiB


class Rule(WorkCap):
    """A cap whose readings are set by the test: the bytes written and the file system's use."""

    def __init__(self, folder: Path, limit: int) -> None:
        self.wrote = 0
        self.fs = 0
        super().__init__(folder, limit, None, pids=lambda: [])
        self.readable = True

    def _grown(self) -> int | None:
        grown, self.wrote = self.wrote, 0
        return grown

    def _used(self) -> int | None:
        return self.fs


def test_a_walk_is_due_when_the_writes_could_reach_the_cap(tmp_path: Path) -> None:
    cap = Rule(tmp_path, 64 * MiB)
    cap.check(0.0)
    assert cap.walks == 1 and cap.held < MiB
    # half the headroom (about 32 MiB) written, and the file system grew as much: due
    cap.wrote, cap.fs = 20 * MiB, 20 * MiB
    assert cap.poll(0.1) is None and cap.walks == 1
    cap.wrote, cap.fs = 13 * MiB, 33 * MiB
    assert cap.poll(0.2) is None and cap.walks == 2
    # rewrites of the same bytes: written, but the file system did not grow: no walk ...
    cap.wrote = 40 * MiB
    assert cap.poll(0.3) is None and cap.walks == 2
    cap.wrote = 40 * MiB
    assert cap.poll(1.0) is None and cap.walks == 2
    # ... until the last walk is GAP old
    cap.wrote = 1
    assert cap.poll(0.2 + workcap.GAP) is None and cap.walks == 3


def test_near_the_cap_every_mib_is_due_but_never_sooner_than_the_spacing(tmp_path: Path) -> None:
    cap = Rule(tmp_path, 64 * MiB)
    cap.check(0.0)
    cap.held = 63 * MiB  # as if the last walk had found 63 MiB: the least trigger, 1 MiB
    cap.cost = 0.05  # and had taken 50 ms of the parent's CPU
    cap.wrote, cap.fs = MiB, MiB
    assert cap.poll(0.1) is None and cap.walks == 1  # due, but not before 3 x 50 ms
    assert cap.next_at == pytest.approx(workcap.SPACING * 0.05)
    cap.fs = 2 * MiB
    assert cap.poll(0.16) is None and cap.walks == 2  # the pending bytes stayed due


def test_the_end_of_a_call_skips_a_walk_only_when_nothing_could_reach_the_cap(tmp_path: Path) -> None:
    cap = Rule(tmp_path, 64 * MiB)
    cap.check()
    cap.cost = 10.0  # a costly last walk, just now
    cap.wrote = MiB
    assert cap.settle() is None and cap.walks == 1  # 1 MiB of 64: skipped
    cap.wrote, cap.fs = 40 * MiB, 40 * MiB
    assert cap.settle() is None and cap.walks == 2  # enough to matter: walked
    cap.cost = 0.0  # a cheap walk is always made
    assert cap.settle() is None and cap.walks == 3
