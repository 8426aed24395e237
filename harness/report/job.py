"""A job's web report from its results: leaderboard, bots, replays, history, analysis; and a group's
front page linking its jobs' reports.

``public=True`` (``harness report --public``, or ``public: true`` in the job) leaves every bot's
captured stdout, stderr and traceback out of every page, and the message of an exception a bot
raised (any text the bot chose): verdicts, reasons and replays stay.
Each student's own output reaches that student through their Gradescope results or feedback
file instead.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from harness.record import GameRecord, Verdict
from harness.report.html import environment, write_page
from harness.report.site import build_site
from harness.report.analysis import analysis_json
from harness.report.export import award_rule, late_text
from harness.tournament.formats import format_of
from harness.report.history import annotate, describe, series
from harness.tournament.results import JobResults


EXCEPTION = re.compile(r"^(?P<head>.*? raised [\w.]+): (?P<message>.*?)(?P<where> at [^ ]+ line \d+ in [^ ]+)?$",
                       re.DOTALL)


def public_reason(verdict: Verdict, reason: str) -> str:
    """A reason fit to publish: an exception's message (any text the bot chose) is left out."""
    if verdict is not Verdict.EXCEPTION:
        return reason
    match = EXCEPTION.match(reason)
    if match is None:
        return reason
    return f"{match['head']} (its message is not published){match['where'] or ''}"


def scrubbed(record: GameRecord) -> GameRecord:
    """``record`` without any bot's captured output, traceback or exception message."""
    players = [dataclasses.replace(p, stdout="", stderr="", traceback="", reason=public_reason(p.verdict, p.reason))
               for p in record.players]
    return dataclasses.replace(record, players=players)


def job_items(results: JobResults, public: bool) -> dict[str, Any]:
    job = results.job
    items: dict[str, Any] = {}
    if job.description:
        items["description"] = job.description
    items.update({"game": job.game, "format": job.format,
                  "games": f"{results.done} of {results.total}" if results.total else "none",
                  "awards": award_rule(results)})
    if job.limits:
        lim = job.limits
        clock = "CPU time" if lim.policy == "cpu" else "wall-clock time"
        items["limits"] = (f"constructor {lim.init:g} s, move {lim.move:g} s of {clock}"
                           + (f" (stopped after {lim.move * lim.backstop:g} s of wall-clock time)" if lim.policy == "cpu"
                              else "") + f", memory {lim.memory_bytes >> 20} MiB")
        packages = sorted({*job.spec.submission.packages, *lim.packages})
        if packages:
            items["bot packages"] = ", ".join(packages)
    if job.deadline is not None:
        items["deadline"] = (f"{job.deadline.isoformat(timespec='minutes')}; "
                             + (job.late.describe() if job.late else "it closes: a later attempt is not accepted"))
    if public:
        items["published"] = "public report: the bots' own output and tracebacks are not shown"
    return items


def analysis_blocks(results: JobResults) -> list[dict[str, Any]]:
    """The analysis of the job (tables and charts), as sections of its front page."""
    from harness.report.charts import bars_with_intervals, paired_bars

    data = analysis_json(results)
    if data is None or not data["rows"]:
        return []
    if data["kind"] == "wins":
        rows = data["rows"]
        chart = bars_with_intervals([r["label"] for r in rows], {"wins": [(r["wins"], r["games"]) for r in rows]},
                                    title=f"Games won per strategy ({rows[0]['games']} games, seats shuffled)")
        return [{"id": "analysis", "title": "Which strategy wins", "chart": chart,
                 "headers": ["strategy", "wins", "share", "95 % interval"],
                 "rows": [[r["label"], f"{r['wins']:g}", f"{100 * (r['share'] or 0):.1f} %",
                           f"{100 * r['low']:.1f} – {100 * r['high']:.1f} %"] for r in rows],
                 "note": f"The counts add up to the {rows[0]['games']} games played."}]
    rows = data["rows"]
    panels: dict[str, list[Any]] = {}
    for r in rows:
        panels.setdefault(_short(r["settings"]), []).append(
            (f"{r['pair'][0]} / {r['pair'][1]}", (r["first"]["wins"], r["first"]["games"]),
             (r["second"]["wins"], r["second"]["games"])))
    chart = paired_bars(panels, title="Who has the advantage: wins of the first and of the second player, "
                                      "per board and pair of strategies (95 % intervals)")
    return [{"id": "analysis", "title": "First or second player?", "chart": chart,
             "headers": ["settings", "pair", "games", "first player wins", "second player wins", "advantage"],
             "rows": [[r["settings"], f"{r['pair'][0]} / {r['pair'][1]}", str(r["first"]["games"]),
                       f"{r['first']['wins']:g} [{100 * r['first']['low']:.0f}–{100 * r['first']['high']:.0f} %]",
                       f"{r['second']['wins']:g} [{100 * r['second']['low']:.0f}–{100 * r['second']['high']:.0f} %]",
                       r["advantage"]] for r in rows],
             "note": "Every pair plays both seatings on every board; intervals are 95 % (Wilson)."}]


def _short(settings: str) -> str:
    return settings.replace('"', "").replace("{", "").replace("}", "")[:28]


def history_page(results: JobResults, out: Path, title: str) -> None:
    """``history.html``: every run of the job, what changed, and each bot's rank over the runs."""
    from harness.report.charts import lines_over_runs

    runs = annotate(results.runs)
    labels, ranks = series(results.runs, "rank_all")
    drawn = any(v is not None for values in ranks.values() for v in values)
    chart = lines_over_runs(labels, ranks, title="Rank of each bot after each run (reference players included)",
                            ylabel="rank", invert=True) if drawn else ""
    env = environment()
    items = [{"line": describe(r), "status": r["status"], "news": r["news"],
              "first": r.get("first", False), "changes": r.get("changes") or {},
              "error": r.get("error", ""), "refused": r.get("refused") or []} for r in runs]
    write_page(out / "history.html", env.get_template("history.html.j2").render(
        site_title=title, scripts=[], nav=[(title, "index.html")], runs=items, chart=chart))


# Up to this many games a job's report has every replay by default; past it, a sample per bot.
ALL_REPLAYS_UP_TO = 10_000
SAMPLE_PER_BOT = 20


def build_job_site(results: JobResults, out: str | Path, *, public: bool | None = None,
                   replays: int | None | str = "auto") -> Path:
    """Write the job's site into ``out``; returns its ``index.html``.

    The games are read from the store one at a time (:func:`build_site`). ``replays``: a replay
    page for every game (``None``), for a sample of that many games per bot plus its games with
    a verdict (an int), or ``"auto"``: every game up to :data:`ALL_REPLAYS_UP_TO` games, else a
    sample of :data:`SAMPLE_PER_BOT`.
    """
    out = Path(out)
    job = results.job
    public = job.public if public is None else public
    if replays == "auto":
        replays = None if len(results.records) <= ALL_REPLAYS_UP_TO else SAMPLE_PER_BOT
    per_bot = replays if isinstance(replays, int) else None
    records = (scrubbed(r) for r in results.records) if public else results.records
    title = f"{job.name} ({job.game})"
    banners = [f"This job is {results.incomplete}: the standings and points are not final."] if results.incomplete else []
    rows = [r.to_json() for r in results.rows]
    if job.deadline is not None:  # the deadline's column: on time, days late and points off
        for row, r in zip(rows, results.rows):
            row["late"] = late_text(r)
    if not format_of(job).rated:  # every bot meets the same opponent: a rating would say nothing more
        for row in rows:
            row["rating"] = row["rating_low"] = row["rating_high"] = None
    from harness.report.rejudged import concerning, rejudgings

    found = rejudgings(results)
    if found:  # each bot's page says which of its games were re-judged, by whom, when, why, and marks them
        keys = {k for r in found for k in r.keys}
        for row in rows:
            row["rejudged"] = [{"head": r.head(), "games": labels} for r, labels in concerning(results, str(row["login"]))]
            row["rejudged_ids"] = sorted(keys) if row["rejudged"] else []
    if public:
        for row in rows:
            verdict = str(row.get("reason", "")).partition(":")[0]
            if verdict == Verdict.EXCEPTION.value:
                row["reason"] = "exception: " + public_reason(Verdict.EXCEPTION, str(row["reason"])[len("exception: "):])
    index = build_site(out, title=title, records=records, leaderboard=rows,
                       game_ids=results.keys, job=job_items(results, public), banners=banners,
                       sections=analysis_blocks(results), public=public,
                       links=[("history of the runs", "history.html"),
                              # `harness similarity JOB --out <this report>/similarity` (issue 29)
                              *([("similar submissions", "similarity/index.html")]
                                if (out / "similarity" / "index.html").exists() else [])], replays=per_bot,
                       order={key: n for n, key in enumerate(results.schedule)})
    history_page(results, out, title)
    return index


def build_group_index(out: str | Path, group: str, entries: Sequence[tuple[JobResults, str]]) -> Path:
    """``DIR/index.html`` of a group: one line per job, linking its site (``DIR/<job>/``)."""
    out = Path(out)
    rows = [{"name": r.job.name, "href": f"{href}/index.html", "game": r.job.game, "format": r.job.format,
             "description": r.job.description, "games": f"{r.done} of {r.total}", "incomplete": r.incomplete,
             "students": sum(1 for row in r.rows if not row.reference)} for r, href in entries]
    page = out / "index.html"
    write_page(page, environment().get_template("group.html.j2").render(
        site_title=group, scripts=[], nav=[], jobs=rows))
    return page


__all__ = ["build_group_index", "build_job_site", "scrubbed"]
