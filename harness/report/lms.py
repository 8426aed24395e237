"""Gradebooks an LMS imports as they are: Canvas and Moodle CSV files for a job or a group of jobs.

One row per student of any of the jobs (with a roster, every student of the course), one
column of points per job. Identities come from the jobs' rosters (:mod:`harness.roster`). A
login that no roster lists keeps its row, with the login where a name or identifier goes, and
is reported (:attr:`Gradebook.warnings`): never dropped. A job's points are capped at what its
awards can give (:func:`~harness.tournament.standings.max_points`; SemBasic: 2).

**Canvas** (Grades > Import; "How do I import grades in the Gradebook?",
https://community.canvaslms.com/t5/Instructor-Guide/How-do-I-import-grades-in-the-Gradebook/ta-p/807;
the importer: canvas-lms ``app/models/gradebook_importer.rb``): the header row starts with the
identity columns ``Student, ID, SIS User ID, SIS Login ID, Section``; every further column is
an assignment (a title that is not in the course creates one). A row whose first cell
contains ``Points Possible`` gives each assignment's points (its identity cells empty); every
other row is a student, matched by Canvas's user ``ID``, else ``SIS User ID``, else ``SIS Login
ID``, else the name. *SIS Login ID* is the roster's, else the harness's login. No total
column: Canvas would take it for an assignment. Where a job was re-judged, a ``Notes`` column
after ``Section`` says which games of each student, by whom, when and why: Canvas's importer
fills the course's private Notes column from it (a custom column of that title sits between the
identity columns and the assignments, as Canvas's own export places it); the export's note asks
to show that column first (Gradebook > View > Notes), else Canvas offers it as a new assignment.

**Moodle** (Grades > Import > CSV file; https://docs.moodle.org/en/Grade_import): the import
maps one identifier column to a user field (``Email address`` -> email address, ``ID number``
-> ID number, ``Username`` -> username), each grade column to a grade item (or a new one),
and each ``Feedback for <item>`` column to that item's feedback (Moodle's own label for the
mapping). The identifier is the first column, and the first of email, student ID and login
that every row has, so no row is left unmatched; the file needs no editing.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from dataclasses import dataclass, field

from harness.roster import Person, RosterError, read_roster
from harness.text import cell
from harness.report.export import student_text, students
from harness.tournament.results import JobResults
from harness.tournament.formats import format_of

CANVAS_IDENTITY = ["Student", "ID", "SIS User ID", "SIS Login ID", "Section"]
MOODLE_IDENTIFIERS = [("Email address", "email"), ("ID number", "student_id"), ("Username", "login")]


@dataclass
class Gradebook:
    """A gradebook file's text, the problems an instructor must know of and how to import it (one line each)."""

    text: str
    warnings: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def job_maximum(results: JobResults) -> float:
    """The most points the job's awards can give one student."""
    job = results.job
    return format_of(job).max_points(job)


def people(all_results: Sequence[JobResults]) -> tuple[dict[str, Person], list[str], list[str]]:
    """Every login of the jobs (their rosters' and their students') with its identity, the logins
    no roster lists (each keeps a row: ``Person(login)``), and the rosters that could not be read."""
    known: dict[str, Person] = {}
    unreadable = []
    for res in all_results:
        if res.job.roster_file is not None:
            try:
                for p in read_roster(res.job.roster_file):
                    known.setdefault(p.login, p)
            except RosterError as exc:  # valid when the job was read; changed since
                unreadable.append(f"{res.job.name}: the roster {res.job.roster_file} {exc}")
    logins = sorted({*known, *(r.login for res in all_results for r in students(res))})
    missing = [login for login in logins if login not in known]
    return {login: known.get(login, Person(login)) for login in logins}, missing, unreadable


def _warnings(missing: list[str], unreadable: list[str], how: str) -> list[str]:
    if not missing:
        return unreadable
    shown = ", ".join(missing[:10]) + (f" and {len(missing) - 10} more" if len(missing) > 10 else "")
    return [*unreadable, f"{len(missing)} login(s) not on a roster: {shown}; their rows carry the login only ({how})"]


def _points(all_results: Sequence[JobResults]) -> dict[str, dict[str, float]]:
    """Per job, per login, the points, capped at what the job's awards allow."""
    table: dict[str, dict[str, float]] = {}
    for res in all_results:
        cap = job_maximum(res)
        table[res.job.name] = {r.login: min(r.points, cap) for r in students(res)}
    return table


def _cell(text: str) -> str:
    """A cell that a spreadsheet shows as text: the lines joined with " / ", then :func:`harness.text.cell`
    (valid Unicode, control characters escaped, no formula)."""
    return cell(" / ".join(part.strip() for part in text.splitlines() if part.strip()))


def canvas_csv(all_results: Sequence[JobResults]) -> Gradebook:
    """Canvas's gradebook import: identity columns, one column per job, the Points Possible row."""
    who, missing, unreadable = people(all_results)
    points = _points(all_results)
    notes = _rejudged_notes(all_results, list(who))
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow([*CANVAS_IDENTITY, *(["Notes"] if notes else []), *(res.job.name for res in all_results)])
    writer.writerow(["Points Possible", "", "", "", "", *([""] if notes else []),
                     *(f"{job_maximum(res):g}" for res in all_results)])
    for login, p in who.items():
        writer.writerow([_cell(p.name or login), p.canvas_id, p.student_id, p.sis_login_id or login, p.section,
                         *([_cell(notes[login])] if notes else []),
                         *(f"{points[res.job.name].get(login, 0.0):g}" for res in all_results)])
    how = ["in Canvas: Grades > Import; a job's column creates its assignment, or updates the one of that name"]
    if notes:
        how.append("the Notes column says which games were re-judged: show Canvas's Notes column first "
                   "(Gradebook > View > Notes) so the import fills it, or ignore that column in the import")
    return Gradebook(out.getvalue(), _warnings(missing, unreadable, "Canvas matches them by SIS Login ID"), how)


def _rejudged_notes(all_results: Sequence[JobResults], logins: list[str]) -> dict[str, str] | None:
    """login -> the re-judgings of their games in every job (``job: ...``), or None when no job was re-judged."""
    from harness.report.rejudged import cells

    found = {res.job.name: c for res in all_results if (c := cells(res, logins))}
    if not found:
        return None
    return {login: " / ".join(f"Re-judged in {job}: {c[login]}" for job, c in found.items() if c[login])
            for login in logins}


def moodle_csv(all_results: Sequence[JobResults]) -> Gradebook:
    """Moodle's CSV grade import: the identifier, one grade column per job, one feedback column per job."""
    who, missing, unreadable = people(all_results)
    points = _points(all_results)
    header, key = next(((h, k) for h, k in MOODLE_IDENTIFIERS if all(getattr(p, k) for p in who.values())),
                       MOODLE_IDENTIFIERS[-1])
    rows = {res.job.name: {r.login: r for r in students(res)} for res in all_results}
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow([header, "Full name", *(res.job.name for res in all_results),
                     *(f"Feedback for {res.job.name}" for res in all_results)])
    for login, p in who.items():
        feedback = []
        for res in all_results:
            row = rows[res.job.name].get(login)
            feedback.append(_cell(student_text(res, row, private=False)) if row is not None
                            else f"{res.job.name}: no submission.")
        writer.writerow([getattr(p, key), _cell(p.name or login),
                         *(f"{points[res.job.name].get(login, 0.0):g}" for res in all_results), *feedback])
    return Gradebook(out.getvalue(), _warnings(missing, unreadable, f"Moodle matches them by {header.lower()}"),
                     [f"in Moodle's import, map from {header!r} to {header if key != 'login' else 'Username'}, "
                      "each job's column to its grade item and each 'Feedback for' column to that item's feedback"])


__all__ = ["CANVAS_IDENTITY", "Gradebook", "canvas_csv", "job_maximum", "moodle_csv", "people"]
