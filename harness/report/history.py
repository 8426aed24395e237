"""The history of a job's runs: what each ``harness run`` saw and what changed since the one before.

Every run is stored with its start and end, the games played and reused, the submissions
added, changed and removed, and (when it completed) its standings. Comparing a completed run's
standings with the previous completed run's gives the news a daily tournament needs: new
disqualifications with their reasons, bots fixed since, and rank and points moves.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any


@dataclass
class RunChanges:
    """What changed in one completed run against the previous completed run."""

    disqualified: list[tuple[str, str]] = field(default_factory=list)  # (login, reason), newly
    fixed: list[str] = field(default_factory=list)  # disqualified before, not any more
    moves: list[tuple[str, int | None, int | None, float, float]] = field(default_factory=list)
    # (login, rank before, rank now, points before, points now) for every change

    def lines(self) -> list[str]:
        out = [f"new disqualification: {login}: {reason}" for login, reason in self.disqualified]
        out += [f"fixed: {login} is no longer disqualified" for login in self.fixed]
        for login, r0, r1, p0, p1 in self.moves:
            rank = "" if r0 == r1 else f"rank {r0 if r0 is not None else '-'} -> {r1 if r1 is not None else '-'}"
            points = "" if p0 == p1 else f"points {p0:g} -> {p1:g}"
            out.append(f"{login}: " + ", ".join(x for x in (rank, points) if x))
        return out


def _by_login(standings: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {str(r["login"]): r for r in standings}


def changes(before: list[dict[str, Any]] | None, after: list[dict[str, Any]]) -> RunChanges:
    """The news between two standings snapshots (rows as JSON); students and reference players."""
    out = RunChanges()
    old = _by_login(before or [])
    for login, row in sorted(_by_login(after).items()):
        prev = old.get(login)
        was_dq = bool(prev and prev.get("disqualified"))
        if row.get("disqualified") and not was_dq:
            out.disqualified.append((login, str(row.get("reason", ""))))
        elif was_dq and not row.get("disqualified") and not row.get("absent"):
            out.fixed.append(login)
        if before is None:
            continue
        key = "rank_all" if row.get("reference") else "rank"  # a reference player has no students' rank
        r0 = prev.get(key) if prev else None
        p0 = float(prev.get("points", 0)) if prev else 0.0
        r1, p1 = row.get(key), float(row.get("points", 0))
        if (r0, p0) != (r1, p1):
            out.moves.append((login, r0, r1, p0, p1))
    return out


def annotate(runs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The runs, newest first, each with ``changes`` against the previous completed run."""
    previous: list[dict[str, Any]] | None = None
    out = []
    for run in runs:
        run = dict(run)
        if run["status"] == "complete" and "standings" in run:
            run["news"] = changes(previous, run["standings"]).lines() if previous is not None else []
            previous = run["standings"]
        else:
            run["news"] = []
        out.append(run)
    return list(reversed(out))


def series(runs: list[dict[str, Any]], key: str = "rank") -> tuple[list[str], dict[str, list[float | None]]]:
    """(run labels, login -> value per completed run) for a chart of ``key`` over the runs."""
    done = [r for r in runs if r["status"] == "complete" and "standings" in r]
    labels = [f"#{r['id']} {time.strftime('%m-%d %H:%M', time.localtime(r['started']))}" for r in done]
    logins = sorted({str(row["login"]) for r in done for row in r["standings"] if not row.get("absent")})
    values: dict[str, list[float | None]] = {login: [] for login in logins}
    for r in done:
        rows = _by_login(r["standings"])
        for login in logins:
            v = rows.get(login, {}).get(key)
            values[login].append(float(v) if v is not None else None)
    return labels, values


def describe(run: dict[str, Any]) -> str:
    """One line about a run: when, how it ended, games played and reused, submissions changed."""
    started = time.strftime("%Y-%m-%d %H:%M", time.localtime(run["started"]))
    status = run["status"]
    if status == "running":
        status = "did not finish (killed, or still running)"
    took = f", {run['ended'] - run['started']:.0f} s" if run.get("ended") else ""
    ch = run.get("changes") or {}
    subs = ", ".join(f"{len(ch.get(k, []))} {k}" for k in ("added", "changed", "removed") if ch.get(k))
    played = f"{run.get('played', 0)} played, {run.get('reused', 0)} reused of {run.get('games', 0)}"
    rejudged = ""
    if run.get("rejudged"):
        from harness.tournament.rejudge import rejudged_text

        rejudged = "; " + rejudged_text(run["rejudged"])
    return f"{started}: {status}{took}; {played}" + (f"; submissions: {subs}" if subs else "") + rejudged


__all__ = ["RunChanges", "annotate", "changes", "describe", "series"]
