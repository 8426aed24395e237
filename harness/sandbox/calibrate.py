"""The self-check before a grading run or a tournament: can this machine time bots fairly now?

A calibration bot runs under the real limits, in the real sandbox, and computes a known amount
of CPU time per call (half the move limit by default). Two figures decide:

* the **wall/CPU ratio** of its calls: how much longer than its own computation a bot waits
  for the machine. Under the ``wall`` policy a bot is charged for that wait, so the ratio must
  stay close to 1 (default: at most 1.15); under the ``cpu`` policy it only has to leave room
  below the wall-clock backstop (default: at most the backstop / 1.2, i.e. 1.25 for 1.5x);
* the **CPU-time error**: the parent's measurement of the bot's CPU time against what the bot
  itself burnt (default: at most 0.03 s + 5 %), which both policies rely on.

:func:`ensure_fair_timing` raises :class:`HarnessUnfit` with a one-line message when either is
out of bounds, so a run refuses to start instead of producing unfair verdicts.
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
    walls: list[float] = field(default_factory=list)  # parent-measured wall time per call
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
        """Median wall-clock time per CPU second of the calibration calls."""
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
        lines = [f"calibration: {self.calls} calls of {self.work:.2f} s CPU under the {self.policy} policy "
                 f"({self.limit:g} s limit), {self.isolation}, CPU time from {self.cpu_source}",
                 f"  wall/CPU ratio {self.ratio:.2f} (allowed {self.max_ratio:.2f}); CPU-time error "
                 f"{self.cpu_error * 1000:.1f} ms (allowed {self.max_cpu_error * 1000:.1f} ms); load average {load}"]
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
    report = CalibrationReport(policy=limits.policy, limit=limits.move, work=work, calls=calls,
                               max_ratio=max_ratio, max_cpu_error=0.0)
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
            report.cpus.append(result.cpu if result.cpu is not None else result.value)
            report.burnt.append(result.value)
    if report.ratio > max_ratio:
        report.problems.append(
            f"a bot computing {work:.2f} s per call waited {report.ratio:.2f} s of wall-clock time per "
            f"CPU second (allowed {max_ratio:.2f} under the {limits.policy} policy): the machine is too loaded")
    if report.cpu_error > report.max_cpu_error:
        report.problems.append(
            f"the harness measured the bot's CPU time {report.cpu_error * 1000:.0f} ms away from what it "
            f"burnt (allowed {report.max_cpu_error * 1000:.0f} ms)")
    return report


def ensure_fair_timing(limits: Limits | None = None, **options: Any) -> CalibrationReport:
    """:func:`calibrate`, raising :class:`HarnessUnfit` (one line) if timing would be unfair."""
    report = calibrate(limits, **options)
    if not report.fair:
        hint = (" Wait for an idle machine, run fewer games in parallel, or use the cpu policy."
                if report.policy == "wall" else " Wait for an idle machine or run fewer games in parallel.")
        raise HarnessUnfit(f"refusing to start: cannot time bots fairly now: {report.problems[0]}.{hint}")
    return report


__all__ = ["CALIBRATION_BOT", "CalibrationReport", "HarnessUnfit", "calibrate", "ensure_fair_timing"]
