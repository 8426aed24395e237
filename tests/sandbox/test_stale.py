"""What a killed harness leaves behind is removed by the next one, and only that."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from harness.sandbox.stale import DIR_PREFIX, LIB_PREFIX, owner_alive, sweep_stale_dirs


def wait_until_zombie(child: subprocess.Popen, timeout: float = 60.0) -> None:
    """Wait until the killed ``child`` has exited, without reaping it (it stays a zombie).

    SIGKILL is delivered asynchronously: on a busy machine the child may take a while to be
    scheduled and die. ``waitid(WNOWAIT)`` reports an exited child and leaves it unreaped.
    """
    deadline = time.monotonic() + timeout
    while os.waitid(os.P_PID, child.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is None:
        assert time.monotonic() < deadline, f"the killed child {child.pid} did not exit within {timeout} s"
        time.sleep(0.01)
    if sys.platform.startswith("linux"):  # exited and unreaped: the process table shows a zombie
        assert Path(f"/proc/{child.pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "Z"


def test_folders_of_a_dead_harness_are_swept_and_live_ones_kept() -> None:
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()  # reaped: its pid names no process now
    zombie = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    os.kill(zombie.pid, signal.SIGKILL)  # killed, not yet reaped: a zombie, as a killed owner may be
    wait_until_zombie(zombie)
    root = Path(tempfile.gettempdir())
    live = Path(tempfile.mkdtemp(prefix=f"{DIR_PREFIX}{os.getpid()}-", dir=root))
    other = Path(tempfile.mkdtemp(prefix="harness-botany-", dir=root))  # not ours at all
    try:
        dead = [Path(tempfile.mkdtemp(prefix=f"{DIR_PREFIX}{pid}-", dir=root)) for pid in (gone.pid, zombie.pid)]
        (dead[0] / "code").mkdir()
        (dead[0] / "code" / "player.py").write_text("x = 1\n")
        assert owner_alive(os.getpid()) and not owner_alive(gone.pid)
        assert not owner_alive(zombie.pid) or not sys.platform.startswith("linux")
        assert sweep_stale_dirs() >= 2
        assert not any(d.exists() for d in dead)
        assert live.is_dir() and other.is_dir()
    finally:
        zombie.wait()
        for d in (live, other):
            d.rmdir()


def test_compiled_bot_side_files_of_a_dead_harness_are_swept_and_live_ones_kept() -> None:
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()
    root = Path(tempfile.gettempdir())
    live = Path(tempfile.mkdtemp(prefix=f"{LIB_PREFIX}{os.getpid()}-", dir=root))
    dead = Path(tempfile.mkdtemp(prefix=f"{LIB_PREFIX}{gone.pid}-", dir=root))
    try:
        (dead / "__pycache__").mkdir()
        (dead / "_harness_guard.py").write_text("x = 1\n")
        os.chmod(dead / "_harness_guard.py", 0o444)  # read-only files, as botside makes them
        assert sweep_stale_dirs() >= 1
        assert not dead.exists() and live.is_dir()
    finally:
        live.rmdir()
