"""The seeds' code rules in grading: each student's findings, and the points they cost.

:func:`apply_code_rules` runs after a job's standings: for every student's row it checks the
game's code rules on the submission (once per submission content: the results are kept in
``code_rules.json`` in the job's results folder, by the submission's digest), keeps them on the
row (the feedback, the Gradescope export and the report show them) and takes off what they cost:

* a rule with a ``deduct`` share (Človeče's encapsulation: 20 %) takes that share of the points,
  unless the job's ``waive: {login: [rule]}`` waives it for the student;
* PEP 8 findings cost ``awards: {style: {per_finding: P, cap: C}}`` (P each, at most C), and
  nothing when the job sets no ``style``: the seed names no amount.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from harness import __version__
from harness.coderules import RuleResult, check_code, share_off
from harness.coderules.checkers import CodeFinding
from harness.tournament.job import Job
from harness.tournament.schedule import Roll
from harness.tournament.standings import Row

CACHE = "code_rules.json"


def _load(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return data if isinstance(data, dict) and data.get("version") == __version__ else {}
    except (OSError, ValueError):
        return {}


def _from_json(data: dict[str, Any]) -> RuleResult:
    return RuleResult(data["rule"], [CodeFinding(**f) for f in data["findings"]], data["deduct"], data["waived"],
                      data["problem"], data["truncated"])


def style_off(job: Job, results: Sequence[RuleResult]) -> float:
    """The points the job's ``awards.style`` takes for the PEP 8 findings (0 without it)."""
    style = job.awards.style
    pep8 = next((r for r in results if r.rule == "pep8"), None)
    if style is None or pep8 is None or not pep8.findings:
        return 0.0
    return min(style.cap, style.per_finding * len(pep8.findings))


def apply_code_rules(job: Job, roll: Roll, rows: Sequence[Row]) -> None:
    """Check the code rules of every student's submission and deduct what they cost (see above)."""
    game = job.spec
    if not game.submission.code_rules:
        return
    path = job.results / CACHE
    cache = _load(path)
    stored: dict[str, Any] = cache.get("results", {})
    names = [r.name for r in game.submission.code_rules]
    changed = False
    submissions = {e.login: e.submission for e in roll.entrants if not e.reference}
    for row in rows:
        submission = submissions.get(row.login)
        if submission is None or row.reference:
            continue
        key = f"{submission.sha256}:{','.join(names)}"
        if key in stored:
            results = [_from_json(d) for d in stored[key]]
        else:
            results = check_code(game.submission.code_rules, submission.python_files())
            stored[key] = [r.to_json() for r in results]
            changed = True
        waived = set(job.waive.get(row.login, ()))
        for result in results:
            result.waived = result.rule in waived
        row.code_rules = results
        if row.points:
            row.points = round(max(0.0, row.points * (1 - share_off(results)) - style_off(job, results)), 6)
    if changed and path.parent.is_dir():
        try:
            tmp = path.with_suffix(".tmp")
            tmp.write_text(json.dumps({"version": __version__, "results": stored}), encoding="utf-8")
            os.replace(tmp, path)
        except OSError:
            pass  # a read-only results folder: checked again next time


def code_rules_text(results: Sequence[RuleResult], limit: int = 50) -> list[str]:
    """The lines a student's feedback gets: each rule's summary, then its places."""
    lines = []
    for r in results:
        lines.append(f"Code rule {r.summary()}")
        lines += [f"  {f}" for f in r.findings[:limit]]
        if len(r.findings) > limit:
            lines.append(f"  ... {len(r.findings) - limit} more")
    return lines


__all__ = ["CACHE", "apply_code_rules", "code_rules_text", "style_off"]
