"""Per-bot control groups (cgroup v1 or a delegated v2 subtree), where the machine allows them.

One :class:`BotCgroup` holds one bot's whole process tree and gives the parent four things
that no per-process mechanism gives:

* ``pids``: a cap on tasks (processes *and* threads) that binds root too (``RLIMIT_NPROC``
  does not), and the list of every task, even one that left the process group;
* ``cpuacct`` (v2: ``cpu.stat``): the CPU time of the whole tree, in nanoseconds;
* ``memory``: a cap on resident memory (including files the bot writes to a tmpfs), and
  whether the kernel's OOM killer fired;
* ``freezer`` (v2: ``cgroup.freeze``): stopping every task of the bot at once, including
  processes it started in new sessions, between its turns;
* killing every task of the bot, repeatedly, until the group is empty.

A freeze/thaw pair costs about 0.17 ms on cgroup v1 (measured: ``python bench/bench_turns.py``),
SIGSTOP/SIGCONT of the worker about 1 us. So :class:`harness.sandbox.turns.Turns` stops the
worker with a signal while it is the bot's only process (``pids.current`` says so in one read)
and freezes the whole group from the first time it is not.

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
AT_CAP_SLACK = 4 << 20  # v1: a peak usage this close to the cap counts as reaching it (charges come in pages and batches)
# Controllers the harness uses, by cgroup v1 hierarchy name.
V1_CONTROLLERS = ("pids", "cpuacct", "memory", "freezer")


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
                return base, wanted | {"freezer"}  # cgroup.freeze: every v2 cgroup but the root
    return None


@dataclass(frozen=True)
class CgroupSupport:
    """What this machine lets the harness do with cgroups."""

    version: int  # 1 or 2; 0 when unavailable
    controllers: frozenset[str] = frozenset()  # among "pids", "cpu", "memory", "freezer"
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
    _freeze_fd: int | None = None  # freezer.state (v1) or cgroup.freeze (v2)
    _tasks_fd: int | None = None  # pids.current
    frozen: bool = False
    limits: tuple[int, int | None] | None = None  # the caps last set (max_tasks, memory_bytes)

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
        self.set_limits(max_tasks, memory_bytes)
        self._open_fds()

    def set_limits(self, max_tasks: int, memory_bytes: int | None) -> None:
        """Cap the group's tasks and (if given) its memory, swap included. Raises OSError."""
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
        self.limits = (max_tasks, memory_bytes)

    def _open_fds(self) -> None:
        cpu_file = None
        if self.version == 1 and "cpuacct" in self.dirs:
            cpu_file = self.dirs["cpuacct"] / "cpuacct.usage"
        elif self.version == 2:
            cpu_file = self.dirs["v2"] / "cpu.stat"
        if cpu_file is not None and cpu_file.exists():
            self._cpu_fd = os.open(cpu_file, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0))
        # Kept open: a turn costs one pread/pwrite on them, never a path lookup.
        freeze_file = (self.dirs["freezer"] / "freezer.state" if "freezer" in self.dirs
                       else self.dirs["v2"] / "cgroup.freeze" if "v2" in self.dirs else None)
        if freeze_file is not None and freeze_file.exists():
            self._freeze_fd = os.open(freeze_file, os.O_RDWR | getattr(os, "O_CLOEXEC", 0))
        if "pids" in self.dirs:
            self._tasks_fd = os.open(self.dirs["pids"] / "pids.current", os.O_RDONLY | getattr(os, "O_CLOEXEC", 0))

    @property
    def controllers(self) -> set[str]:
        """The controllers this bot's cgroup uses."""
        names = set(self.dirs) - {"v2"}
        if self._cpu_fd is None:
            names.discard("cpuacct")
        if self._freeze_fd is not None:
            names.add("freezer")
        return names

    @property
    def can_freeze(self) -> bool:
        """True if the whole group can be frozen at once."""
        return self._freeze_fd is not None

    def freeze(self) -> None:
        """Stop every task of the group, present and future (a fork in a frozen group is frozen too).

        The kernel freezes the tasks asynchronously: one still running on another core stops at
        its next return to user space, microseconds later; nothing it does meanwhile is the
        opponent's (its CPU time is charged to this cgroup).
        """
        if self._freeze_fd is not None and not self.frozen:
            os.pwrite(self._freeze_fd, b"FROZEN" if self.version == 1 else b"1", 0)
            self.frozen = True

    def thaw(self) -> None:
        """Let the group's tasks run again."""
        if self._freeze_fd is not None and self.frozen:
            os.pwrite(self._freeze_fd, b"THAWED" if self.version == 1 else b"0", 0)
            self.frozen = False

    def task_count(self) -> int | None:
        """Tasks (processes and threads, zombies included) in the group now, from ``pids.current``."""
        if self._tasks_fd is None:
            return None
        try:
            return int(os.pread(self._tasks_fd, 32, 0))
        except (OSError, ValueError):
            return None

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
        """True if the kernel's OOM killer killed a task of the bot *at its memory cap*."""
        return self.oom_evidence() == "cap"

    def oom_evidence(self) -> str | None:
        """What this cgroup's own records say the kernel's OOM killer did to the bot's tasks.

        ``"cap"``: it killed a task of the bot at the bot's own memory cap (the bot's ``memory``);
        ``"host"``: it killed a task of the bot while the bot was *under* its cap, so the memory ran
        out above it (the machine, or a cgroup around the harness such as a Slurm job's); ``None``:
        it killed no task of this bot. These are the bot's own counters: a kill anywhere else on
        the machine (another bot's children at *their* cap) moves none of them.

        The cgroup's ``oom_kill`` counts the kills of its own tasks, whoever's shortage caused
        them, so the cap's own record tells the two apart: v2 ``memory.events`` ``oom`` (an
        allocation met *this* cgroup's ``memory.max``; a shortage above it counts only there), v1
        ``memory.failcnt`` or a peak usage at the cap (a charge refused by an ancestor's limit
        counts in the ancestor's ``failcnt``). Measured on cgroup v1 (Linux 6.18): a task under
        its own 1 GiB cap in a parent capped at 200 MiB, killed by the parent's OOM: the child's
        ``oom_kill`` 1, ``failcnt`` 0, its peak 200 MiB; the parent's ``oom_kill`` 0.
        """
        path = self.dirs.get("memory")
        if path is None:
            return None
        try:
            if self.version == 1:
                text = (path / "memory.oom_control").read_text()
                counts = dict(line.split() for line in text.splitlines() if len(line.split()) == 2)
                at_cap = int((path / "memory.failcnt").read_text()) > 0 or \
                    int((path / "memory.max_usage_in_bytes").read_text()) >= \
                    int((path / "memory.limit_in_bytes").read_text()) - AT_CAP_SLACK
                if "oom_kill" not in counts:  # before Linux 4.13: no count of kills, only "at the cap now"
                    return "cap" if at_cap and counts.get("under_oom") == "1" else None
                killed = int(counts["oom_kill"]) > 0
            else:
                events = dict(line.split() for line in (path / "memory.events").read_text().splitlines())
                if int(events.get("oom", 0)) > 0:  # its own cap met with nothing left to reclaim
                    return "cap"
                killed, at_cap = int(events.get("oom_kill", 0)) > 0, False
        except (OSError, ValueError):
            return None
        if not killed:
            return None
        return "cap" if at_cap else "host"

    def kill_all(self) -> None:
        """SIGKILL every process in the cgroup (repeated: a fork may race the first pass)."""
        if self.frozen:  # killed while frozen: SIGKILL first, then thaw (a frozen v1 task cannot die)
            self._signal_all(signal.SIGKILL)
            try:
                self.thaw()
            except OSError:
                pass
        if self.version == 2 and "v2" in self.dirs:
            try:
                (self.dirs["v2"] / "cgroup.kill").write_text("1")
            except OSError:
                pass
        for _ in range(20):
            if not self._signal_all(signal.SIGKILL, signal.SIGCONT):  # a stopped task must run to die promptly
                return

    def _signal_all(self, *signals: int) -> bool:
        """Send ``signals`` to every process of the group; False if it has none."""
        pids = self.pids()
        for pid in pids:
            for sig in signals:
                try:
                    os.kill(pid, sig)
                except (ProcessLookupError, PermissionError):
                    pass
        return bool(pids)

    def stop_all(self, sig: int) -> None:
        """Send ``sig`` (SIGSTOP or SIGCONT) to every process of the group: the freezer's fallback."""
        self._signal_all(sig)

    def _close_fds(self) -> None:
        for name in ("_cpu_fd", "_freeze_fd", "_tasks_fd"):
            fd = getattr(self, name)
            if fd is not None:
                os.close(fd)
                setattr(self, name, None)

    def remove(self) -> None:
        """Kill what is left and delete the cgroup(s) (each must be empty to go)."""
        if not self.dirs:
            self._close_fds()
            return
        self.kill_all()
        self._close_fds()
        # Killed tasks leave the cgroup a moment after SIGKILL; on a machine loaded far beyond
        # its cores that moment can last seconds.
        deadline = time.monotonic() + 10.0
        for path in {str(p): p for p in self.dirs.values()}.values():
            while True:
                try:
                    path.rmdir()
                    break
                except FileNotFoundError:
                    break
                except OSError:
                    if time.monotonic() > deadline:
                        break
                    self.kill_all()
                    time.sleep(0.005)
        self.dirs = {}


class PidsCgroup:
    """The former name of the bot's cgroup, kept for callers that only ask whether there is one."""

    @classmethod
    def available(cls) -> bool:
        """True if this machine lets the harness create pids cgroups."""
        return "pids" in support().controllers


__all__ = ["BotCgroup", "CgroupSupport", "PidsCgroup", "support", "sweep_stale"]
