"""Deleting what a finished bot leaves, its cgroup and its folder, off the game's path.

By the time :meth:`harness.sandbox.process.BotProcess.close` hands them over, every process of
the bot was sent SIGKILL (its cgroup's tasks, its process group, its worker) and bubblewrap
was reaped. What is left takes time, not decisions: the killed tasks leave the cgroup a moment
later (a cgroup can only be removed empty), and the folder's files are deleted. One background
thread per harness process does both, so the game's thread goes on to its next game.

:func:`settle` waits until everything handed over is gone; it runs at exit, and a check that
nothing of a bot survived calls it first.
"""

from __future__ import annotations

import atexit
import os
import shutil
import threading
from collections.abc import Callable
from pathlib import Path

from harness.sandbox.cgroup import BotCgroup

_cond = threading.Condition()
_jobs: list[Callable[[], None]] = []
_busy = 0  # jobs handed over and not yet done
_thread: threading.Thread | None = None
_owner = os.getpid()


def later(cgroup: BotCgroup | None, folder: Path | None) -> None:
    """Remove ``cgroup`` (killing what is left in it) and delete ``folder``, in the background."""
    global _busy, _thread, _owner

    def job() -> None:
        if cgroup is not None:
            cgroup.remove()
        if folder is not None:
            shutil.rmtree(folder, ignore_errors=True)

    with _cond:
        if _owner != os.getpid():  # a forked child: its parent's thread is not here
            _owner, _thread, _busy = os.getpid(), None, 0
            _jobs.clear()
        _jobs.append(job)
        _busy += 1
        if _thread is None:
            _thread = threading.Thread(target=_run, name="harness-reaper", daemon=True)
            _thread.start()
        _cond.notify_all()


def _run() -> None:
    global _busy
    while True:
        with _cond:
            while not _jobs:
                _cond.wait()
            job = _jobs.pop(0)
        try:
            job()
        finally:
            with _cond:
                _busy -= 1
                _cond.notify_all()


def settle(timeout: float = 30.0) -> bool:
    """Wait until every cgroup and folder handed over is gone; False if ``timeout`` passed first."""
    with _cond:
        if _owner != os.getpid():
            return True
        return _cond.wait_for(lambda: _busy == 0, timeout)


atexit.register(settle)

__all__ = ["later", "settle"]
