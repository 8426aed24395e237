"""Per-bot control groups (cgroup v1 or a delegated v2 subtree), where the machine allows them.

One :class:`BotCgroup` holds one bot's whole process tree and gives the parent four things
that no per-process mechanism gives:

* ``pids``: a cap on tasks (processes *and* threads) that binds root too (``RLIMIT_NPROC``
  does not), and the list of every task, even one that left the process group;
* ``cpuacct`` (v2: ``cpu.stat``): the CPU time of the whole tree, in nanoseconds;
* ``memory``: a cap on resident memory (including files the bot writes to a tmpfs), and
  whether the kernel's OOM killer fired;
* killing every task of the bot, repeatedly, until the group is empty.

The cgroup freezer is deliberately not used to stop a bot between its turns: on cgroup v1 a
freeze/thaw pair costs about 0.4 ms (measured), more than the harness's whole per-move cost;
SIGSTOP/SIGCONT costs 5 us (see :mod:`harness.sandbox.process`).

Directories are named ``harness-<owner pid>-<random>``: one left behind by a harness that was
killed (``kill -9``) is removed by the next harness once its owner is gone and it is empty.
"""

from __future__ import annotations

import os
import signal
import sys
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path

from harness.sandbox.stale import owner_alive

V1_ROOT = Path("/sys/fs/cgroup")
PREFIX = "harness-"
# Controllers the harness uses, by cgroup v1 hierarchy name.
V1_CONTROLLERS = ("pids", "cpuacct", "memory")


def _writable(path: Path) -> bool:
    return path.is_dir() and os.access(path, os.W_OK)


def _v1_hierarchies() -> dict[str, Path]:
    """Writable cgroup v1 hierarchies by controller (``cpuacct`` may be ``cpu,cpuacct``)."""
    if not sys.platform.startswith("linux"):
        return {}
    found: dict[str, Path] = {}
    try:
        mounts = Path("/proc/self/mounts").read_text().splitlines()
    except OSError:
        return {}
    for line in mounts:
        parts = line.split()
        if len(parts) < 4 or parts[2] != "cgroup":
            continue
        options = set(parts[3].split(","))
        for name in V1_CONTROLLERS:
            if name in options and name not in found and _writable(Path(parts[1])):
                found[name] = Path(parts[1])
    return found


def _v2_root() -> tuple[Path, set[str]] | None:
    """A writable cgroup v2 directory whose children get ``pids``/``cpu``/``memory``, if any."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        mounts = Path("/proc/self/mounts").read_text().splitlines()
    except OSError:
        return None
    for line in mounts:
        parts = line.split()
        if len(parts) < 3 or parts[2] != "cgroup2":
            continue
        root = Path(parts[1])
        try:
            own = Path("/proc/self/cgroup").read_text().splitlines()
            rel = next((x.split(":", 2)[2] for x in own if x.startswith("0::")), "/")
        except (OSError, StopIteration):
            rel = "/"
        # The harness's own cgroup (delegated by systemd, e.g. ``systemd-run --user -p Delegate=yes``)
        # or the mount root: whichever has the controllers enabled for its children.
        for base in (root / rel.lstrip("/"), root):
            try:
                enabled = set((base / "cgroup.subtree_control").read_text().split())
            except OSError:
                continue
            wanted = enabled & {"pids", "cpu", "memory"}
            if wanted and _writable(base):
                return base, wanted
    return None


@dataclass(frozen=True)
class CgroupSupport:
    """What this machine lets the harness do with cgroups."""

    version: int  # 1 or 2; 0 when unavailable
    controllers: frozenset[str] = frozenset()  # among "pids", "cpu", "memory"
    where: str = ""  # the directory (v2) or hierarchy roots (v1)
    reason: str = ""  # why not, when unavailable

    @property
    def available(self) -> bool:
        return self.version > 0


_SUPPORT: CgroupSupport | None = None


def support() -> CgroupSupport:
    """Probe (once per process) which cgroup features the harness can use here."""
    global _SUPPORT
    if _SUPPORT is None:
        _SUPPORT = _probe()
    return _SUPPORT


def _probe() -> CgroupSupport:
    if not sys.platform.startswith("linux"):
        return CgroupSupport(0, reason=f"no cgroups on {sys.platform}")
    v1 = _v1_hierarchies()
    if v1:
        names = {"cpu" if k == "cpuacct" else k for k in v1}
        return CgroupSupport(1, frozenset(names), ", ".join(str(p) for p in v1.values()))
    v2 = _v2_root()
    if v2 is not None:
        return CgroupSupport(2, frozenset(v2[1]), str(v2[0]))
    reason = "no writable cgroup hierarchy (not root, or cgroup v2 without a delegated subtree)"
    return CgroupSupport(0, reason=reason)


def _owner_alive(name: str) -> bool:
    parts = name.split("-")
    if len(parts) < 3 or not parts[1].isdigit():
        return True  # not ours to judge (an older naming): leave it
    return owner_alive(int(parts[1]))


_SWEPT = False


def sweep_stale() -> int:
    """Remove empty ``harness-<pid>-*`` cgroups whose owning harness process is gone."""
    removed = 0
    roots = list(_v1_hierarchies().values())
    v2 = _v2_root()
    if v2 is not None:
        roots.append(v2[0])
    for root in roots:
        try:
            names = [p.name for p in root.iterdir() if p.name.startswith(PREFIX)]
        except OSError:
            continue
        for name in names:
            if _owner_alive(name):
                continue
            try:
                (root / name).rmdir()  # fails (EBUSY) if it still holds a task: then it stays
                removed += 1
            except OSError:
                pass
    return removed


@dataclass
class BotCgroup:
    """The cgroup(s) of one bot: one directory per v1 hierarchy, or one v2 directory."""

    version: int
    dirs: dict[str, Path] = field(default_factory=dict)  # controller -> directory (v2: all the same)
    _cpu_fd: int | None = None

    @classmethod
    def create(cls, max_tasks: int, memory_bytes: int | None) -> BotCgroup | None:
        """Make the bot's cgroup(s) with a task cap and a memory cap; ``None`` if not possible."""
        global _SWEPT
        sup = support()
        if not sup.available:
            return None
        if not _SWEPT:
            _SWEPT = True
            sweep_stale()
        name = f"{PREFIX}{os.getpid()}-{uuid.uuid4().hex[:10]}"
        group = cls(sup.version)
        try:
            if sup.version == 1:
                for controller, root in _v1_hierarchies().items():
                    path = root / name
                    path.mkdir()
                    group.dirs[controller] = path
            else:
                v2 = _v2_root()
                if v2 is None:
                    return None
                path = v2[0] / name
                path.mkdir()
                group.dirs = {c: path for c in ("pids", "cpuacct", "memory", "v2")}
            group._configure(max_tasks, memory_bytes)
        except OSError:
            group.remove()
            return None
        return group

    def _configure(self, max_tasks: int, memory_bytes: int | None) -> None:
        if "pids" in self.dirs:
            (self.dirs["pids"] / "pids.max").write_text(str(max_tasks))
        if memory_bytes and "memory" in self.dirs:
            if self.version == 1:
                (self.dirs["memory"] / "memory.limit_in_bytes").write_text(str(memory_bytes))
                try:  # no swap beyond the cap either, where the kernel accounts swap
                    (self.dirs["memory"] / "memory.memsw.limit_in_bytes").write_text(str(memory_bytes))
                except OSError:
                    pass
            else:
                (self.dirs["memory"] / "memory.max").write_text(str(memory_bytes))
                try:
                    (self.dirs["memory"] / "memory.swap.max").write_text("0")
                except OSError:
                    pass
        cpu_file = None
        if self.version == 1 and "cpuacct" in self.dirs:
            cpu_file = self.dirs["cpuacct"] / "cpuacct.usage"
        elif self.version == 2:
            cpu_file = self.dirs["v2"] / "cpu.stat"
        if cpu_file is not None and cpu_file.exists():
            self._cpu_fd = os.open(cpu_file, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0))

    @property
    def controllers(self) -> set[str]:
        """The controllers this bot's cgroup uses."""
        names = set(self.dirs) - {"v2"}
        if self._cpu_fd is None:
            names.discard("cpuacct")
        return names

    def enroll(self, pids: list[int]) -> None:
        """Move ``pids`` into the cgroup(s). Raises OSError if a move fails."""
        for path in {str(p): p for p in self.dirs.values()}.values():
            for pid in pids:
                (path / "cgroup.procs").write_text(str(pid))

    def cpu_ns(self) -> int | None:
        """CPU time (user + system) of every task that ever ran in the cgroup, in ns."""
        if self._cpu_fd is None:
            return None
        try:
            data = os.pread(self._cpu_fd, 512, 0)
        except OSError:
            return None
        if self.version == 1:
            return int(data)
        for line in data.split(b"\n"):  # v2: "usage_usec N" first
            if line.startswith(b"usage_usec "):
                return int(line.split()[1]) * 1000
        return None

    def pids(self) -> list[int]:
        """The processes currently in the cgroup."""
        path = self.dirs.get("pids") or next(iter(self.dirs.values()), None)
        if path is None:
            return []
        try:
            return [int(x) for x in (path / "cgroup.procs").read_text().split()]
        except (OSError, ValueError):
            return []

    def oom_killed(self) -> bool:
        """True if the kernel's OOM killer killed a task of the bot at the memory cap."""
        path = self.dirs.get("memory")
        if path is None:
            return False
        try:
            if self.version == 1:
                text = (path / "memory.oom_control").read_text()
                counts = dict(line.split() for line in text.splitlines() if len(line.split()) == 2)
                if "oom_kill" in counts:
                    return int(counts["oom_kill"]) > 0
                return int((path / "memory.failcnt").read_text()) > 0 and counts.get("under_oom") == "1"
            events = dict(line.split() for line in (path / "memory.events").read_text().splitlines())
            return int(events.get("oom_kill", 0)) > 0
        except (OSError, ValueError):
            return False

    def kill_all(self) -> None:
        """SIGKILL every process in the cgroup (repeated: a fork may race the first pass)."""
        if self.version == 2 and "v2" in self.dirs:
            try:
                (self.dirs["v2"] / "cgroup.kill").write_text("1")
            except OSError:
                pass
        for _ in range(20):
            pids = self.pids()
            if not pids:
                return
            for pid in pids:
                try:
                    os.kill(pid, signal.SIGKILL)
                    os.kill(pid, signal.SIGCONT)  # a stopped task must run to die promptly
                except (ProcessLookupError, PermissionError):
                    pass

    def remove(self) -> None:
        """Kill what is left and delete the cgroup(s) (each must be empty to go)."""
        if self._cpu_fd is not None:
            os.close(self._cpu_fd)
            self._cpu_fd = None
        if not self.dirs:
            return
        self.kill_all()
        for path in {str(p): p for p in self.dirs.values()}.values():
            for _ in range(200):
                try:
                    path.rmdir()
                    break
                except FileNotFoundError:
                    break
                except OSError:
                    time.sleep(0.005)  # killed tasks leave the cgroup a moment after SIGKILL
        self.dirs = {}


class PidsCgroup:
    """The former name of the bot's cgroup, kept for callers that only ask whether there is one."""

    @classmethod
    def available(cls) -> bool:
        """True if this machine lets the harness create pids cgroups."""
        return "pids" in support().controllers


__all__ = ["BotCgroup", "CgroupSupport", "PidsCgroup", "support", "sweep_stale"]
