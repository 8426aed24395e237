"""Bubblewrap started ahead in the bot's cgroup: the bot it becomes is born there, with the bot's
own caps, folders and environment, and nothing of an idle launcher outlives the harness."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from harness.games import get_game
from harness.games.base import Call, WireObject
from harness.sandbox import BotProcess, Limits, bubblewrap, cgroup, launcher, procfs, reaper
from harness.sandbox.spawn import scrubbed_env
from harness.sandbox.turns import BWRAP_TASKS
from tests.hostile.leftovers import bot_cgroups

GAME = get_game("priemspel")
VIEW = WireObject("Spel", {"_N": 5, "_positie": 0, "_eind": 23})
TRIVIAL = b"class Player:\n    def __init__(self, name):\n        pass\n    def zet(self, spel):\n        return 2\n"
IN_CI = os.environ.get("CI", "").lower() == "true"
pytestmark = pytest.mark.skipif(
    not IN_CI and not (bubblewrap.support().available and "pids" in cgroup.support().controllers),
    reason="bubblewrap and writable cgroups are needed (CI has both and skips none)")


def _wait_ready(count: int = 1, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while len(launcher.idle()) < count:
        assert time.monotonic() < deadline, f"no launcher ready within {timeout} s"
        time.sleep(0.01)


def _cgroups_of(pid: int) -> set[str]:
    return {line.split(":", 2)[2] for line in Path(f"/proc/{pid}/cgroup").read_text().splitlines()
            if line.split(":")[1] in ("pids", "cpuacct", "memory", "freezer")}


@pytest.fixture
def warm(no_leftovers: None) -> Iterator[None]:
    """A launcher is ready: one bot has started (and asked for launchers) before the test."""
    with BotProcess(GAME, TRIVIAL) as b:
        assert b.load().ok
    _wait_ready()
    yield


def test_a_bot_from_a_launcher_is_born_in_its_own_cgroup_with_its_caps(warm: None) -> None:
    limits = Limits(max_tasks=7, memory_bytes=300 << 20)
    with BotProcess(GAME, TRIVIAL, limits=limits) as b:
        assert b.load().ok and b.call(Call("__init__", ("x",), "init")).ok
        assert b._enrolled, "the start did not use a launcher made ahead"
        assert b.cgroup is not None and b.proc is not None and b.worker_pid is not None
        names = {f"/{p.name}" for p in b.cgroup.dirs.values()}
        assert len(names) == 1
        tree = procfs.tree(b.proc.pid)
        assert len(tree) == 3 and b.worker_pid in tree  # bwrap, its init, the worker
        for pid in tree:  # every process of the tree in the bot's group, in every hierarchy
            assert _cgroups_of(pid) == names, pid
        assert sorted(b.cgroup.pids()) == sorted(tree)
        caps = b.cgroup.dirs
        assert int((caps["pids"] / "pids.max").read_text()) == 7 + BWRAP_TASKS + 1  # its tasks, bwrap's, a spare
        memory = int((caps["memory"] / "memory.limit_in_bytes").read_text())
        assert memory == (300 << 20) + limits.work_bytes + (64 << 20)
        environ = dict(x.split("=", 1) for x in
                       Path(f"/proc/{b.worker_pid}/environ").read_bytes().decode().split("\0") if x)
        assert b.root is not None and environ["HOME"] == environ["TMPDIR"] == str(b.root / "work")
        # the bot's environment, none of the launcher's (bubblewrap's --chdir sets PWD, as it always did)
        assert environ == {**scrubbed_env(b.root / "work"), "PWD": str(b.root / "work")}
        assert os.readlink(f"/proc/{b.worker_pid}/cwd") == str(b.root / "work")
        assert b.call(Call("zet", (VIEW,), "move")).value == 2
        group = b.cgroup
    dirs = list(group.dirs.values())
    assert reaper.settle() and group.dirs == {} and not any(p.exists() for p in dirs)


def test_each_launcher_serves_one_bot(warm: None) -> None:
    seen = set()
    for _ in range(3):
        _wait_ready()
        with BotProcess(GAME, TRIVIAL) as b:
            assert b.load().ok and b._enrolled
            assert b.proc is not None and b.cgroup is not None
            seen.add((b.proc.pid, next(iter(b.cgroup.dirs.values())).name))
    assert len(seen) == 3


def test_drained_launchers_leave_nothing(warm: None) -> None:
    idle = launcher.idle()
    pids = [x.proc.pid for x in idle]
    assert launcher.drain() == len(idle) >= 1
    for pid in pids:
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)  # reaped by discard
    assert reaper.settle() and bot_cgroups() == []  # the warm-up bot's, deleted in the background


def test_idle_launchers_end_with_a_harness_killed_with_sigkill() -> None:
    code = ("import sys, time; sys.path.insert(0, sys.argv[1])\n"
            "from harness.games import get_game; from harness.sandbox import BotProcess, launcher\n"
            "with BotProcess(get_game('priemspel'), b'class Player:\\n    pass\\n') as b:\n"
            "    assert b.load().ok\n"
            "while len(launcher.idle()) < 2: time.sleep(0.01)\n"
            "print(' '.join(str(x.proc.pid) for x in launcher.idle()), flush=True)\n"
            "time.sleep(600)\n")
    harness = subprocess.Popen([sys.executable, "-c", code, str(Path(__file__).resolve().parents[2])],
                               stdout=subprocess.PIPE, text=True)
    try:
        assert harness.stdout is not None
        pids = [int(x) for x in harness.stdout.readline().split()]
        assert len(pids) == 2
        for pid in pids:
            assert Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")[1] == b"--args"
    finally:
        harness.send_signal(signal.SIGKILL)
        harness.wait()
    deadline = time.monotonic() + 30
    alive = pids
    while alive and time.monotonic() < deadline:  # bubblewrap reads the end of its options, exits
        alive = [p for p in pids if Path(f"/proc/{p}").exists()
                 and Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"]
        time.sleep(0.05)
    assert alive == [], "an idle launcher outlived its harness"
    # Its empty cgroups go with the next harness's sweep. A launcher that has just exited may
    # still be counted in its cgroup for a moment on a loaded machine (the rmdir fails with
    # EBUSY and the cgroup waits for the next sweep), so sweep until they are gone.
    left: list[Path] = []
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        assert cgroup.sweep_stale() >= 0
        left = [p for root in ("pids", "memory") for p in Path("/sys/fs/cgroup", root).glob(f"harness-{harness.pid}-*")]
        if not left:
            break
        time.sleep(0.1)
    assert left == []


def test_a_forked_child_owns_none_of_its_parent_s_launchers(warm: None) -> None:
    fds = [fd for x in launcher.idle() for fd in (x.args_w, x.req_w, x.rep_r)]
    assert fds
    pid = os.fork()
    if pid == 0:  # the child: an empty pool, and no copy of an end that would keep a launcher waiting
        ok = launcher.idle() == []
        for fd in fds:
            try:
                os.fstat(fd)
                ok = False
            except OSError:
                pass
        os._exit(0 if ok else 1)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    assert all(os.fstat(fd) for fd in fds)  # the parent's own ends stay open


def test_launchers_made_after_a_claim_already_have_its_caps(warm: None) -> None:
    """The caps are written ahead, off the start's path; a bot of other caps still gets its own."""
    limits = Limits(max_tasks=5, memory_bytes=200 << 20)
    tasks, memory = 5 + BWRAP_TASKS + 1, (200 << 20) + limits.work_bytes + (64 << 20)
    launcher.drain()
    with BotProcess(GAME, TRIVIAL, limits=limits) as b:  # asks for launchers of these caps
        assert b.load().ok
    _wait_ready()
    ready = launcher.idle()[0]
    assert ready.cgroup.limits == (tasks, memory)
    assert int((ready.cgroup.dirs["pids"] / "pids.max").read_text()) == tasks
    assert int((ready.cgroup.dirs["memory"] / "memory.limit_in_bytes").read_text()) == memory
    with BotProcess(GAME, TRIVIAL, limits=limits) as b:
        assert b.load().ok and b._enrolled and b.cgroup is not None
        assert int((b.cgroup.dirs["pids"] / "pids.max").read_text()) == tasks
    _wait_ready()
    other = Limits(max_tasks=3, memory_bytes=100 << 20)
    with BotProcess(GAME, TRIVIAL, limits=other) as b:
        assert b.load().ok and b._enrolled and b.cgroup is not None
        assert int((b.cgroup.dirs["pids"] / "pids.max").read_text()) == 3 + BWRAP_TASKS + 1
        assert int((b.cgroup.dirs["memory"] / "memory.limit_in_bytes").read_text()) == \
            (100 << 20) + other.work_bytes + (64 << 20)
