"""The seeds' rules about how a bot is written (PEP 8, encapsulation), checked without running it.

A game declares its rules in :attr:`harness.games.base.SubmissionRules.code_rules`. :func:`check_code`
runs the checkers of :mod:`.checkers` on every ``.py`` file of a submission through the door
(:mod:`harness.door`, task ``coderules``: a capped child, once per content, cached across runs),
because they parse untrusted source: a file built to make a parser recurse, allocate or loop
costs the child, not the harness. What the child returns is plain data, capped, and checked
before use.

A rule's result says how many places break it and which, and what it costs: Človeče's
encapsulation rule takes ``deduct`` (20 %) of a grading job's points, unless the job waives it
for the student (``waive: {login: [encapsulation]}``); PEP 8 findings cost what the job's
``awards: {style: {per_finding: P, cap: C}}`` says, and nothing by default.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from harness import door
from harness.coderules.checkers import CodeFinding
from harness.games.base import CodeRule, GameSpec

MAX_SOURCE = 512 * 1024  # all files of a submission the checkers read; a bot is a few kB
MAX_OUTPUT = 2 << 20  # what the child may print
MAX_FINDINGS = 500  # findings kept per rule (a file with thousands says the same)
CHILD_MEMORY = 512 << 20
CHILD_CPU = 5  # seconds: a bot of a few hundred lines takes about 0.1 s
TITLES = {"pep8": "PEP 8 (pycodestyle)", "encapsulation": "encapsulation"}
TASK = door.register(door.Task("coderules", "harness.coderules.checkers:check_all", memory=CHILD_MEMORY,
                               cpu=CHILD_CPU, output=MAX_OUTPUT))


@dataclass
class RuleResult:
    """One code rule on one submission: its findings, what it costs, or why it was not checked."""

    rule: str
    findings: list[CodeFinding] = field(default_factory=list)
    deduct: float = 0.0  # share of the points a breach costs (0: reported only)
    waived: bool = False
    problem: str = ""  # the check could not run (then no findings and no deduction)
    truncated: bool = False

    @property
    def title(self) -> str:
        return TITLES.get(self.rule, self.rule)

    @property
    def broken(self) -> bool:
        return bool(self.findings)

    @property
    def share_off(self) -> float:
        """The share of the points this rule takes off (0 when kept, waived or report-only)."""
        return self.deduct if self.findings and not self.waived else 0.0

    def summary(self) -> str:
        """``encapsulation: 2 places, 20 % of the points off`` and the like."""
        if self.problem:
            return f"{self.title}: not checked ({self.problem})"
        if not self.findings:
            return f"{self.title}: ok"
        n = len(self.findings)
        noun = "finding" if self.rule == "pep8" else "place"
        text = f"{self.title}: {n}{'+' if self.truncated else ''} {noun}{'s' if n != 1 else ''}"
        if self.deduct:
            text += (f", {self.deduct:.0%} of the points off".replace("%", " %") if not self.waived
                     else f" (the {self.deduct:.0%} deduction is waived for this student)".replace("%", " %"))
        return text

    def to_json(self) -> dict[str, Any]:
        return {"rule": self.rule, "findings": [f.to_json() for f in self.findings], "deduct": self.deduct,
                "waived": self.waived, "problem": self.problem, "truncated": self.truncated,
                "summary": self.summary()}


def check_code(rules: Sequence[CodeRule], files: Iterable[tuple[str, bytes]], *,
               waived: Iterable[str] = ()) -> list[RuleResult]:
    """Every rule of ``rules`` on the ``.py`` ``files`` (name, source), checked in a capped child."""
    if not rules:
        return []
    waived = set(waived)
    results = [RuleResult(r.name, deduct=r.deduct, waived=r.name in waived) for r in rules]
    sources: list[tuple[str, str]] = []
    size = 0
    for name, data in files:
        size += len(data)
        if size > MAX_SOURCE:
            for r in results:
                r.problem = f"the source is larger than {MAX_SOURCE // 1024} kB"
            return results
        sources.append((name, data.decode("utf-8", errors="replace")))
    request = {"rules": [{"name": r.name, "accessors": dict(r.accessors)} for r in rules], "files": sources}
    try:
        answer = door.run(TASK.name, request)
        if isinstance(answer, door.Over):
            raise ValueError(answer.line("the submission", "check against the code rules"))
        for result, found in zip(results, answer, strict=True):
            items = [CodeFinding(str(f[0])[:200], int(f[1]), int(f[2]), str(f[3])[:300]) for f in found]
            result.findings, result.truncated = items[:MAX_FINDINGS], len(items) > MAX_FINDINGS
    except (door.Unavailable, ValueError, TypeError, IndexError) as exc:
        for r in results:
            r.problem, r.findings = str(exc)[:200], []
    return results


def code_rules_of(game: GameSpec, submission: Any, waived: Iterable[str] = ()) -> list[RuleResult]:
    """The game's code rules on a :class:`~harness.submission.Submission` (its ``.py`` files)."""
    return check_code(game.submission.code_rules, submission.python_files(), waived=waived)


def share_off(results: Iterable[RuleResult]) -> float:
    """The share of a grading's points the rules take off together (at most all of it)."""
    return min(1.0, sum(r.share_off for r in results))


__all__ = ["CodeFinding", "RuleResult", "check_code", "code_rules_of", "share_off"]
