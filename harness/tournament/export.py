"""Leaderboards and gradebook exports as text, Markdown, CSV, JSON and Gradescope results."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Sequence
from typing import Any

from tabulate import tabulate

from harness.config import Awards
from harness.tournament.standings import Row, max_points

COLUMNS = ["rank", "login", "bot", "games", "W", "D", "L", "score", "against", "disqualified", "points",
           "rating (95% CI)"]


def _cells(row: Row) -> list[Any]:
    name = row.login + (" (reference)" if row.reference else "")
    dq = ("yes: " + row.reason[:70] + ("..." if len(row.reason) > 70 else "")) if row.disqualified else ""
    ci = f"{row.rating:.0f} [{row.rating_low:.0f}, {row.rating_high:.0f}]"
    return ["-" if row.rank is None else row.rank, name, row.bot_name, row.games, row.wins, row.draws,
            row.losses, f"{row.score:g}", row.verdicts_against, dq, f"{row.points:g}", ci]


def leaderboard(rows: Sequence[Row], fmt: str) -> str:
    """The leaderboard in ``fmt``: text, markdown, csv or json."""
    if fmt == "json":
        return json.dumps([r.to_json() for r in rows], indent=1)
    if fmt == "csv":
        out = io.StringIO()
        fields = list(Row.__dataclass_fields__)
        writer = csv.DictWriter(out, fieldnames=fields, lineterminator="\n")
        writer.writeheader()
        for r in rows:
            writer.writerow(r.to_json())
        return out.getvalue()
    table = [_cells(r) for r in rows]
    return tabulate(table, headers=COLUMNS, tablefmt="github" if fmt == "markdown" else "simple",
                    disable_numparse=True)


def gradebook_csv(rows: Sequence[Row]) -> str:
    """One line per student: login, points, disqualified, reason."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["login", "points", "disqualified", "rank", "reason"])
    for r in sorted((r for r in rows if not r.reference), key=lambda r: r.login):
        writer.writerow([r.login, f"{r.points:g}", int(r.disqualified), "" if r.rank is None else r.rank, r.reason])
    return out.getvalue()


def gradescope(rows: Sequence[Row], awards: Awards, job_name: str) -> dict[str, dict[str, Any]]:
    """Per student, a Gradescope autograder ``results.json`` object (score, max_score, output, leaderboard)."""
    results: dict[str, dict[str, Any]] = {}
    total = max_points(awards)
    for r in rows:
        if r.reference:
            continue
        status = f"disqualified: {r.reason}" if r.disqualified else f"rank {r.rank}"
        output = (f"{job_name}: {r.games} games, {r.wins} won, {r.draws} drawn, {r.losses} lost, "
                  f"score {r.score:g}; {status}.")
        results[r.login] = {
            "score": r.points,
            "max_score": total,
            "output": output,
            "visibility": "visible",
            "leaderboard": [
                {"name": "Score", "value": round(r.score, 3)},
                {"name": "Rating", "value": round(r.rating, 1)},
                {"name": "Wins", "value": r.wins},
            ],
        }
    return results
