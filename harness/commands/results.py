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
from harness.submission import SubmissionError
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
    """A job's (or each job of a group's) last run, what is stored, every re-judging and the last
    error if the newest run failed; with a LOGIN, that student across the jobs (:func:`student_status`).
    A job of a group never run is shown as such, and the others are still shown."""
    from harness.report.history import describe
    from harness.report.rejudged import rejudgings, summary
    from harness.terminal import width, wrapped
    from harness.tournament.formats import job_results
    from harness.tournament.store import StoreError

    if args.login:
        return student_status(args)
    room = width()

    def say(text: str) -> None:  # every line wrapped to the terminal
        print(wrapped(text, room))

    _config, jobs, _errors = jobs_of(args)
    for job in jobs:
        say(f"{job.name} ({job.game}, {job.format})")
        try:
            results = job_results(job, light=True)
        except StoreError:  # never run: said, and the group's other jobs still shown
            say(f"  last run: never (no results yet: harness run {job.name})")
            continue
        except SubmissionError as exc:
            raise UsageError(str(exc)) from None
        runs = results.runs
        say(f"  last run: {describe(runs[-1]) if runs else 'never'}")
        say(f"  stored: {format_of(job).stored_text(results)}")
        for rejudging in rejudgings(results):  # every one, oldest first (a run's line names only its own)
            say(f"  re-judged: {summary(rejudging)}")
        newest = runs[-1] if runs else None
        if newest is not None and (newest.get("error") or newest["status"] in ("failed", "interrupted", "running")):
            when = time.strftime("%Y-%m-%d %H:%M", time.localtime(newest["started"]))
            say(f"  last error: {when}: {newest.get('error') or newest['status']}")
        else:  # an earlier run's error was mended by a later complete run
            say("  last error: none")
    return 0


def student_status(args: argparse.Namespace) -> int:
    """``harness status JOB LOGIN``: one student across the job's (or group's) jobs: their line of
    each, every game with a verdict against them with its whole reason, and the re-judgings of
    their games, wrapped to the terminal (nothing cut, unlike the leaderboard's status column)."""
    from harness.report.export import first_error, student_text
    from harness.terminal import game_label, width, wrapped
    from harness.text import line
    from harness.tournament.formats import job_results
    from harness.tournament.store import StoreError

    room = width()
    _config, jobs, _errors = jobs_of(args)
    login, found = args.login, False
    print(f"{line(login)} in {args.job}")
    for job in jobs:
        print()
        try:
            results = job_results(job, light=True)
        except StoreError:
            print(wrapped(f"{job.name}: never run (no results yet)", room))
            continue
        except SubmissionError as exc:
            raise UsageError(str(exc)) from None
        row = next((r for r in results.rows if r.login == login), None)
        if row is None:
            print(wrapped(f"{job.name}: {line(login)} is not in this job", room))
            continue
        found = True
        text = student_text(results, row, private=False)
        print("\n".join(wrapped(one if n == 0 else "  " + one, room) for n, one in enumerate(text.splitlines())))
        against = _verdicts_of(results, login)
        if len(against) > 1 or (against and first_error(results, login) is None):
            print(wrapped(f"  every game with a verdict against {line(login)} ({len(against)}):", room))
            for number, seed, seat, others, verdict, reason in against:
                print(wrapped(f"    {game_label(number, seed, seat)} against {', '.join(map(line, others))}: "
                              f"{verdict}: {line(reason)}", room))
    if not found:
        print(f"harness status: {line(login)}: no such login in {args.job}", file=sys.stderr)
        return 2
    return 0


def _verdicts_of(results: JobResults, login: str) -> list[tuple[int, int, int, list[str], str, str]]:
    """``login``'s games with a verdict against it, numbered as the student numbers them."""
    from harness.tournament.results import light_records

    order = {k: i for i, k in enumerate(results.schedule)}
    games = []
    for n, (key, record) in enumerate(zip(results.keys, light_records(results))):
        for seat, p in enumerate(record.players):
            if p.login == login:
                place = order.get(key, len(order) + n) if order else n
                others = [q.login for q in record.players if q.login != login]
                games.append((place, record.seed, seat, others, p.verdict.value if p.verdict.charged else "", p.reason))
    games.sort(key=lambda g: g[0])
    return [(number, seed, seat, others, verdict, reason)
            for number, (_, seed, seat, others, verdict, reason) in enumerate(games, start=1) if verdict]


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

    status = sub.add_parser("status", help="a job's last run, games stored, re-judgings, last error; with "
                                           "LOGIN, one student across the jobs")
    common(status)
    status.add_argument("login", nargs="?", metavar="LOGIN",
                        help="one student (or reference player) across the job's or group's jobs: every verdict "
                             "against it with its whole reason, and the re-judgings of its games")
    status.set_defaults(func=cmd_status)
