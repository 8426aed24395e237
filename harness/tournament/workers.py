"""Which Dask workers may play a job: each checks itself, the coordinator judges them together.

On every worker (:func:`worker_self_check`): the timing self-check (the calibration bot under the
job's limits, in the worker's own sandbox), the sandbox tier its bots would run in, and its
speed: the CPU time of a fixed piece of pure Python (:func:`speed_probe`) on the interpreter its
bots run on (the job's ``interpreter:`` or the harness's rule), which need not be the worker's
own: a harness on an unoptimised build may run its bots on the system's optimised one.

On the coordinator (:func:`judge_workers`), a worker is refused, with one line, when

* its self-check fails (it cannot time bots fairly, or no bot starts there);
* its bots would run in a weaker sandbox tier than another fit worker's (``bubblewrap`` >
  ``container`` > ``unprotected``): every game of a job is played behind the same walls;
* its speed differs from the job's reference by more than ``cluster.speed_factor`` (default
  1.5x, either way): a bot's move limit buys the same computation on every worker. The
  reference is ``cluster.speed`` if the job states it, else the coordinator's own probe.

The refused workers take no game of the job; the others play them all.
"""

from __future__ import annotations

import os
import socket
import sys
from dataclasses import dataclass
from typing import Any

TIERS = ("unprotected", "container", "bubblewrap")  # weakest first


def speed_probe(python: str = "") -> float:
    """CPU seconds of :data:`harness.sandbox.interpreter.WORKLOAD` on ``python`` (empty: the
    interpreter this process's bots run on), measured now: the clock a move limit is judged on.

    Raises :class:`~harness.sandbox.interpreter.InterpreterError` if ``python`` does not run it.
    """
    from harness.sandbox import interpreter

    python = python or interpreter.chosen()
    seconds = interpreter.speed(python, cached=False)
    if seconds is None:
        raise interpreter.InterpreterError(f"{python} does not run the speed probe")
    return max(seconds, 1e-6)


def worker_self_check(limits: dict[str, Any], python: str = "") -> dict[str, Any]:
    """Run on a worker: its self-check verdict, bot tier, speed, host and interpreter (JSON).

    ``python``: the job's ``interpreter:`` (empty: the harness's rule), so that the calibration
    bot runs on the clock that will judge the job's bots on this worker.
    """
    from harness.sandbox import interpreter
    from harness.sandbox.checks.calibrate import self_check
    from harness.sandbox.container import tier
    from harness.sandbox.limits import Limits

    speed = 0.0
    try:
        interpreter.use(python or None)
        speed = speed_probe()
        report = self_check(Limits(**limits))
        fair, why = report.fair, ("fair" if report.fair else report.problems[0])
        bot_tier = tier(report.isolation == "bubblewrap")
    except Exception as exc:  # noqa: BLE001 - a worker whose sandbox breaks is refused, not the run
        fair, why, bot_tier = False, f"the self-check failed: {type(exc).__name__}: {str(exc)[:200]}", "none"
    return {"fair": fair, "why": why, "tier": bot_tier, "speed": speed,
            "host": socket.gethostname(), "python": f"{sys.executable} {sys.version.split()[0]}",
            "bots_python": _bots_python(),
            "pid": os.getpid()}


def _bots_python() -> str:
    """The interpreter this worker's bots run on, as the records name it."""
    from harness.sandbox import interpreter

    try:
        return interpreter.chosen()
    except Exception:  # noqa: BLE001 - a report, not a check: the self-check judged the worker
        return ""


@dataclass(frozen=True)
class Verdict:
    """The coordinator's judgement of one worker."""

    name: str
    fit: bool
    why: str  # empty when fit


def judge_workers(job_name: str, reports: dict[str, dict[str, Any]], names: dict[str, Any],
                  reference: float, factor: float) -> list[Verdict]:
    """Judge every worker's report (address -> report) against the job's reference speed."""
    verdicts: list[Verdict] = []
    fair = {a: r for a, r in reports.items() if r.get("fair")}
    best = max((TIERS.index(r["tier"]) for r in fair.values() if r.get("tier") in TIERS), default=-1)
    for address, report in sorted(reports.items()):
        name = str(names.get(address, address))
        ratio = report.get("speed", 0.0) / reference if reference > 0 else 1.0
        if not report.get("fair"):
            why = f"cannot time bots fairly: {report.get('why', '?')}"
        elif report.get("tier") not in TIERS or TIERS.index(report["tier"]) < best:
            why = (f"its bots would run in the {report.get('tier')} tier, the others' in {TIERS[best]}: "
                   f"every game of a job is played behind the same walls")
        elif ratio > factor or ratio < 1 / factor:
            slower = "slower" if ratio > 1 else "faster"
            times = ratio if ratio > 1 else 1 / ratio
            why = (f"it runs {times:.1f}x {slower} than the job's reference "
                   f"({report.get('speed', 0) * 1000:.0f} ms against {reference * 1000:.0f} ms for the speed "
                   f"probe; allowed {factor:g}x: cluster.speed_factor)")
        else:
            verdicts.append(Verdict(name, True, ""))
            continue
        verdicts.append(Verdict(name, False, f"{job_name}: worker {name} ({report.get('host', '?')}) refused: {why}"))
    return verdicts


__all__ = ["TIERS", "Verdict", "judge_workers", "speed_probe", "worker_self_check"]
