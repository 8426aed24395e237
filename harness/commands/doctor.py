"""``harness doctor``: which isolation features are active on this machine, and a live check."""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from typing import Any

from harness.cli import UsageError


def _live_check() -> str:
    """Start a trivial bot in the sandbox, call it, and say how it went."""
    from harness.games.base import Call
    from harness.sandbox.checks.calibrate import CALIBRATION_BOT, CALIBRATION_GAME
    from harness.sandbox.limits import Limits
    from harness.sandbox.process import BotProcess

    t0 = time.perf_counter()
    with BotProcess(CALIBRATION_GAME, CALIBRATION_BOT, label="doctor", limits=Limits()) as bot:
        loaded = bot.load()
        started = time.perf_counter() - t0
        if not loaded.ok:
            return f"FAILED: a trivial bot did not start: {loaded.reason}"
        bot.call(Call("__init__", ("doctor",), "init"))
        result = bot.call(Call("work", (0.0,), "move"))
        mode = "bubblewrap" if bot.bwrap else "a plain process"
        cg = ", ".join(sorted(bot.cgroup.controllers)) if bot.cgroup is not None else "none"
        return (f"a trivial bot started in {started * 1000:.0f} ms in {mode} (cgroups: {cg}; CPU time from "
                f"{bot.meter.source}) and answered a call in {result.wall * 1000:.2f} ms")


def _interpreter_report(named: str | None) -> None:
    """Which interpreter bots run on, and how fast it is against the others here (cached figures)."""
    from harness.sandbox import interpreter

    chosen = interpreter.chosen()
    how = "named by --interpreter" if named else "the system's own" if chosen in map(os.path.realpath, interpreter.SYSTEM) \
        else "the harness's own"
    print(f"interpreter (the judge's clock, every tier): {interpreter.summary(interpreter.describe(chosen))}, {how}")
    lines, warning = interpreter.compare(chosen)
    print("  a fixed CPU workload (best of 5, cached):")
    for line in lines:
        print(f"    {line}")
    if warning is not None:
        print(f"WARNING: {warning}")


def cmd_doctor(args: argparse.Namespace) -> int:
    from harness.sandbox import isolation, privileges
    from harness.sandbox.limits import POLICIES, Limits

    if args.policy is not None and args.policy not in POLICIES:
        raise UsageError(f"--policy must be wall or cpu, got {args.policy!r}")
    if args.interpreter is not None:  # the live check and the calibration run on it too
        from harness.sandbox import interpreter

        why = interpreter.check(args.interpreter)
        if why is not None:
            raise UsageError(f"--interpreter: {why}")
        interpreter.use(args.interpreter)
    uid = os.geteuid() if hasattr(os, "geteuid") else "n/a"
    print(f"harness doctor: {platform.system()} {platform.release()}, Python {platform.python_version()} "
          f"({sys.executable}), uid {uid}, {os.cpu_count()} CPUs")
    features = isolation.report("auto")
    width = max(len(f.name) for f in features)
    for f in features:
        print(f"  [{'x' if f.active else ' '}] {f.name:<{width}}  {f.how}")
    refused = isolation.seccomp_refuses()
    if refused:
        print("the seccomp filter refuses (EPERM; a bot gets an OSError):")
        for family in refused:
            print(f"  - {family}")
    if isolation.use_bwrap("auto"):
        mode = "bubblewrap"
    elif isolation.effective_mode("auto") == "plain":
        mode = "plain processes (HARNESS_ISOLATION=plain)"
    elif privileges.is_root():
        mode = "plain processes, each as a uid of its own (bubblewrap does not work here)"
    else:
        mode = "plain processes with resource limits and the guard only: no filesystem or network isolation"
    print(f"bots will run in: {mode}")
    print(f"tier: {isolation.tier('auto')}")
    print("plain mode (no bubblewrap) does not stop:" if mode != "bubblewrap" else
          "without bubblewrap (plain mode) the harness would not stop:")
    for gap in isolation.plain_gaps():
        print(f"  - {gap}")
    print(f"live check: {_live_check()}")
    _interpreter_report(args.interpreter)
    from harness import door

    print(f"submissions' bytes: {door.describe()}")
    if args.calibrate:
        from harness.sandbox.checks.calibrate import self_check

        # The very check `harness run` makes, under a job's default limits (cpu, 1.5x backstop).
        report = self_check(Limits.default(policy=args.policy))
        print(report.summary())
        return 0 if report.fair else 1
    return 0


def register(sub: Any) -> None:
    """Add ``harness doctor``."""
    doctor = sub.add_parser("doctor", help="show which sandbox isolation features work on this machine")
    doctor.add_argument("--calibrate", action="store_true",
                        help="also run the timing self-check (exit code 1 if timing would be unfair now)")
    doctor.add_argument("--policy", help="the limit policy to calibrate for: wall or cpu "
                                         "(default: a job's, cpu with a 1.5x wall-clock backstop)")
    doctor.add_argument("--interpreter", metavar="PYTHON",
                        help="the interpreter a job names for its bots (`interpreter:`): compared with the others here")
    doctor.set_defaults(func=cmd_doctor)
