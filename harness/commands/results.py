"""``harness leaderboard``, ``export``, ``report`` and ``status``: what a job's store holds.

Each works on a job or a group of jobs. A job whose games are not all stored is said to be
incomplete everywhere; ``export`` refuses one (exit code 1) unless ``--allow-incomplete``.
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import sys
import time
from typing import Any

from harness.cli import UsageError
from harness.commands._jobs import (add_config, jobs_of, output_file, output_folder, results_of, write_text)
from harness.text import block
from harness.tournament.results import JobResults


def _all_results(args: argparse.Namespace, light: bool = False) -> list[JobResults]:
    _config, jobs, _errors = jobs_of(args)
    return [results_of(job, light) for job in jobs]


def cmd_leaderboard(args: argparse.Namespace) -> int:
    from harness.tournament.analysis import analysis_json, analysis_text
    from harness.tournament.export import leaderboard, leaderboard_json

    all_results = _all_results(args, light=True)
    if args.format == "json":
        if len(all_results) == 1:
            data: Any = {**leaderboard_json(all_results[0]), "analysis": analysis_json(all_results[0])}
        else:
            data = {"group": args.job, "jobs": [{**leaderboard_json(r), "analysis": analysis_json(r)}
                                                for r in all_results]}
        print(json.dumps(data, indent=1))
        return 0
    for n, results in enumerate(all_results):
        if args.format == "csv":
            sys.stdout.write(leaderboard(results, "csv") if len(all_results) == 1 else group_leaderboard(all_results))
            break
        if len(all_results) > 1:
            print(("\n" if n else "") + f"{results.job.name} ({results.job.game}, {results.job.format})")
        print(leaderboard(results, args.format))
        extra = analysis_text(results)
        if extra and args.format == "text":
            print("\n" + block(extra))  # its labels are logins: folder names a student chose
    return 0


def group_leaderboard(all_results: list[JobResults]) -> str:
    """One CSV for a group: every job's leaderboard rows, with the job's name first."""
    from harness.tournament.export import leaderboard

    tables = [(r.job.name, list(csv.DictReader(io.StringIO(leaderboard(r, "csv"))))) for r in all_results]
    fields = list(dict.fromkeys(f for r in all_results for f in next(csv.reader(io.StringIO(leaderboard(r, "csv"))))))
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=["job", *fields], lineterminator="\n")
    writer.writeheader()
    for name, rows in tables:
        for row in rows:
            writer.writerow({"job": name, **row})
    return out.getvalue()


def cmd_export(args: argparse.Namespace) -> int:
    from harness.tournament.export import feedback, gradebook_csv, gradescope, group_csv

    all_results = _all_results(args, light=True)
    incomplete = [f"{r.job.name}: {r.incomplete}" for r in all_results if r.incomplete]
    if incomplete and not args.allow_incomplete:
        print(f"harness export: {'; '.join(incomplete)}: the points are not final (run the job to the end, "
              f"or pass --allow-incomplete)", file=sys.stderr)
        return 1
    for line in incomplete:
        print(f"harness export: warning: {line}", file=sys.stderr)
    if args.format in ("canvas", "moodle"):
        from harness.tournament.lms import canvas_csv, moodle_csv

        book = canvas_csv(all_results) if args.format == "canvas" else moodle_csv(all_results)
        for line in book.warnings:
            print(f"harness export: warning: {line}", file=sys.stderr)
        for line in book.notes:
            print(f"harness export: {line}", file=sys.stderr)
        if args.out:
            write_text(output_file(args.out), book.text)
        else:
            sys.stdout.write(book.text)
        return 0
    if args.format == "csv":
        text = gradebook_csv(all_results[0]) if len(all_results) == 1 else group_csv(all_results)
        if args.out:
            write_text(output_file(args.out), text)
        else:
            sys.stdout.write(text)
        return 0
    per_student = gradescope(all_results) if args.format == "gradescope" else feedback(all_results)
    if not args.out:
        print(json.dumps(per_student, indent=1))
        return 0
    folder = output_folder(args.out)
    for login, data in per_student.items():
        if args.format == "gradescope":
            (folder / login).mkdir(parents=True, exist_ok=True)
            write_text(folder / login / "results.json", json.dumps(data, indent=1))
        else:
            write_text(folder / f"{login}.txt", str(data))
    where = "<login>/results.json" if args.format == "gradescope" else "<login>.txt"
    print(f"{args.job}: {len(per_student)} {where} files in {folder}", file=sys.stderr)
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
    from harness.terminal import wrapped, width
    from harness.tournament.history import describe

    room = width()

    def say(text: str) -> None:  # every line wrapped to the terminal
        print(wrapped(text, room))

    for results in _all_results(args, light=True):
        runs = results.runs
        job = results.job
        say(f"{job.name} ({job.game}, {job.format})")
        say(f"  last run: {describe(runs[-1]) if runs else 'never'}")
        if job.format == "adaptive":
            share = 100 * results.done / results.round_robin if results.round_robin else 0.0
            state = f"stopped: {results.stopped}" if results.stopped else results.incomplete
            say(f"  stored: {results.done} games in the adaptive schedule's complete waves ({state}); "
                f"the full round robin has {results.round_robin} ({share:.1f} % played)")
        else:
            say(f"  stored: {results.done} of {results.total} {'gradings' if job.is_battery else 'games'}"
                f" ({results.incomplete or 'complete'})")
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
    def common(p: argparse.ArgumentParser) -> None:
        p.add_argument("job", help="a job (or group of jobs) of the jobs file")
        add_config(p)

    board = sub.add_parser("leaderboard", help="show a job's (or group's) leaderboard from its stored results")
    common(board)
    board.add_argument("--format", choices=["text", "markdown", "csv", "json"], default="text")
    board.set_defaults(func=cmd_leaderboard)

    export = sub.add_parser("export", help="export points for a gradebook (one table for a group)")
    common(export)
    export.add_argument("--format", choices=["csv", "canvas", "moodle", "gradescope", "feedback"], default="csv",
                        help="csv: one row per student; canvas, moodle: the LMS's gradebook import (identities "
                             "from the roster); gradescope: <login>/results.json; feedback: <login>.txt")
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
