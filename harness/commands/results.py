"""``harness leaderboard``, ``export``, ``report`` and ``status``: what a job's store holds.

Each works on a job or a group of jobs. A job whose games are not all stored is said to be
incomplete everywhere; ``export`` refuses one (exit code 1) unless ``--allow-incomplete``.
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any

from harness.cli import UsageError
from harness.commands._jobs import (add_config, jobs_of, output_file, output_folder, results_of, write_text)
from harness.tournament.formats import format_of
from harness.tournament.results import JobResults


def _all_results(args: argparse.Namespace, light: bool = False) -> list[JobResults]:
    _config, jobs, _errors = jobs_of(args)
    return [results_of(job, light) for job in jobs]


def cmd_leaderboard(args: argparse.Namespace) -> int:
    from harness.report.outputs import outputs

    sys.stdout.write(outputs("leaderboard")[args.format].write(_all_results(args, light=True), args.job).text)
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    from harness.report.outputs import outputs

    all_results = _all_results(args, light=True)
    incomplete = [f"{r.job.name}: {r.incomplete}" for r in all_results if r.incomplete]
    if incomplete and not args.allow_incomplete:
        print(f"harness export: {'; '.join(incomplete)}: the points are not final (run the job to the end, "
              f"or pass --allow-incomplete)", file=sys.stderr)
        return 1
    for line in incomplete:
        print(f"harness export: warning: {line}", file=sys.stderr)
    written = outputs("export")[args.format].write(all_results, args.job)
    for line in written.warnings:
        print(f"harness export: warning: {line}", file=sys.stderr)
    for line in written.notes:
        print(f"harness export: {line}", file=sys.stderr)
    if written.files is None or not args.out:
        if args.out:
            write_text(output_file(args.out), written.text)
        else:
            sys.stdout.write(written.text)
        return 0
    folder = output_folder(args.out)
    for name, text in written.files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        write_text(folder / name, text)
    print(f"{args.job}: {len(written.files)} {written.listing} files in {folder}", file=sys.stderr)
    return 0


def cmd_report(args: argparse.Namespace) -> int:
    from harness.report.job import build_group_index, build_job_site

    replays: int | None | str = args.replays
    if replays == "all":
        replays = None
    elif replays != "auto":
        if not str(replays).isdigit():
            raise UsageError(f"--replays {replays}: expected a number of games per bot, 'all' or 'auto'")
        replays = int(str(replays))
    all_results = _all_results(args)
    out = output_folder(args.out)
    public = True if args.public else None
    if len(all_results) == 1 and args.job == all_results[0].job.name:
        print(build_job_site(all_results[0], out, public=public, replays=replays))
        return 0
    for results in all_results:
        build_job_site(results, out / results.job.name, public=public, replays=replays)
    print(build_group_index(out, args.job, [(r, r.job.name) for r in all_results]))
    return 0


def cmd_status(args: argparse.Namespace) -> int:
    from harness.report.history import describe
    from harness.terminal import width, wrapped

    room = width()

    def say(text: str) -> None:  # every line wrapped to the terminal
        print(wrapped(text, room))

    for results in _all_results(args, light=True):
        runs = results.runs
        job = results.job
        say(f"{job.name} ({job.game}, {job.format})")
        say(f"  last run: {describe(runs[-1]) if runs else 'never'}")
        say(f"  stored: {format_of(job).stored_text(results)}")
        errors = [r for r in runs if r.get("error") or r["status"] in ("failed", "interrupted", "running")]
        if errors:
            last = errors[-1]
            when = time.strftime("%Y-%m-%d %H:%M", time.localtime(last["started"]))
            say(f"  last error: {when}: {last.get('error') or last['status']}")
        else:
            say("  last error: none")
    return 0


def register(sub: Any) -> None:
    """Add ``harness leaderboard``, ``export``, ``report`` and ``status``."""
    from harness.report.outputs import outputs

    def common(p: argparse.ArgumentParser) -> None:
        p.add_argument("job", help="a job (or group of jobs) of the jobs file")
        add_config(p)

    board = sub.add_parser("leaderboard", help="show a job's (or group's) leaderboard from its stored results")
    common(board)
    boards = outputs("leaderboard")
    board.add_argument("--format", choices=list(boards), default=next(iter(boards)),
                       help="; ".join(f"{o.name}: {o.help}" for o in boards.values()))
    board.set_defaults(func=cmd_leaderboard)

    export = sub.add_parser("export", help="export points for a gradebook (one table for a group)")
    common(export)
    books = outputs("export")
    export.add_argument("--format", choices=list(books), default=next(iter(books)),
                        help="; ".join(f"{o.name}: {o.help}" for o in books.values()))
    export.add_argument("--out", help="a file (csv, canvas, moodle) or a folder (gradescope, feedback)")
    export.add_argument("--allow-incomplete", action="store_true",
                        help="export even if not every game of the job is stored")
    export.set_defaults(func=cmd_export)

    report = sub.add_parser("report", help="write a job's (or group's) static web pages: leaderboard, bots, replays")
    common(report)
    report.add_argument("--out", required=True, help="the folder to write (index.html inside)")
    report.add_argument("--public", action="store_true",
                        help="leave out every bot's captured output and tracebacks (a report to publish)")
    report.add_argument("--replays", default="auto", metavar="N|all|auto",
                        help="replay pages for every game (all), or for N games of each bot plus its games with a "
                             "verdict; auto (the default): all up to 10,000 games, else 20 per bot")
    report.set_defaults(func=cmd_report)

    status = sub.add_parser("status", help="a job's last run, how many of its games are stored, its last error")
    common(status)
    status.set_defaults(func=cmd_status)
