"""How the parent measures a bot's CPU time, without trusting the bot's process.

Three sources, best first:

* :class:`CgroupMeter`: the bot's cgroup (``cpuacct.usage`` or ``cpu.stat``): every task
  of its process tree, in nanoseconds; about 2 us per reading.
* :class:`ProcMeter`: ``/proc/<pid>/stat`` of the bot's process (all its threads; 10 ms
  resolution), used to cross-check the figure the bot's process reports about itself.
* none (macOS, Windows): the bot's own report, which a hostile bot could falsify; the
  wall-clock backstop still bounds every call.

The wall-clock clocks (the ``wall`` policy, the ``cpu`` policy's backstop) judge the bot's
*own* time: elapsed time minus the time its threads waited for a CPU (:class:`WaitMeter`), so
a loaded machine costs a bot nothing. The rule itself (allowances, own time, the reasons) is
:mod:`harness.sandbox.bot.deadline`.
"""

from __future__ import annotations

import os
import threading

_BATCH_OR_IDLE = (3, 5)  # SCHED_BATCH, SCHED_IDLE


class CpuMeter:
    """A clock of the bot's CPU time (seconds); ``read()`` is None when it cannot tell."""

    source = "bot"  # where figures come from: "cgroup", "proc", or the bot's own report

    def read(self) -> float | None:
        return None

    def judge(self, measured: float | None, reported: float | None) -> float | None:
        """The CPU time to charge for a call, from this meter's delta and the bot's report."""
        return measured if measured is not None else reported

    def close(self) -> None:
        """Release the meter's descriptors."""


class CgroupMeter(CpuMeter):
    """CPU time of the whole cgroup: authoritative."""

    source = "cgroup"

    def __init__(self, cgroup: object) -> None:
        self.cgroup = cgroup

    def read(self) -> float | None:
        ns = self.cgroup.cpu_ns()  # type: ignore[attr-defined]
        return None if ns is None else ns / 1e9


class ProcMeter(CpuMeter):
    """utime + stime of one process (all its threads) from /proc: coarse but independent."""

    source = "proc"
    TICK = 1.0 / os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 0.01

    def __init__(self, pid: int) -> None:
        self.fd: int | None = os.open(f"/proc/{pid}/stat", os.O_RDONLY | getattr(os, "O_CLOEXEC", 0))

    @classmethod
    def open(cls, pid: int) -> ProcMeter | None:
        try:
            return cls(pid)
        except OSError:
            return None

    def read(self) -> float | None:
        if self.fd is None:
            return None
        try:
            data = os.pread(self.fd, 1024, 0)
        except OSError:
            return None
        fields = data.rsplit(b")", 1)[-1].split()
        try:  # fields 14 and 15 of stat; after the command name they are the 12th and 13th
            return (int(fields[11]) + int(fields[12])) * self.TICK
        except (IndexError, ValueError):
            return None

    def judge(self, measured: float | None, reported: float | None) -> float | None:
        # The report is finer (ns) and trusted while it agrees with /proc within two ticks;
        # a report lower than that is a lie or a patched worker: /proc's figure counts.
        if measured is None:
            return reported
        if reported is None or reported < measured - 2 * self.TICK - 0.01 * measured:
            return measured
        return reported

    def close(self) -> None:
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None



class WaitMeter:
    """How long the bot's worker threads waited for a CPU (run-queue wait), from the kernel.

    ``/proc/<pid>/task/<tid>/schedstat`` holds, per thread, the time it ran, the time it was
    runnable but waiting for a CPU, and its time slices. The wait is the machine's load, not
    the bot's work: the wall-clock clocks judge a bot's *own* time, elapsed minus this wait.
    The threads are the worker's (the bot's thread, which serves the calls, and any the bot
    starts: call :meth:`rescan` when their number changes) and the parent's thread that waits
    for the reply: its own wait to read the answer is not the bot's either. Threads in ``skip``
    are not followed: the worker's clock thread only keeps the worker's clock, off the call's
    path, so its wait delays no answer. Processes the bot starts get no credit (the caller
    checks), and the caller keeps the credit from outrunning the bot's CPU.
    """

    def __init__(self, pid: int, skip: frozenset[int] = frozenset()) -> None:
        self.pid = pid
        self.skip = frozenset(str(t) for t in skip)
        self.tids: dict[str, int] = {}  # the worker's threads followed: tid -> descriptor
        self.listed = 0  # the worker's threads at the last rescan, skipped ones included
        self.parent = _parent_thread_schedstat()
        self.rescan()
        self.threads = self.listed  # the worker's threads when it said hello

    def rescan(self) -> None:
        """Follow the worker's threads as they are now (a thread that ended takes its wait along)."""
        try:
            now = set(os.listdir(f"/proc/{self.pid}/task"))
        except OSError:
            now = set()
        self.listed = len(now)
        now -= self.skip
        for tid in set(self.tids) - now:
            os.close(self.tids.pop(tid))
        for tid in now - set(self.tids):
            try:
                self.tids[tid] = os.open(f"/proc/{self.pid}/task/{tid}/schedstat", os.O_RDONLY | os.O_CLOEXEC)
            except OSError:
                continue
        # What read() reads, listed once here rather than at every call's start.
        self._sources = [*self.tids.items(), *((("parent", self.parent),) if self.parent is not None else ())]

    @property
    def available(self) -> bool:
        return bool(self.tids)

    def lowered(self) -> bool:
        """True if a thread of the worker runs at a lower priority than the harness (nicer, or
        SCHED_BATCH/SCHED_IDLE): waiting for a CPU is then the bot's choice, not the machine's load."""
        own = os.getpriority(os.PRIO_PROCESS, 0) if hasattr(os, "getpriority") else 0
        for tid in list(self.tids):
            try:
                with open(f"/proc/{self.pid}/task/{tid}/stat", "rb") as f:
                    fields = f.read().rsplit(b")", 1)[1].split()
                if int(fields[16]) > own or int(fields[38]) in _BATCH_OR_IDLE:  # stat fields 19 and 41
                    return True
            except (OSError, ValueError, IndexError):
                continue
        return False

    def read(self) -> dict[str, int]:
        """Each thread's total run-queue wait so far, in ns (the parent's thread under "parent")."""
        out = {}
        pread = os.pread
        for tid, fd in self._sources:
            try:
                out[tid] = int(pread(fd, 128, 0).split(None, 2)[1])
            except (OSError, ValueError, IndexError):
                continue
        return out

    @staticmethod
    def waited(before: dict[str, int], after: dict[str, int]) -> float:
        """Seconds the threads waited for a CPU between two readings (the caller caps it).

        Summed: a call hands the turn from the parent's thread to the worker's main thread, to
        the bot's thread and back, one after the other, and each of them may wait. A thread
        born in between counts from its start.
        """
        return sum(a - before.get(tid, 0) for tid, a in after.items()) / 1e9

    def close(self) -> None:
        for fd in self.tids.values():  # the parent's thread's descriptor is shared (per thread)
            os.close(fd)
        self.tids = {}
        self._sources = []


_THREAD = threading.local()


def _parent_thread_schedstat() -> int | None:
    """A descriptor of this thread's own schedstat, opened once per thread."""
    fd = getattr(_THREAD, "schedstat", None)
    if fd is None:
        try:
            fd = _THREAD.schedstat = os.open("/proc/thread-self/schedstat", os.O_RDONLY | getattr(os, "O_CLOEXEC", 0))
        except OSError:
            return None
    return fd


__all__ = ["CgroupMeter", "CpuMeter", "ProcMeter", "WaitMeter"]
