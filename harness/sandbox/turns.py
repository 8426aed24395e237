"""Between a bot's turns and within them: who is stopped, and whose time a call's wall clock was.

:class:`Turns` stops every process of one bot while its opponent is being timed: SIGSTOP of
the worker while it is the bot's only process (one read of the cgroup's ``pids.current`` and
one of the worker's thread count check that), and from the first time it is not, the cgroup
freezer (SIGSTOP of every process in the cgroup where there is no freezer). A freeze/thaw pair
costs about 0.17 ms on cgroup v1, a signal about 1 us (``python bench/bench_turns.py``).

:class:`OwnClock` turns a call's wall-clock time into the bot's own time: elapsed time less
the time its threads (and the parent's thread reading the reply) waited for a CPU, from
:class:`~harness.sandbox.timing.WaitMeter`. No credit while the bot runs a process of its own
or a thread at a lowered priority; never less than its CPU time over the cores it could use.
"""

from __future__ import annotations

import os
import signal
from collections.abc import Callable

from harness.sandbox.cgroup import BotCgroup
from harness.sandbox.bot.deadline import own_time
from harness.sandbox.timing import WaitMeter

NCPU = os.cpu_count() or 1
BWRAP_TASKS = 2  # bubblewrap's own processes in the bot's cgroup (outside monitor, namespace init)


class Turns:
    """Stops and resumes every process of one bot; knows whether its worker is alone."""

    def __init__(self, worker_pid: int, cgroup: BotCgroup | None, bwrap: bool,
                 signal_worker: Callable[[int], None]) -> None:
        self.cgroup = cgroup
        self.bwrap = bwrap
        self.signal_worker = signal_worker
        self.whole_group = False  # the bot once had a process besides its worker: stop it all from then on
        self.stopped: tuple[str, ...] = ()  # how the bot is stopped now: "worker", "freezer", "group"
        # The worker's thread count: the link count of its /proc task folder (threads + 2), one
        # fstat (about 0.7 us) where /proc/<pid>/stat must be formatted and parsed (about 2.5 us).
        self.task_fd: int | None = None
        try:
            self.stat_fd: int | None = os.open(f"/proc/{worker_pid}/stat", os.O_RDONLY | os.O_CLOEXEC)
        except (OSError, AttributeError):
            self.stat_fd = None
        try:
            task_fd = os.open(f"/proc/{worker_pid}/task", os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
        except (OSError, AttributeError):
            return
        if os.fstat(task_fd).st_nlink - 2 == self._stat_threads() and len(os.listdir(task_fd)) == self._stat_threads():
            self.task_fd = task_fd  # this kernel counts threads in the link count: trusted from now on
        else:
            os.close(task_fd)

    def worker_threads(self) -> int | None:
        """The worker's threads now, or None if unknown."""
        if self.task_fd is not None:
            try:
                threads = os.fstat(self.task_fd).st_nlink - 2
            except OSError:
                return None
            return threads if threads > 0 else None  # 0: the worker is gone
        return self._stat_threads()

    def _stat_threads(self) -> int | None:
        """The worker's threads from field 20 of /proc/<pid>/stat, or None if unknown."""
        if self.stat_fd is None:
            return None
        try:  # num_threads: the 18th field after the command name
            return int(os.pread(self.stat_fd, 1024, 0).rsplit(b")", 1)[1].split(None, 18)[17])
        except (OSError, ValueError, IndexError):
            return None

    def lone_worker(self) -> bool:
        """True if the cgroup holds only the worker's threads (and bubblewrap's two processes)."""
        if self.cgroup is None:
            return True  # nothing to count with: the worker is all the harness can stop
        tasks, threads = self.cgroup.task_count(), self.worker_threads()
        if tasks is None or threads is None:
            return False  # cannot tell: stop the whole group
        return tasks <= threads + (BWRAP_TASKS if self.bwrap else 0)

    def pause(self) -> None:
        """Stop every process of the bot: the worker with one signal while it is alone, else the group."""
        cg = self.cgroup
        how: tuple[str, ...] = ()
        if cg is None or not self.whole_group:
            # First: the worker cannot start a process once its SIGSTOP is pending (a fork that
            # begins after it restarts after SIGCONT), so the count read next is final, but for
            # a fork already under way: that one shows in the next turn's count.
            self.signal_worker(signal.SIGSTOP)
            how = ("worker",)
            if cg is not None and not self.lone_worker():
                self.whole_group = True  # from now on, every turn (the bot may start more)
        if cg is not None and self.whole_group:
            try:
                if cg.can_freeze:
                    cg.freeze()
                    how += ("freezer",)
                else:
                    cg.stop_all(signal.SIGSTOP)
                    how += ("group",)
            except OSError:
                cg.stop_all(signal.SIGSTOP)
                how += ("group",)
        self.stopped = how

    def resume(self) -> None:
        """Let every process of the bot run again (as it was stopped)."""
        if "freezer" in self.stopped and self.cgroup is not None:
            self.cgroup.thaw()
        if "group" in self.stopped and self.cgroup is not None:
            self.cgroup.stop_all(signal.SIGCONT)
        if "worker" in self.stopped:
            self.signal_worker(signal.SIGCONT)
        self.stopped = ()

    def close(self) -> None:
        for fd in (self.stat_fd, self.task_fd):
            if fd is not None:
                os.close(fd)
        self.stat_fd = self.task_fd = None


class OwnClock:
    """The wait for a CPU credited to the current call of one bot (see the module's docstring)."""

    def __init__(self, waits: WaitMeter, turns: Turns) -> None:
        self.waits = waits
        self.turns = turns
        self.wait0: dict[str, int] = {}  # the threads' waits when the current call began
        self.wait1: dict[str, int] | None = None  # ... and when its reply was read
        self.credit: float | None = None  # the wait credited to the call, once its reply was read

    def begin(self) -> None:
        """The call begins (read just before its request is written)."""
        self.wait0 = self._read()
        self.wait1 = self.credit = None

    def end(self) -> None:
        """The reply was read: fix the credit now, with the wall clock, while the worker is alive."""
        self.wait1 = self._read()
        self.credit = self.waited()

    def _read(self) -> dict[str, int]:
        if self.waits.listed != self.turns.worker_threads():  # a thread born during a call counts from its start
            self.waits.rescan()
        return self.waits.read()

    def waited(self) -> float:
        """Seconds the bot's threads waited for a CPU since the call began, as credited (0 if none).

        No credit while the bot runs processes of its own besides its worker (their competition
        for the CPU is its own doing) or a thread at a lowered priority (its wait is its choice).
        """
        if self.credit is not None:
            return self.credit
        if not self.wait0 or self.turns.whole_group or not self.turns.lone_worker() or self.waits.lowered():
            return 0.0
        return WaitMeter.waited(self.wait0, self.wait1 if self.wait1 is not None else self._read())

    def cores(self) -> int:
        """How many cores the bot's work could spread over: 1 while it runs only its first threads.

        (Its own time is at least its CPU time over these: waits of threads that overlap are
        not credited twice.)
        """
        threads = self.turns.worker_threads()
        return 1 if threads is not None and threads <= self.waits.threads else NCPU

    def own(self, wall: float, cpu: float | None) -> float:
        """The bot's own part of ``wall`` seconds of the call, given its CPU time so far."""
        return own_time(wall, self.waited(), cpu, self.cores())

    def close(self) -> None:
        self.waits.close()


__all__ = ["BWRAP_TASKS", "OwnClock", "Turns"]
