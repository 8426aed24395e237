"""``harness run``, ``leaderboard``, ``export`` and ``report``: the jobs of tournaments.yaml."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from harness.cli import UsageError
from harness.config import Config, ConfigError, Job, load_config
from harness.record import GameRecord
from harness.tournament.execute import DaskExecutor, Executor, LocalExecutor, run_job, with_workers
from harness.tournament.export import gradebook_csv, gradescope, leaderboard
from harness.tournament.schedule import load_entrants, make_tasks
from harness.tournament.standings import Row, standings
from harness.tournament.store import StoreError, open_readonly


def _config(args: argparse.Namespace) -> Config:
    try:
        return load_config(args.config)
    except ConfigError as exc:
        raise UsageError(str(exc)) from None


def _jobs(args: argparse.Namespace) -> list[Job]:
    try:
        return _config(args).resolve(args.job)
    except ConfigError as exc:
        raise UsageError(str(exc)) from None


@dataclass
class JobResults:
    """A job's stored games of its current schedule, and the standings they give."""

    rows: list[Row]
    records: list[GameRecord]
    keys: list[str]  # the store's key of each record


def job_results(job: Job) -> JobResults:
    """The leaderboard of a job from its store, over the games of its current schedule."""
    entrants, opponent = load_entrants(job)
    wanted = [t.key for t in make_tasks(job, entrants, opponent)]
    try:
        with open_readonly(job.results) as store:
            pairs = list(store.records(wanted))
    except StoreError as exc:
        raise UsageError(str(exc)) from None
    records = [r for _, r in pairs]
    return JobResults(standings(job.awards, entrants, records), records, [k for k, _ in pairs])


def _progress(quiet: bool) -> Any:
    if quiet or not sys.stderr.isatty():
        return None
    from tqdm import tqdm

    def factory(total: int, done: int, label: str) -> Any:
        return tqdm(total=total, initial=done, desc=label, unit="game", dynamic_ncols=True)

    return factory


def _self_check(quiet: bool) -> Callable[[Job], None]:
    """The timing self-check before a job plays games here: refuses (one line) on an unfit machine."""
    from harness.sandbox.calibrate import HarnessUnfit, ensure_fair_timing

    def check(job: Job) -> None:
        try:
            report = ensure_fair_timing(job.limits, calls=3, work=round(job.limits.move * 0.3, 3))
        except HarnessUnfit as exc:
            raise UsageError(f"{job.name}: {exc}") from None
        if not quiet:
            print(f"{job.name}: timing self-check passed (wall/CPU {report.ratio:.2f} under the "
                  f"{job.limits.policy} policy, {report.isolation})", file=sys.stderr)

    return check


def cmd_run(args: argparse.Namespace) -> int:
    for job in _jobs(args):
        job = with_workers(job, args.workers)
        executor: Executor = DaskExecutor(args.scheduler) if args.scheduler else LocalExecutor(job.workers)
        # On a Dask cluster the games run on other machines: this machine's load says nothing.
        check = None if args.scheduler or args.no_self_check else _self_check(args.quiet)
        try:
            summary = run_job(job, executor, _progress(args.quiet), check)
        except StoreError as exc:
            raise UsageError(str(exc)) from None
        finally:
            executor.close()
        print(f"{job.name}: {summary.total} games, {summary.reused} reused, {summary.played} played"
              + (f", {summary.faults} failed by the harness (not counted)" if summary.faults else ""),
              file=sys.stderr)
        results = job_results(job)
        if not args.quiet:
            print(f"\n{job.name} ({job.game}, {job.format})")
            print(leaderboard(results.rows, "text"))
        index = build_report(job, results, job.results / "site")
        print(f"{job.name}: report in {index}", file=sys.stderr)
    return 0


def build_report(job: Job, results: JobResults, out: Path) -> Path:
    """Write the job's static site (leaderboard, bot pages, one replay per game) into ``out``."""
    from harness.report.site import build_site

    return build_site(out, title=f"{job.name} ({job.game})", records=results.records,
                      leaderboard=[r.to_json() for r in results.rows], game_ids=results.keys,
                      job={"name": job.name, "game": job.game, "format": job.format,
                           "games": len(results.records)})


def cmd_report(args: argparse.Namespace) -> int:
    jobs = _jobs(args)
    for job in jobs:
        out = Path(args.out) / job.name if len(jobs) > 1 else Path(args.out)
        print(build_report(job, job_results(job), out))
    return 0


def cmd_leaderboard(args: argparse.Namespace) -> int:
    for job in _jobs(args):
        rows = job_results(job).rows
        if args.format in ("text", "markdown") and len(_jobs(args)) > 1:
            print(f"\n{job.name}")
        print(leaderboard(rows, args.format))
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    for job in _jobs(args):
        rows = job_results(job).rows
        if args.format == "csv":
            text = gradebook_csv(rows)
            if args.out:
                Path(args.out).write_text(text)
            else:
                sys.stdout.write(text)
        else:
            results = gradescope(rows, job.awards, job.name)
            if args.out:
                for login, data in results.items():
                    folder = Path(args.out) / login
                    folder.mkdir(parents=True, exist_ok=True)
                    (folder / "results.json").write_text(json.dumps(data, indent=1))
                print(f"{job.name}: {len(results)} results.json files in {args.out}", file=sys.stderr)
            else:
                print(json.dumps(results, indent=1))
    return 0


def register(sub: Any) -> None:
    """Add ``harness run``, ``harness leaderboard`` and ``harness export``."""
    def common(p: argparse.ArgumentParser) -> None:
        p.add_argument("job", help="a job (or group of jobs) of tournaments.yaml")
        p.add_argument("--config", default="tournaments.yaml", help="the jobs file (default: tournaments.yaml)")

    run = sub.add_parser("run", help="play every game of a job not yet stored, then show its leaderboard")
    common(run)
    run.add_argument("--workers", type=int, help="games played at once (default: the job's, else one per core)")
    run.add_argument("--scheduler", metavar="ADDRESS", help="run the games on this Dask scheduler")
    run.add_argument("--quiet", action="store_true", help="no progress bar and no leaderboard")
    run.add_argument("--no-self-check", action="store_true",
                     help="skip the timing self-check (a calibration bot) before playing")
    run.set_defaults(func=cmd_run)

    board = sub.add_parser("leaderboard", help="show a job's leaderboard from its stored results")
    common(board)
    board.add_argument("--format", choices=["text", "markdown", "csv", "json"], default="text")
    board.set_defaults(func=cmd_leaderboard)

    export = sub.add_parser("export", help="export points for a gradebook")
    common(export)
    export.add_argument("--format", choices=["csv", "gradescope"], default="csv")
    export.add_argument("--out", help="a file (csv) or folder (gradescope: <login>/results.json)")
    export.set_defaults(func=cmd_export)

    report = sub.add_parser("report", help="write a job's static web page: leaderboard, bots, replays")
    common(report)
    report.add_argument("--out", required=True, help="the folder to write (index.html inside)")
    report.set_defaults(func=cmd_report)
