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
a loaded machine costs a bot nothing. :data:`CEILING` bounds every call whatever the load.
"""

from __future__ import annotations

import os
import threading

# No call lasts longer than this many times its limit in wall-clock time, however long the bot
# waited for a CPU (a bot that lowers its own priority must not stall a game for ever).
CEILING = 10.0


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
    The threads are those of the worker when it said hello (its main thread and the thread
    that runs the bot's code), and the parent's thread that waits for the reply: its own wait
    to read the answer is not the bot's either. Threads or processes the bot starts itself
    get no credit (the caller checks), so a bot cannot earn time by making its own threads compete.
    """

    def __init__(self, pid: int) -> None:
        self.fds: list[int] = []
        try:
            tids = os.listdir(f"/proc/{pid}/task")
        except OSError:
            tids = []
        for tid in tids:
            try:
                self.fds.append(os.open(f"/proc/{pid}/task/{tid}/schedstat", os.O_RDONLY | getattr(os, "O_CLOEXEC", 0)))
            except OSError:
                continue
        self.threads = len(self.fds)  # the worker's, not counting the parent's thread
        if self.fds:
            parent = _parent_thread_schedstat()
            if parent is not None:
                self.fds.append(parent)

    @property
    def available(self) -> bool:
        return bool(self.fds)

    def read(self) -> tuple[int, ...]:
        """Each thread's total run-queue wait so far, in ns (-1 where it cannot be read)."""
        out = []
        for fd in self.fds:
            try:
                out.append(int(os.pread(fd, 128, 0).split()[1]))
            except (OSError, ValueError, IndexError):
                out.append(-1)
        return tuple(out)

    @staticmethod
    def waited(before: tuple[int, ...], after: tuple[int, ...]) -> float:
        """Seconds the threads waited for a CPU between two readings (the caller caps it at the wall time).

        Summed: a call hands the turn from the parent's thread to the worker's main thread, to
        the bot's thread and back, one after the other, and each of them may wait.
        """
        return sum(a - b for b, a in zip(before, after) if b >= 0 and a >= 0) / 1e9

    def close(self) -> None:
        for fd in self.fds[:self.threads]:  # the parent's thread's descriptor is shared (per thread)
            os.close(fd)
        self.fds = []


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


def own_time(wall: float, wait: float) -> float:
    """The part of ``wall`` that was the bot's own (running, or asleep by choice): wall minus CPU wait."""
    return max(0.0, wall - min(max(wait, 0.0), wall))


__all__ = ["CEILING", "CgroupMeter", "CpuMeter", "ProcMeter", "WaitMeter", "own_time"]
