"""Leaderboards and gradebook exports: text, Markdown, CSV, JSON, Gradescope and feedback files.

A gradebook has one row per student of the job (a student without a usable submission too,
with the reason) and shows the students' rank, the one awards use; the rank that also counts
reference players appears only in the leaderboard, labelled as such. A group of jobs exports
one table (one column of points per job and a total) and one Gradescope ``results.json`` per
student (one test per job).
"""

from __future__ import annotations

import csv
import io
import json
import re
import textwrap
from collections.abc import Sequence
from typing import Any

from harness.tournament.lateness import lateness_text, row_lateness
from harness.tournament.formats import format_of
from harness.tournament.results import JobResults
from harness.terminal import Column, fit_table, game_label, width
from harness.text import block, cell, line
from harness.tournament.standings import Row


def tier_text(row: Row) -> str:
    """An adaptive job's tier column: ``"near boundary"`` while the rating's interval straddles a
    tier boundary (the points may still change with more games), else ``"settled"``."""
    if row.reference or row.absent or row.disqualified:
        return ""
    return "near boundary" if row.near_boundary else "settled"


def award_rule(results: JobResults) -> str:
    """The job's award rule in words (for the leaderboard, the report and the README)."""
    awards, job = results.job.awards, results.job
    kind = format_of(job)
    battery = kind.battery(job)
    if battery is not None:
        return battery.award_text or f"{battery.title}: 1 point per part ({', '.join(battery.parts)})"
    if awards.policy == "pass_fail":
        return f"{awards.points:g} points for a submission without any verdict against it in all its games, else 0"
    if awards.policy == "tiers":
        n = sum(1 for r in results.rows if r.rank is not None)
        parts = []
        for t in awards.tiers:
            if t.rank is not None:
                parts.append(f"rank {'1' if t.rank == 1 else f'1-{t.rank}'}: {t.points:g}")
            else:
                from harness.tournament.standings import tier_reach

                reach = tier_reach(t.top or 0, n)
                reached = f"rank 1 of {n}" if reach <= 1 else f"ranks 1-{reach} of {n}"
                parts.append(f"top {100 * (t.top or 0):g} % ({reached}): {t.points:g}")
        by = " by rating (an adaptive schedule: bots meet different opponents)" if kind.by_rating else ""
        return (f"points by the students' rank{by} (bots with a verdict against them are not ranked; a fraction "
                "reaches ceil(fraction x ranked students), at least rank 1; ties share a rank): " + "; ".join(parts))
    return "no points"


def rating_text(row: Row) -> str:
    """``"1532 ±122"``: the rating and its interval's half-width (95 %, or an adaptive job's level), or
    ``""`` when there is none."""
    if row.rating is None or row.rating_high is None:
        return ""
    return f"{row.rating:.0f} ±{row.rating_high - row.rating:.0f}"


def late_text(row: Row) -> str:
    """A job with a deadline: ``"on time"``, ``"2 d: -1"`` (days late and points off), ``"2 d: not
    accepted"``, ``"?"`` when no upload time is recorded, and nothing for a reference player."""
    if row.reference or "late_days" not in row.extra:
        return ""
    if not row.extra.get("submitted"):
        return "" if row.absent else "?"  # "?": graded, but no upload time recorded (placed by hand)
    days, off = int(row.extra["late_days"]), float(row.extra["late_penalty"])
    if not days:
        return "on time"
    return f"{days} d: -{off:g}" if off else f"{days} d"


def status_text(row: Row) -> str:
    """``ok``, or why the row is not ranked: the first verdict against it, or why it has no submission."""
    return row.reason if (row.disqualified or row.absent) else ("ok" if not row.reason else f"ok ({row.reason})")


def leaderboard(results: JobResults, fmt: str) -> str:
    """The leaderboard in ``fmt``: text (fits the terminal, or ``COLUMNS``), markdown, csv or json.

    Every text a bot chose (its name, the reason of a verdict) is shown as data: one line, control
    characters escaped (:mod:`harness.text`); a CSV cell is also guarded against formulas.
    """
    rows = results.rows
    if fmt == "json":
        return json.dumps(leaderboard_json(results), indent=1)
    if fmt == "csv":
        out = io.StringIO()
        # The code rules' column only where the game has code rules: other jobs' CSVs keep their bytes.
        rules = bool(results.job.spec.submission.code_rules)
        fields = [f for f in Row.__dataclass_fields__ if f != "extra" and (rules or f != "code_rules")]
        extra = sorted({k for r in rows for k in r.extra})
        rejudged = _rejudged(results, [r.login for r in rows])  # a column only where a re-judging happened
        writer = csv.DictWriter(out, fieldnames=fields + extra + (["rejudged"] if rejudged else []),
                                lineterminator="\n")
        writer.writeheader()
        for r in rows:
            data = r.to_json()
            data.pop("extra")
            data.pop("code_rules")
            if rules:
                data["code_rules"] = "; ".join(c.summary() for c in r.code_rules)
            if rejudged:
                data["rejudged"] = rejudged[r.login]
            writer.writerow({k: cell(v) if isinstance(v, str) else v for k, v in {**data, **r.extra}.items()})
        return out.getvalue()
    battery = format_of(results.job).battery(results.job)
    table = _battery_table(rows, battery.parts) if battery is not None else _games_table(results)
    if battery is not None and results.job.deadline is not None:  # the deadline's column before the status
        columns, cells = table
        table = ([*columns[:-1], Column("late"), columns[-1]],
                 [[*c[:-1], late_text(r), c[-1]] for r, c in zip(rows, cells)])
    style = "github" if fmt == "markdown" else "simple"
    text = fit_table(*table, width() if fmt == "text" else None, style)
    from harness.report.rejudged import rejudgings, summary

    job = results.job
    rule = job.late.describe() if job.late else "it closes: a later attempt is not accepted"
    due = f"deadline {job.deadline.isoformat(timespec='minutes')}; {rule}" if job.deadline else ""
    notes = [f"({line(n)})" for n in (results.incomplete, *results.roll.warnings, *map(summary, rejudgings(results)))
             if n]
    if due:  # the deadline's line wraps within the terminal, as the table fits it
        notes.append(textwrap.fill(f"({due})", width()) if fmt == "text" else f"({due})")
    return "\n".join([*notes, text]) if notes else text


def _games_table(results: JobResults) -> tuple[list[Column], list[list[Any]]]:
    """A games job's columns: the rating only where it carries information (not in a gauntlet,
    where every bot meets the same opponent), and an adaptive job's tier; a reference player's login
    is marked "(ref.)". The bot's own name goes first when the table is too wide, then the rating;
    the status (the first verdict against the bot) keeps its first words."""
    rows = results.rows
    refs = any(r.reference for r in rows)
    kind = format_of(results.job)
    rated = kind.rated and any(r.rating is not None for r in rows)
    adaptive = kind.by_rating  # its rating decides the points: its tier never gives way
    level = f" ({100 * results.job.confidence:g}%)" if adaptive else ""
    columns = [Column("rank", head=True), Column("login", head=True), Column("bot", give=1),
               Column("games"), Column("W-D-L"), Column("score"), Column("points"),
               *([Column(f"rating{level}", give=None if adaptive else 4)] if rated else []),
               *([Column("tier")] if adaptive else []), *([Column("rank w/ ref.", give=3)] if refs else []),
               *([Column("late")] if results.job.deadline is not None else []),
               Column("status", give=6, floor=24, early=(2, 40), wrap=16)]
    table = []
    for r in rows:
        table.append(["-" if r.rank is None else r.rank, r.login + (" (ref.)" if r.reference else ""),
                      r.bot_name, r.games, f"{r.wins}-{r.draws}-{r.losses}", f"{r.score:g}", f"{r.points:g}",
                      *([rating_text(r)] if rated else []), *([tier_text(r)] if adaptive else []),
                      *(["-" if r.rank_all is None else r.rank_all] if refs else []),
                      *([late_text(r)] if results.job.deadline is not None else []), status_text(r)])
    return columns, table


def _battery_table(rows: Sequence[Row], parts: Sequence[str]) -> tuple[list[Column], list[list[Any]]]:
    """A grading battery's own columns (SemBasic's): the interface, each part's point, the points."""
    def mark(value: Any) -> str:
        return "-" if value in (None, "") else ("yes" if value is True else "no" if value is False else str(value))

    def status(r: Row) -> str:
        if r.disqualified or r.absent or "passed" not in r.extra:  # (a deadline's columns are no grading)
            return r.reason or "ok"
        return "passed" if r.extra.get("passed") else f"not passed: {r.reason}"

    columns = [Column("rank", head=True), Column("login", head=True), Column("interface"),
               *(Column(p) for p in parts), Column("points"), Column("status", give=1, floor=24, wrap=16)]
    table = [["-" if r.rank is None else r.rank, r.login, mark(r.extra.get("interface")),
              *(mark(r.extra.get(p)) for p in parts), f"{r.points:g}", status(r)] for r in rows]
    return columns, table


def leaderboard_json(results: JobResults) -> dict[str, Any]:
    """The leaderboard of a job as one JSON object: the job, whether it is complete, the rows; with
    a re-judging, every re-judging (``rejudgings``) and each concerned row's ``rejudged``."""
    rows = [_row_json(r, bool(results.job.spec.submission.code_rules)) for r in results.rows]
    rejudged = _rejudged(results, [r.login for r in results.rows])
    extra: dict[str, Any] = {}
    if rejudged:
        from harness.report.rejudged import as_json

        extra["rejudgings"] = as_json(results)
        for row in rows:
            if rejudged[str(row["login"])]:
                row["rejudged"] = rejudged[str(row["login"])]
    return {"job": results.job.name, "game": results.job.game, "format": results.job.format,
            "complete": results.complete, "games": results.done, "total": results.total,
            **format_of(results.job).summary(results),
            "incomplete": results.incomplete or None, "awards": award_rule(results), **extra, "rows": rows}


def _rejudged(results: JobResults, logins: Sequence[str]) -> dict[str, str] | None:
    """login -> its re-judgings in one cell, or None when the job has none (see :mod:`harness.report.rejudged`)."""
    from harness.report.rejudged import cells

    return cells(results, logins)


def _row_json(row: Row, rules: bool) -> dict[str, Any]:
    """A row as JSON; its code rules only where the game has code rules (other jobs' JSON keeps its bytes)."""
    data = row.to_json()
    if not rules:
        data.pop("code_rules")
    return data


def students(results: JobResults) -> list[Row]:
    """The students' rows (reference players left out), by login."""
    return sorted((r for r in results.rows if not r.reference), key=lambda r: r.login)


def gradebook_csv(results: JobResults) -> str:
    """One line per student: login, points, rank (among students), disqualified, reason."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    extra = sorted({k for r in results.rows for k in r.extra})
    rejudged = _rejudged(results, [r.login for r in students(results)])  # only where a re-judging happened
    writer.writerow(["login", "points", "rank", "disqualified", "reason", *extra, *(["rejudged"] if rejudged else [])])
    for r in students(results):
        writer.writerow([cell(r.login), f"{r.points:g}", "" if r.rank is None else r.rank, int(r.disqualified),
                         cell(r.reason) if (r.disqualified or r.absent or r.reason) else "",
                         *[_cell(r.extra.get(k, "")) for k in extra],
                         *([cell(rejudged[r.login])] if rejudged else [])])
    return out.getvalue()


def _cell(value: Any) -> Any:
    return int(value) if isinstance(value, bool) else cell(value) if isinstance(value, str) else value


def group_csv(all_results: Sequence[JobResults]) -> str:
    """One table for a group: one row per student, one column of points per job, and a total."""
    logins = sorted({r.login for res in all_results for r in students(res)})
    points = {res.job.name: {r.login: r.points for r in students(res)} for res in all_results}
    rejudged = {res.job.name: found for res in all_results if (found := _rejudged(res, logins))}
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["login", *(res.job.name for res in all_results), "total", *(["rejudged"] if rejudged else [])])
    for login in logins:
        cells = [points[res.job.name].get(login, 0.0) for res in all_results]
        notes = " / ".join(f"{job}: {found[login]}" for job, found in rejudged.items() if found[login])
        writer.writerow([cell(login), *(f"{c:g}" for c in cells), f"{sum(cells):g}", *([cell(notes)] if rejudged else [])])
    return out.getvalue()


def first_error(results: JobResults, login: str) -> dict[str, Any] | None:
    """The student's first game with a verdict against it: what, against whom, its replay, its output.

    ``game`` is its number among the student's own games of the job, in the job's order: the
    number ``harness check`` gives the same game (with its seed and seat)."""
    if results.first_errors is None:  # one pass over the games for every student (they may be in the store)
        order = {k: i for i, k in enumerate(results.schedule)}  # the store holds them in the order they finished
        found: dict[str, tuple[int, dict[str, Any]]] = {}
        places: dict[str, list[int]] = {}
        for n, (key, record) in enumerate(zip(results.keys, results.records)):
            place = order.get(key, len(order) + n) if order else n  # no schedule: the stored order
            for seat, p in enumerate(record.players):
                places.setdefault(p.login, []).append(place)
                if p.verdict.charged and (p.login not in found or place < found[p.login][0]):
                    others = [q.login for q in record.players if q.login != p.login]
                    found[p.login] = (place, {"seed": record.seed, "seat": seat, "against": others,
                                              "verdict": p.verdict.value, "reason": p.reason,
                                              "key": key, "traceback": p.traceback,
                                              "stdout": p.stdout, "stderr": p.stderr})
        results.first_errors = {login: {"game": 1 + sum(1 for q in places[login] if q < place), **err}
                                for login, (place, err) in found.items()}
    return results.first_errors.get(login)


# The grading machine's folders of a bot (its code and working folder, the compiled bot API):
# a student's traceback names the files as submitted ("player.py"), not where the grader put them.
_MACHINE_FOLDERS = re.compile(r"[^\s\"']*/harness-bot-[^/\s\"']+/(?:code|work)/"
                              r"|[^\s\"']*/harness-lib-[^/\s\"']+/(?:api/[^/\s\"']+/)?")


def as_student_sees(text: str) -> str:
    """``text`` without the grading machine's folders of the bot: ``File "player.py", line 10``."""
    return _MACHINE_FOLDERS.sub("", text)


def student_text(results: JobResults, row: Row, *, private: bool) -> str:
    """What one student is told about one job; ``private`` adds their own output and traceback."""
    job = results.job
    if row.absent:
        return f"{job.name}: 0 points: {line(row.reason)}."
    lines = []
    battery = format_of(job).battery(job)
    if battery is not None:
        passes = "both parts pass" if battery.points == 2 else "every part passes"
        lines.append(f"{job.name}: {row.points:g} of {battery.points} points"
                     + (f" ({line(row.reason)})" if row.reason else f" ({passes})"))
    else:
        lines.append(f"{job.name}: {row.games} games, {row.wins} won, {row.draws} drawn, {row.losses} lost, "
                     f"score {row.score:g}; " + (f"disqualified: {line(row.reason)}" if row.disqualified
                                                 else f"rank {row.rank}") + f"; {row.points:g} points.")
        err = first_error(results, row.login)
        if err is not None:
            lines.append(f"First error: {game_label(err['game'], err['seed'], err['seat'])}, against "
                         f"{', '.join(map(line, err['against']))}: {err['verdict']}: {line(err['reason'])}")
            if private:  # the position inline: a replay file would name what the student cannot open
                from harness.report.position import error_position

                position = error_position(results, err["key"])
                if position:
                    lines.append("The position it was given:\n" + textwrap.indent(position, "  "))
                for title, text in (("Your traceback", err["traceback"]), ("Your output (stdout)", err["stdout"]),
                                    ("Your output (stderr)", err["stderr"])):
                    if text.strip():
                        lines.append(f"{title}:\n" + textwrap.indent(as_student_sees(text.strip()[-3000:]), "  "))
    from harness.report.rejudged import student_lines

    lateness = row_lateness(job, row.extra)
    if lateness is not None and job.deadline is not None:  # the deadline: when it was handed in, what it cost
        lines.append(lateness_text(job.deadline, job.late, lateness))
    lines += student_lines(results, row.login)  # who re-judged which of the student's games, when and why
    if row.code_rules:  # the seed's code rules (issue 29): what they found, with the lines
        from harness.coderules.grading import code_rules_text

        lines += code_rules_text(row.code_rules)
    if results.incomplete:
        lines.append(f"(The job is {results.incomplete}: points may still change.)")
    return block("\n".join(lines))  # the bot's words in it (reason, output) are data


def test_status(results: JobResults, row: Row | None) -> str:
    """A Gradescope test's ``status``: ``passed`` when the job's points are all reached (a grading,
    pass/fail), or, in a job that ranks students (tiers: the points say the rank), when the bot
    played without a verdict against it; ``failed`` otherwise, and without a usable submission."""
    if row is None or row.absent or row.disqualified:
        return "failed"
    kind = format_of(results.job)
    if kind.battery(results.job) is None and results.job.awards.policy == "tiers":
        return "passed" if row.games else "failed"
    return "passed" if row.points >= kind.max_points(results.job) else "failed"


def first_error_replay(results: JobResults, row: Row) -> str:
    """The game of the student's first error, move by move as text (:func:`replay_text`), for
    Gradescope, where no replay page outlives the grading; ``""`` without an error or its game."""
    err = first_error(results, row.login)
    if err is None:
        return ""
    from harness.report.position import full_record
    from harness.report.replay import replay_text

    record = full_record(results, err["key"])
    if record is None or not record.moves:
        return ""
    return (f"{game_label(err['game'], err['seed'], err['seat']).capitalize()}, the first error, move by move "
            f"(> marks your moves):\n" + textwrap.indent(replay_text(record, err["seat"]), "  "))


def gradescope(all_results: Sequence[JobResults]) -> dict[str, dict[str, Any]]:
    """Per student, a Gradescope ``results.json``: one test per job, each with its own output, its
    ``status`` (:func:`test_status`) and, after a first error, that game move by move as text."""
    logins = sorted({r.login for res in all_results for r in students(res)})
    out: dict[str, dict[str, Any]] = {}
    for login in logins:
        tests, leaderboard_items = [], []
        for res in all_results:
            row = next((r for r in res.rows if r.login == login), None)
            kind = format_of(res.job)
            total = kind.max_points(res.job)
            if row is None:
                tests.append({"name": res.job.name, "score": 0.0, "max_score": total, "status": "failed",
                              "output": f"{res.job.name}: no submission.", "output_format": "text",
                              "visibility": "visible"})
                continue
            text = student_text(res, row, private=True)
            replay = first_error_replay(res, row)
            if replay:
                text += "\n" + block(replay)  # the moves a bot chose are data
            tests.append({"name": res.job.name, "score": row.points, "max_score": total,
                          "status": test_status(res, row), "output": text, "output_format": "text",
                          "visibility": "visible"})
            if kind.battery(res.job) is None and not row.absent:
                leaderboard_items += [{"name": f"{res.job.name} score", "value": round(row.score, 3)},
                                      {"name": f"{res.job.name} wins", "value": row.wins}]
        # No top-level max_score: Gradescope's results.json defines it per test only (they sum up).
        out[login] = {"score": sum(t["score"] for t in tests),
                      "output": "\n".join(t["output"].splitlines()[0] for t in tests), "tests": tests,
                      "leaderboard": leaderboard_items, "visibility": "visible"}
    return out


def feedback(all_results: Sequence[JobResults]) -> dict[str, str]:
    """Per student, a plain-text feedback file: every job, with their own output and traceback."""
    logins = sorted({r.login for res in all_results for r in students(res)})
    texts = {}
    for login in logins:
        parts = []
        for res in all_results:
            row = next((r for r in res.rows if r.login == login), None)
            parts.append(f"{res.job.name}: no submission." if row is None else student_text(res, row, private=True))
        texts[login] = f"Feedback for {line(login)}\n\n" + "\n\n".join(parts) + "\n"
    return texts


__all__ = ["award_rule", "feedback", "first_error", "first_error_replay", "gradebook_csv", "gradescope", "group_csv",
           "late_text", "leaderboard", "leaderboard_json", "rating_text", "student_text", "students", "test_status",
           "tier_text"]
