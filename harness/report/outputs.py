"""The registry of output formats: every way stored results are published as text or files.

``harness leaderboard --format`` and ``harness export --format`` take their choices from
:data:`OUTPUTS` (each entry names its command), so a new format is one function and one entry
here. Two formats may share a name under different commands: ``leaderboard --format csv`` (the
leaderboard's columns, reference players included) and ``export --format csv`` (the gradebook:
one row per student) are two outputs, registered apart.

An output turns the results of a job, or of a group's jobs, into :class:`Written`: text for
standard output (or ``--out FILE``), or one file per student (``--out DIR``), and the lines an
instructor must see on standard error.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from harness.report.analysis import analysis_json, analysis_text
from harness.report.export import (feedback, gradebook_csv, gradescope, group_csv, leaderboard,
                                   leaderboard_json)
from harness.text import block
from harness.tournament.results import JobResults


@dataclass
class Written:
    """What an output wrote: ``text`` for standard output or ``--out FILE``; with ``files`` (one
    per student, by path relative to ``--out DIR``) the text is what is shown without ``--out``;
    ``warnings`` and ``notes`` go to standard error."""

    text: str
    files: dict[str, str] | None = None
    listing: str = ""  # how the files are named, e.g. "<login>/results.json"
    warnings: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Output:
    """One output format of one command."""

    command: str  # "leaderboard" or "export"
    name: str  # its --format choice
    help: str
    write: Callable[[Sequence[JobResults], str], Written]  # (the jobs' results, the job or group asked) -> output


# ---- leaderboards ---------------------------------------------------------------------------
def group_leaderboard(all_results: Sequence[JobResults]) -> str:
    """One CSV for a group: every job's leaderboard rows, with the job's name first."""
    tables = [(r.job.name, list(csv.DictReader(io.StringIO(leaderboard(r, "csv"))))) for r in all_results]
    fields = list(dict.fromkeys(f for r in all_results for f in next(csv.reader(io.StringIO(leaderboard(r, "csv"))))))
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=["job", *fields], lineterminator="\n")
    writer.writeheader()
    for name, rows in tables:
        for row in rows:
            writer.writerow({"job": name, **row})
    return out.getvalue()


def _board_json(all_results: Sequence[JobResults], group: str) -> Written:
    if len(all_results) == 1:
        data = {**leaderboard_json(all_results[0]), "analysis": analysis_json(all_results[0])}
    else:
        data = {"group": group, "jobs": [{**leaderboard_json(r), "analysis": analysis_json(r)} for r in all_results]}
    return Written(json.dumps(data, indent=1) + "\n")


def _board_csv(all_results: Sequence[JobResults], group: str) -> Written:
    return Written(leaderboard(all_results[0], "csv") if len(all_results) == 1 else group_leaderboard(all_results))


def _board_table(fmt: str) -> Callable[[Sequence[JobResults], str], Written]:
    def write(all_results: Sequence[JobResults], group: str) -> Written:
        lines = []
        for n, results in enumerate(all_results):
            if len(all_results) > 1:
                lines.append(("\n" if n else "") + f"{results.job.name} ({results.job.game}, {results.job.format})")
            lines.append(leaderboard(results, fmt))
            extra = analysis_text(results)
            if extra and fmt == "text":
                lines.append("\n" + block(extra))  # its labels are logins: folder names a student chose
        return Written("".join(f"{line}\n" for line in lines))

    return write


# ---- gradebook exports ----------------------------------------------------------------------
def _gradebook_csv(all_results: Sequence[JobResults], group: str) -> Written:
    return Written(gradebook_csv(all_results[0]) if len(all_results) == 1 else group_csv(all_results))


def _lms(kind: str) -> Callable[[Sequence[JobResults], str], Written]:
    def write(all_results: Sequence[JobResults], group: str) -> Written:
        from harness.report.lms import canvas_csv, moodle_csv

        book = canvas_csv(all_results) if kind == "canvas" else moodle_csv(all_results)
        return Written(book.text, warnings=list(book.warnings), notes=list(book.notes))

    return write


def _gradescope(all_results: Sequence[JobResults], group: str) -> Written:
    per_student = gradescope(all_results)
    return Written(json.dumps(per_student, indent=1) + "\n",
                   {f"{login}/results.json": json.dumps(data, indent=1) for login, data in per_student.items()},
                   "<login>/results.json")


def _feedback(all_results: Sequence[JobResults], group: str) -> Written:
    per_student = feedback(all_results)
    return Written(json.dumps(per_student, indent=1) + "\n",
                   {f"{login}.txt": text for login, text in per_student.items()}, "<login>.txt")


OUTPUTS: tuple[Output, ...] = (
    Output("leaderboard", "text", "a table that fits the terminal (or COLUMNS), and the job's analysis",
           _board_table("text")),
    Output("leaderboard", "markdown", "a Markdown table", _board_table("markdown")),
    Output("leaderboard", "csv", "every column of the leaderboard, reference players included", _board_csv),
    Output("leaderboard", "json", "the leaderboard and its analysis as JSON", _board_json),
    Output("export", "csv", "one row per student", _gradebook_csv),
    Output("export", "canvas", "Canvas's gradebook import (identities from the roster)", _lms("canvas")),
    Output("export", "moodle", "Moodle's gradebook import (identities from the roster)", _lms("moodle")),
    Output("export", "gradescope", "<login>/results.json", _gradescope),
    Output("export", "feedback", "<login>.txt", _feedback),
)


def outputs(command: str) -> dict[str, Output]:
    """The output formats of ``command``, by name, in the registry's order (the first is the default)."""
    return {o.name: o for o in OUTPUTS if o.command == command}


__all__ = ["OUTPUTS", "Output", "Written", "group_leaderboard", "outputs"]
