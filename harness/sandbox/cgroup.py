"""A per-bot pids cgroup (cgroup v1 or v2), where the machine lets the harness make one.

It caps the number of tasks (processes and threads) the bot can have, whatever its user id
(``RLIMIT_NPROC`` does not bind root), and lets the parent kill every task of the bot, even
one that left the process group.
"""

from __future__ import annotations

import os
import signal
import time
import uuid
from pathlib import Path

_ROOTS = (Path("/sys/fs/cgroup/pids"), Path("/sys/fs/cgroup"))


def _writable_root() -> Path | None:
    v1, v2 = _ROOTS
    if (v1 / "pids.max").exists() or (v1 / "cgroup.procs").exists():
        return v1 if os.access(v1, os.W_OK) else None
    try:
        delegated = "pids" in (v2 / "cgroup.subtree_control").read_text().split()
    except OSError:
        return None
    return v2 if delegated and os.access(v2, os.W_OK) else None


class PidsCgroup:
    """One cgroup holding one bot's process tree."""

    def __init__(self, path: Path) -> None:
        self.path = path

    @classmethod
    def available(cls) -> bool:
        """True if this machine lets the harness create pids cgroups."""
        return _writable_root() is not None

    @classmethod
    def create(cls, pid: int, max_tasks: int) -> PidsCgroup | None:
        """Move ``pid`` into a new cgroup capped at ``max_tasks``; ``None`` if not possible."""
        root = _writable_root()
        if root is None:
            return None
        path = root / f"harness-{uuid.uuid4().hex[:12]}"
        try:
            path.mkdir()
            (path / "pids.max").write_text(str(max_tasks))
            (path / "cgroup.procs").write_text(str(pid))
        except OSError:
            try:
                path.rmdir()
            except OSError:
                pass
            return None
        return cls(path)

    def pids(self) -> list[int]:
        """The processes currently in the cgroup."""
        try:
            return [int(x) for x in (self.path / "cgroup.procs").read_text().split()]
        except (OSError, ValueError):
            return []

    def kill_all(self) -> None:
        """SIGKILL every process in the cgroup (repeated: a fork may race the first pass)."""
        for _ in range(10):
            pids = self.pids()
            if not pids:
                return
            for pid in pids:
                try:
                    os.kill(pid, signal.SIGKILL)
                except (ProcessLookupError, PermissionError):
                    pass

    def remove(self) -> None:
        """Kill what is left and delete the cgroup (it must be empty to go)."""
        self.kill_all()
        for _ in range(100):
            try:
                self.path.rmdir()
                return
            except OSError:
                time.sleep(0.01)  # the killed tasks leave the cgroup a moment after SIGKILL
