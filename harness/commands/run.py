"""``harness run JOB`` plays a job (or a group of jobs); ``harness validate`` checks the jobs file."""

from __future__ import annotations

import argparse
import dataclasses
import datetime
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from harness.cli import UsageError, positive, seconds
from harness.commands._jobs import add_config, config_of, jobs_of, progress, results_of
from harness.config import Job
from harness.submission import SubmissionError
from harness.tournament.execute import (Executor, LocalExecutor, RunSummary, interrupt_on_signals, run_job,
                                        with_workers)
from harness.text import block
from harness.tournament.formats import format_of
from harness.tournament.results import JobResults
from harness.tournament.store import StoreError, open_readonly


class Refused(Exception):
    """The timing self-check refused a job (exit code 1: the machine, not the command, is the problem)."""


def self_check(quiet: bool) -> Callable[[Job], None]:
    """The timing self-check before a job plays games here: refuses (one line) on an unfit machine."""
    from harness.sandbox.checks.calibrate import HarnessUnfit, ensure_fair_timing

    def check(job: Job) -> None:
        from harness.sandbox import interpreter

        try:
            interpreter.use(job.interpreter or None)  # calibrated on the clock that will judge the bots
            report = ensure_fair_timing(job.limits)
        except interpreter.InterpreterError as exc:
            raise Refused(f"{job.name}: interpreter: {exc}") from None
        except HarnessUnfit as exc:
            raise Refused(f"{job.name}: {exc}") from None
        if not quiet:  # the progress bar is up by now: a line of its own, not drawn over the bar
            from harness.terminal import say

            say(f"{job.name}: timing self-check passed (judged time/CPU {report.ratio:.2f} under the "
                f"{job.limits.policy} policy; load: wall/CPU {report.load_ratio:.2f}, not charged; "
                f"{report.isolation})")

    return check


def executor_for(args: argparse.Namespace, job: Job) -> Executor:
    flags = [f"--{k}" for k in ("partition", "jobs", "cores", "memory", "walltime") if getattr(args, k) is not None]
    if args.slurm and args.scheduler:
        raise UsageError("--slurm starts its own scheduler: give --slurm or --scheduler ADDRESS, not both")
    if flags and not args.slurm and job.cluster.slurm is None:
        raise UsageError(f"{flags[0]}: only with --slurm (or a job with a cluster: {{slurm: ...}} block)")
    if args.slurm or (job.cluster.slurm is not None and not args.scheduler):
        from harness.tournament.cluster import ClusterError
        from harness.tournament.slurm import SlurmExecutor, slurm_settings

        settings = slurm_settings(job.cluster.slurm, args.partition, args.jobs, args.cores, args.memory, args.walltime)
        try:
            return SlurmExecutor(settings, self_check=not args.no_self_check, log_directory=job.results / "slurm")
        except ClusterError as exc:
            raise UsageError(str(exc)) from None
    if args.scheduler:
        from harness.tournament.cluster import ClusterError, DaskExecutor

        try:
            return DaskExecutor(args.scheduler, timeout=args.scheduler_timeout, self_check=not args.no_self_check)
        except ClusterError as exc:
            raise UsageError(str(exc)) from None
    return LocalExecutor(job.workers)


def rejudge_of(args: argparse.Namespace, group: bool = False) -> Any:
    """The ``--rejudge`` request of the command line, or None (``group``: a job of the group
    without the login's games just runs)."""
    if args.rejudge_game is not None and not args.rejudge:
        raise UsageError("--rejudge-game N: name whose game N with --rejudge LOGIN (a game's number is the "
                         "bot's own: game 3 of alice, as her feedback and harness check number it)")
    if not args.rejudge:
        if args.by:
            raise UsageError("--by NAME: only with --rejudge LOGIN")
        if args.why:
            raise UsageError("--why TEXT: only with --rejudge LOGIN")
        return None
    from harness.tournament.rejudge import Rejudge, current_user

    from harness.text import line

    return Rejudge(args.rejudge, args.rejudge_game, args.by or current_user(), required=not group,
                   why=line(args.why or "").strip())


def run_one(args: argparse.Namespace, job: Job) -> RunSummary:
    """Play one job, print its summary and leaderboard, refresh its report."""
    from harness.report.job import build_job_site
    from harness.report.analysis import analysis_text
    from harness.tournament.cluster import ClusterError, ClusterUnfit
    from harness.report.export import leaderboard
    from harness.tournament.rejudge import RejudgeError

    job = with_workers(job, args.workers)
    executor = executor_for(args, job)
    # On a Dask cluster every worker checks itself instead (see harness.tournament.cluster).
    check = None if args.scheduler or args.slurm or job.cluster.slurm or args.no_self_check else self_check(args.quiet)
    built: list[JobResults] = []  # the standings for the run's history, reused for the leaderboard below

    def standings_snapshot(job: Job) -> list[dict[str, Any]]:
        built.append(results_of(job))
        return [r.to_json() for r in built[-1].rows]

    try:
        # A log (--log, a scheduled run) gets plain progress lines even with --quiet: it is read later.
        summary = run_job(job, executor, progress(args.quiet and not args.log), check, standings_snapshot,
                          getattr(args, "rejudge_request", None))
    except RejudgeError as exc:
        raise UsageError(str(exc)) from None
    except ClusterUnfit as exc:  # the machines, not the command: exit 1 like a refused local job
        raise Refused(str(exc)) from None
    except (StoreError, SubmissionError, ClusterError) as exc:
        raise UsageError(str(exc)) from None
    if summary.rejudged:
        from harness.tournament.rejudge import rejudged_text

        print(f"{job.name}: {rejudged_text(summary.rejudged)}; the replaced records stay in the store's history",
              file=sys.stderr)
    for line in summary.refused:
        print(f"harness run: {line}", file=sys.stderr)
    what = format_of(job).unit
    print(f"{job.name}: {summary.total} {what}, {summary.reused} reused, {summary.played} played"
          + (f", {summary.faults} failed by the harness (not counted)" if summary.faults else ""), file=sys.stderr)
    if built:  # the same standings; only the history gained this run's entry since
        with open_readonly(job.results) as store:
            results = dataclasses.replace(built[-1], runs=store.runs())
    else:
        results = results_of(job)
    if not args.quiet:
        print(f"\n{job.name} ({job.game}, {job.format})")
        print(leaderboard(results, "text"))
        analysis = analysis_text(results)
        if analysis:
            print("\n" + block(analysis))  # its labels are logins: folder names a student chose
    for warning in results.roll.warnings:
        print(f"harness run: warning: {warning}", file=sys.stderr)
    index = build_job_site(results, job.results / "site")
    print(f"{job.name}: report in {index}", file=sys.stderr)
    return summary


def open_log(text: str, what: str) -> None:
    """Send this process's stdout and stderr (and its children's) to the end of the file ``text``,
    made with its folders if missing, after a line saying when the run started: a scheduled run
    needs no shell redirection into a folder that may not exist yet."""
    path = Path(text).expanduser()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    except OSError as exc:
        raise UsageError(f"--log {text}: cannot open the log ({exc.strerror})") from None
    sys.stdout.flush()
    sys.stderr.flush()
    for target in (sys.stdout.fileno(), sys.stderr.fileno()):
        os.dup2(fd, target)
    os.close(fd)
    started = datetime.datetime.now().astimezone().isoformat(timespec="seconds")
    print(f"=== harness run {what}, started {started}", file=sys.stderr, flush=True)


def cmd_run(args: argparse.Namespace) -> int:
    if not args.log:
        return run_jobs(args)
    open_log(args.log, args.job)
    code: int | str = "an error"
    try:
        code = run_jobs(args)
        return code
    finally:
        ended = datetime.datetime.now().astimezone().isoformat(timespec="seconds")
        how = f"ended {ended} with exit code {code}" if isinstance(code, int) else f"stopped {ended} (why: next line)"
        print(f"=== harness run {args.job}, {how}", file=sys.stderr, flush=True)


def run_jobs(args: argparse.Namespace) -> int:
    """Run ``args.job`` (a job or a group); the exit code."""
    config, jobs, errors = jobs_of(args, strict=False)
    interrupt_on_signals()
    if not jobs:
        raise UsageError(errors[0] if errors else f"{config.path}: {args.job}: nothing to run")
    args.rejudge_request = rejudge_of(args, group=len(jobs) + len(errors) > 1)
    failed = list(errors)
    for problem in errors:  # a group's unusable members: one line each; the others still run
        print(f"harness run: {problem}", file=sys.stderr)
    rejudged = False
    for job in jobs:
        try:
            rejudged |= bool(run_one(args, job).rejudged)
        except Refused as exc:
            print(f"harness run: {exc}", file=sys.stderr)
            failed.append(str(exc))
        except UsageError as exc:
            if len(jobs) == 1:
                raise
            print(f"harness run: {exc}", file=sys.stderr)  # one bad job never blocks the rest
            failed.append(str(exc))
    if args.rejudge_request is not None and not rejudged and not failed:  # a group without the login at all
        print(f"harness run: --rejudge {args.rejudge}: no games of {args.rejudge} in any job of {args.job}",
              file=sys.stderr)
        return 1
    if failed:
        print(f"harness run: {len(failed)} of {len(jobs) + len(errors)} jobs failed", file=sys.stderr)
        return 1
    return 0


def cmd_validate(args: argparse.Namespace) -> int:
    config = config_of(args)
    for name, problem in sorted(config.problems.items()):
        print(problem, file=sys.stderr)
    if not config.problems:
        print(f"{config.path}: {len(config.jobs)} jobs and {len(config.groups)} groups, all valid")
    return 1 if config.problems else 0


def register(sub: Any) -> None:
    """Add ``harness run`` and ``harness validate``."""
    run = sub.add_parser("run", help="play every game of a job not yet stored, then show its leaderboard")
    run.add_argument("job", help="a job (or group of jobs) of the jobs file")
    add_config(run)
    run.add_argument("--workers", type=positive, help="games played at once (default: the job's, else one per core)")
    run.add_argument("--scheduler", metavar="ADDRESS", help="run the games on this Dask scheduler")
    run.add_argument("--scheduler-timeout", type=seconds, default=10.0, metavar="SECONDS",
                     help="how long to try to reach the scheduler (default 10 s)")
    slurm = run.add_argument_group("Slurm (dask-jobqueue; the job's cluster.slurm keys are the defaults)")
    slurm.add_argument("--slurm", action="store_true", help="start Dask workers as Slurm batch jobs and play on them")
    slurm.add_argument("--partition", metavar="NAME", help="the Slurm partition (default: the cluster's default)")
    slurm.add_argument("--jobs", type=positive, metavar="N", help="batch jobs to submit (default 1)")
    slurm.add_argument("--cores", type=positive, metavar="C", help="cores per batch job, one game each (default 1)")
    slurm.add_argument("--memory", metavar="M", help="memory per batch job, e.g. 8GB (default 2GB)")
    slurm.add_argument("--walltime", metavar="T", help="each batch job's time limit (default 01:00:00)")
    run.add_argument("--quiet", action="store_true", help="no progress and no leaderboard (with --log, the log "
                     "still gets a plain progress line at each tenth of the games and every 30 s while games finish)")
    run.add_argument("--log", metavar="FILE", help="append everything the run prints to FILE (made, with its "
                     "folders, if missing)")
    run.add_argument("--no-self-check", action="store_true",
                     help="skip the timing self-check (a calibration bot) before playing")
    run.add_argument("--rejudge", metavar="LOGIN",
                     help="play LOGIN's stored games (or grading) again and replace their records; the replaced "
                          "ones stay in the store's history, with who re-judged them and when")
    run.add_argument("--rejudge-game", type=positive, metavar="N",
                     help="with --rejudge LOGIN: only LOGIN's game N, numbered as in the student's feedback and "
                          "harness check")
    run.add_argument("--by", metavar="NAME", help="who re-judges (default: the user running the command)")
    run.add_argument("--why", metavar="TEXT", help="with --rejudge LOGIN: why (shown with the re-judging in the "
                     "students' feedback, the exports, the report and harness status)")
    run.set_defaults(func=cmd_run)

    validate = sub.add_parser("validate", help="check every job of the jobs file; exit code 1 on any problem")
    add_config(validate)
    validate.set_defaults(func=cmd_validate)
