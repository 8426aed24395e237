"""``harness import LMS-ZIP --job JOB [--into DIR]``: a Moodle or Canvas bulk download into a job's
submissions, every attempt kept with its time (see :mod:`harness.intake`)."""

from __future__ import annotations

import argparse
import glob
import sys
from datetime import datetime, tzinfo
from pathlib import Path
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import yaml

from harness.cli import UsageError
from harness.commands._jobs import add_config, config_of
from harness.keys import ConfigError, Reader, locate
from harness.roster import Person, RosterError, read_roster
from harness.tournament.lateness import LatePolicy, read_deadline


def _job_inputs(args: argparse.Namespace) -> tuple[list[Person], Path, datetime | None, LatePolicy | None]:
    """The job's roster, submissions folder (or ``--into``), deadline and late policy.

    Read from the job's own keys, so a job that cannot run yet (its submissions folder is empty
    or missing: the usual state before the first import) can still be imported into."""
    config = config_of(args)
    try:
        config.members(args.job)
    except ConfigError as exc:
        raise UsageError(str(exc)) from None
    if args.job in config.groups:
        members = ", ".join(config.groups[args.job])
        raise UsageError(f"{args.job} is a group of jobs; import into one of its jobs ({members})")
    data = yaml.safe_load(config.path.read_text(encoding="utf-8"))
    body = {**(data.get("defaults") or {}), **data["jobs"][args.job]}
    r = Reader(config.path, f"jobs.{args.job}", body)
    try:
        deadline, late = read_deadline(r)
        if "roster" not in body:
            raise r.fail("roster", "missing: import maps the LMS's names and ids to logins through the job's "
                                   "roster (a CSV with login, name, email, canvas id columns)")
        roster_path = r.file("roster", body["roster"])
        try:
            people = read_roster(roster_path)
        except RosterError as exc:
            raise r.fail("roster", f"{body['roster']} {exc}") from None
    except ConfigError as exc:
        raise UsageError(str(exc)) from None
    if args.into:
        into = Path(args.into)
    else:
        raw = body.get("submissions")
        if not isinstance(raw, str) or glob.has_magic(raw):
            raise UsageError(f"{config.path}: jobs.{args.job}.submissions is not one folder; give --into DIR")
        into = locate(config.path.parent, raw)
    if into.exists() and not into.is_dir():
        raise UsageError(f"{into}: is a file, expected the submissions folder")
    if into.is_symlink():
        raise UsageError(f"{into}: is a link; give the folder itself")
    return people, into, deadline, late


def _zone(args: argparse.Namespace, deadline: datetime | None) -> tzinfo:
    """The zone a zip's local times are read in: ``--tz``, else the deadline's, else this machine's."""
    if args.tz:
        try:
            return ZoneInfo(args.tz)
        except (ZoneInfoNotFoundError, ValueError):
            raise UsageError(f"--tz {args.tz}: unknown time zone (e.g. Europe/Prague)") from None
    if deadline is not None and deadline.tzinfo is not None:
        return deadline.tzinfo
    return datetime.now().astimezone().tzinfo or ZoneInfo("UTC")


def cmd_import(args: argparse.Namespace) -> int:
    from harness.intake.archive import IntakeError
    from harness.intake.importer import import_download

    people, into, deadline, late = _job_inputs(args)
    source = Path(args.source)
    try:
        report = import_download(source, into, people, zone=_zone(args, deadline), deadline=deadline, late=late)
    except IntakeError as exc:
        raise UsageError(str(exc)) from None
    except (OSError, ValueError) as exc:
        raise UsageError(f"{into}: {getattr(exc, 'strerror', None) or exc}") from None
    for text in report.students:
        print(text)
    for text in report.lines()[len(report.students):]:  # unmapped names, problems, skipped files
        print(f"harness import: {text}", file=sys.stderr)
    print(f"{args.job}: {len(report.students)} student{'s' if len(report.students) != 1 else ''}, "
          f"{report.attempts_new} new attempt{'s' if report.attempts_new != 1 else ''}, {report.installed} "
          f"installed in {into}; {len(report.unmapped)} unmapped; history in {into / '.attempts'}")
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("import", help="import a Moodle or Canvas bulk download (a zip, or a folder of them) into "
                                      "a job's submissions, every attempt kept with its time",
                       description="Import Moodle's 'Download all submissions' or Canvas's 'Download Submissions' "
                                   "zip (or a folder of such zips, or one unpacked) into the job's submissions "
                                   "folder: names mapped to logins through the job's roster, every attempt "
                                   "recorded with its time in .attempts/, the newest accepted one installed.")
    p.add_argument("source", metavar="LMS-ZIP", help="the bulk download: a .zip file or a folder")
    p.add_argument("--job", required=True, help="the job whose roster, deadline and submissions folder to use")
    p.add_argument("--into", help="the submissions folder (default: the job's submissions folder)")
    p.add_argument("--tz", help="the time zone of the zip's file times (default: the deadline's, else this "
                                "machine's), e.g. Europe/Prague")
    add_config(p)
    p.set_defaults(func=cmd_import)
