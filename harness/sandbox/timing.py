"""How the parent measures a bot's CPU time, without trusting the bot's process.

Three sources, best first:

* :class:`CgroupMeter`: the bot's cgroup (``cpuacct.usage`` or ``cpu.stat``): every task
  of its process tree, in nanoseconds; about 2 us per reading.
* :class:`ProcMeter`: ``/proc/<pid>/stat`` of the bot's process (all its threads; 10 ms
  resolution), used to cross-check the figure the bot's process reports about itself.
* none (macOS, Windows): the bot's own report, which a hostile bot could falsify; the
  wall-clock backstop still bounds every call.
"""

from __future__ import annotations

import os


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


__all__ = ["CgroupMeter", "CpuMeter", "ProcMeter"]
