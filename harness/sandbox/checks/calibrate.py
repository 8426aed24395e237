"""The self-check before a grading run or a tournament: can this machine time bots fairly now?

A calibration bot runs under the real limits, in the real sandbox, and computes a known amount
of CPU time per call (30 % of the move limit in the self-check). The wall-clock clocks judge a
bot's *own* time, elapsed time less its wait for a CPU (see :mod:`harness.sandbox.timing`),
so load alone is no reason to refuse: the self-check reports the load and refuses only what it
cannot time fairly. Two figures decide:

* the **own-time/CPU ratio** of its calls: the wall-clock time the clocks would charge per
  second of computing. Near 1 when the run-queue wait is measured, whatever the load; high
  when it cannot be measured (no /proc schedstat) and the machine is loaded. Under the
  ``wall`` policy it must stay close to 1 (default: at most 1.15); under the ``cpu`` policy
  it only has to leave room below the backstop (default: at most the backstop / 1.2);
* the **CPU-time error**: the parent's measurement of the bot's CPU time against what the bot
  itself burnt (default: at most 0.03 s + 5 %), which both policies rely on.

The **wall/CPU ratio** (the machine's load as a bot feels it) is reported, never judged.
:func:`self_check` is the one check that ``harness run``, Dask workers and ``harness doctor
--calibrate`` make; :func:`ensure_fair_timing` raises :class:`HarnessUnfit` with one line when
it fails, so a run refuses to start instead of producing unfair verdicts.
"""

from __future__ import annotations

import os
import statistics
from dataclasses import dataclass, field, replace
from typing import Any

from harness.games.base import Call, GameSpec
from harness.sandbox.limits import Limits
from harness.sandbox.process import BotProcess

CALIBRATION_BOT = b'''
import time


class Player:
    """Burns exactly the requested CPU time (its own process's clock) on every call."""

    def __init__(self, name):
        self.name = name

    def work(self, seconds):
        start = time.process_time()
        x = 0
        while time.process_time() - start < seconds:
            for i in range(2000):
                x += i
        return time.process_time() - start
'''

CALIBRATION_GAME: GameSpec[Any, Any] = GameSpec(name="calibration", title="calibration", rules=None,  # type: ignore[arg-type]
                                                adapter=None)  # type: ignore[arg-type]


class HarnessUnfit(RuntimeError):
    """The machine cannot time bots fairly right now (too loaded, or CPU accounting is off)."""


@dataclass
class CalibrationReport:
    """What the calibration bot measured, and the verdict on the machine."""

    policy: str
    limit: float  # the move limit the bot ran under
    work: float  # CPU seconds the bot burnt per call
    calls: int
    backstop: float = 0.0  # the cpu policy's wall-clock backstop (a multiple of the limit)
    walls: list[float] = field(default_factory=list)  # parent-measured wall time per call
    waits: list[float] = field(default_factory=list)  # of which the bot waited for a CPU (not charged)
    cpus: list[float] = field(default_factory=list)  # parent-measured CPU time per call
    burnt: list[float] = field(default_factory=list)  # CPU time the bot reports it burnt
    cpu_source: str = ""  # "cgroup", "proc" or "bot"
    isolation: str = ""  # "bubblewrap" or "plain"
    load: tuple[float, float, float] | None = None
    max_ratio: float = 0.0
    max_cpu_error: float = 0.0
    problems: list[str] = field(default_factory=list)

    @property
    def ratio(self) -> float:
        """Median own time (wall-clock time less the wait for a CPU) per CPU second: what is judged."""
        waits = self.waits or [0.0] * len(self.walls)
        pairs = [(w - q) / c for w, q, c in zip(self.walls, waits, self.cpus) if c > 0]
        return statistics.median(pairs) if pairs else float("inf")

    @property
    def load_ratio(self) -> float:
        """Median wall-clock time per CPU second: how loaded the machine is, as a bot feels it."""
        pairs = [w / c for w, c in zip(self.walls, self.cpus) if c > 0]
        return statistics.median(pairs) if pairs else float("inf")

    @property
    def cpu_error(self) -> float:
        """Largest difference between the parent's CPU figure and what the bot burnt."""
        return max((abs(c - b) for c, b in zip(self.cpus, self.burnt)), default=float("inf"))

    @property
    def fair(self) -> bool:
        return not self.problems

    def summary(self) -> str:
        """A few lines for a terminal."""
        load = "n/a" if self.load is None else " ".join(f"{x:.2f}" for x in self.load)
        lines = [f"timing self-check: {self.calls} calls of {self.work:.2f} s CPU under the {self.policy} policy "
                 f"({self.limit:g} s limit" + (f", backstop {self.backstop:g}x" if self.policy == "cpu" else "")
                 + f"), {self.isolation}, CPU time from {self.cpu_source}",
                 f"  judged time/CPU {self.ratio:.2f} (allowed {self.max_ratio:.2f}); CPU-time error "
                 f"{self.cpu_error * 1000:.1f} ms (allowed {self.max_cpu_error * 1000:.1f} ms)",
                 f"  load: wall/CPU {self.load_ratio:.2f} (the wait for a CPU is measured and not charged); "
                 f"load average {load}"]
        lines.append("  fair: yes" if self.fair else "  fair: NO - " + "; ".join(self.problems))
        return "\n".join(lines)


def calibrate(limits: Limits | None = None, *, calls: int = 3, work: float | None = None,
              max_ratio: float | None = None, max_cpu_error: float | None = None) -> CalibrationReport:
    """Run the calibration bot under ``limits`` and measure the machine (never raises for load)."""
    limits = limits or Limits()
    work = work if work is not None else round(limits.move * 0.5, 3)
    if max_ratio is None:
        # Under the cpu policy only the wall-clock backstop can charge a bot for the machine's
        # load: a bot at its CPU limit must finish well within the backstop (20 % to spare).
        max_ratio = 1.15 if limits.policy == "wall" else max(1.15, limits.backstop / 1.2)
    report = CalibrationReport(policy=limits.policy, limit=limits.move, backstop=limits.backstop, work=work,
                               calls=calls, max_ratio=max_ratio, max_cpu_error=0.0)
    report.max_cpu_error = max_cpu_error if max_cpu_error is not None else 0.03 + 0.05 * work
    if hasattr(os, "getloadavg"):
        report.load = os.getloadavg()
    # The bot itself must never be the problem: its calls get generous room on both clocks.
    roomy = replace(limits, move=max(limits.move, work * 10), init=max(limits.init, 5.0), backstop=10.0)
    with BotProcess(CALIBRATION_GAME, CALIBRATION_BOT, label="calibration", limits=roomy) as bot:
        started = bot.load()
        report.isolation = "bubblewrap" if bot.bwrap else "plain process"
        if not started.ok:
            report.problems.append(f"the calibration bot did not start: {started.reason}")
            return report
        if not (result := bot.call(Call("__init__", ("calibration",), "init"))).ok:
            report.problems.append(f"the calibration bot did not start: {result.reason}")
            return report
        bot.call(Call("work", (0.01,), "move"))  # warm-up: caches, page faults
        report.cpu_source = bot.meter.source
        for _ in range(calls):
            result = bot.call(Call("work", (work,), "move"))
            if not result.ok or not isinstance(result.value, float):
                report.problems.append(f"a calibration call failed: {result.reason}")
                return report
            report.walls.append(result.wall)
            report.waits.append(result.waited)
            report.cpus.append(result.cpu if result.cpu is not None else result.value)
            report.burnt.append(result.value)
    if report.ratio > max_ratio:
        report.problems.append(
            f"a bot computing {work:.2f} s per call would be charged {report.ratio:.2f} s of wall-clock time per "
            f"CPU second (allowed {max_ratio:.2f} under the {limits.policy} policy): the machine is loaded and "
            f"the harness cannot measure a bot's wait for a CPU here (/proc/<pid>/schedstat)")
    if report.cpu_error > report.max_cpu_error:
        report.problems.append(
            f"the harness measured the bot's CPU time {report.cpu_error * 1000:.0f} ms away from what it "
            f"burnt (allowed {report.max_cpu_error * 1000:.0f} ms)")
    return report


def self_check(limits: Limits) -> CalibrationReport:
    """The timing self-check before games are played under ``limits``: the same for every command."""
    return calibrate(limits, calls=3, work=round(limits.move * 0.3, 3))


def ensure_fair_timing(limits: Limits | None = None, **options: Any) -> CalibrationReport:
    """:func:`calibrate` (by default: :func:`self_check`), raising :class:`HarnessUnfit` (one line) if unfair."""
    limits = limits or Limits()
    report = calibrate(limits, **options) if options else self_check(limits)
    if not report.fair:
        raise HarnessUnfit(f"refusing to start: cannot time bots fairly now: {report.problems[0]}. "
                           f"To play anyway: harness run --no-self-check")
    return report


__all__ = ["CALIBRATION_BOT", "CalibrationReport", "HarnessUnfit", "calibrate", "ensure_fair_timing", "self_check"]
