"""Deleting what a finished bot leaves, its cgroup and its folder, off the game's path.

By the time :meth:`harness.sandbox.process.BotProcess.close` hands them over, every process of
the bot was sent SIGKILL (its cgroup's tasks, its process group, its worker) and bubblewrap
was reaped. What is left takes time, not decisions: the killed tasks leave the cgroup a moment
later (a cgroup can only be removed empty), and the folder's files are deleted. One background
thread per harness process does both, so the game's thread goes on to its next game. The
thread never dies: a folder it cannot delete (:mod:`harness.sandbox.remove`) or any other
failure is one line on stderr, and it goes on with the next job.

:func:`settle` waits until everything handed over is gone; it runs at exit, and a check that
nothing of a bot survived calls it first.
"""

from __future__ import annotations

import atexit
import os
import sys
import threading
from collections.abc import Callable
from pathlib import Path

from harness.sandbox.cgroup import BotCgroup
from harness.sandbox.remove import remove_or_report

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
            remove_or_report(folder)  # iterative, flags cleared; what it cannot remove: one line

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
        except Exception as exc:  # noqa: BLE001 - the thread must outlive any one folder or cgroup
            print(f"harness: warning: cleanup after a bot failed ({type(exc).__name__}: {exc})", file=sys.stderr)
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
