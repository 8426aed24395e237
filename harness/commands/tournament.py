"""``harness run``, ``harness leaderboard`` and ``harness export``: jobs from tournaments.yaml."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from harness.cli import UsageError
from harness.config import Config, ConfigError, Job, load_config
from harness.record import GameRecord
from harness.tournament.execute import DaskExecutor, Executor, LocalExecutor, job_tasks, run_job, with_workers
from harness.tournament.export import gradebook_csv, gradescope, leaderboard
from harness.tournament.schedule import load_entrants
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


def job_standings(job: Job) -> tuple[list[Row], list[GameRecord]]:
    """The leaderboard of a job from its store, over the games of its current schedule."""
    entrants, _ = load_entrants(job)
    keys = [t.key for t in job_tasks(job)]
    try:
        with open_readonly(job.results) as store:
            records = [r for _, r in store.records(keys)]
    except StoreError as exc:
        raise UsageError(str(exc)) from None
    return standings(job, entrants, records), records


def _progress(quiet: bool) -> Any:
    if quiet or not sys.stderr.isatty():
        return None
    from tqdm import tqdm

    def factory(total: int, done: int, label: str) -> Any:
        return tqdm(total=total, initial=done, desc=label, unit="game", dynamic_ncols=True)

    return factory


def cmd_run(args: argparse.Namespace) -> int:
    for job in _jobs(args):
        job = with_workers(job, args.workers)
        executor: Executor = DaskExecutor(args.scheduler) if args.scheduler else LocalExecutor(job.workers)
        try:
            summary = run_job(job, executor, _progress(args.quiet))
        except StoreError as exc:
            raise UsageError(str(exc)) from None
        finally:
            executor.close()
        print(f"{job.name}: {summary.total} games, {summary.reused} reused, {summary.played} played"
              + (f", {summary.faults} failed by the harness (not counted)" if summary.faults else ""),
              file=sys.stderr)
        rows, records = job_standings(job)
        if not args.quiet:
            print(f"\n{job.name} ({job.game}, {job.format})")
            print(leaderboard(rows, "text"))
        _build_report(job, rows, records)
    return 0


def _build_report(job: Job, rows: list[Row], records: list[GameRecord]) -> Path | None:
    """Regenerate the job's static site next to its store (if the report package is present)."""
    try:
        from harness.report.site import build_site
    except ImportError:
        return None
    out = job.results / "site"
    build_site(out, title=f"{job.name} ({job.game})", records=records,
               leaderboard=[r.to_json() for r in rows], job={"name": job.name, "game": job.game,
                                                              "format": job.format})
    print(f"{job.name}: report in {out / 'index.html'}", file=sys.stderr)
    return out


def cmd_leaderboard(args: argparse.Namespace) -> int:
    for job in _jobs(args):
        rows, _ = job_standings(job)
        if args.format in ("text", "markdown") and len(_jobs(args)) > 1:
            print(f"\n{job.name}")
        print(leaderboard(rows, args.format))
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    for job in _jobs(args):
        rows, _ = job_standings(job)
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
