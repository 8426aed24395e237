"""The seeds' code rules: PEP 8 for Blokovanie, encapsulation for Človeče, in check and in grading."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from harness import coderules, door
from harness.coderules import check_code
from harness.coderules.checkers import encapsulation, pep8
from harness.games import get_game
from harness.games.base import CodeRule
from tests.conftest import REPO

CLOVECE = get_game("clovece")
ACCESSORS = CLOVECE.submission.code_rules[0].accessors

BREACH = (REPO / "submissions/clovece/runner/player.py").read_text()  # piece.position twice on line 12
CLEAN = BREACH.replace("piece.position", "piece.get_position()")
STYLED = """class Player:
    def __init__(self,name):
        self.name=name
    def move(self, board):
        for r, row in enumerate(board):
            for c, mark in enumerate(row):
                if mark == '-': return (r,c)
"""
TIDY = (REPO / "reference_players/blokovanie/max_block.py").read_text()


def harness(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "harness", *args], cwd=cwd, capture_output=True, text=True,
                          env={"PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin"}, timeout=600)


def test_encapsulation_finds_reads_and_writes_outside_the_class_and_nothing_else() -> None:
    source = '''import math


class Counter:
    def __init__(self):
        self.count = 0

    def same(self, other):
        return self.count == other.count  # the same class: allowed


def bump(counter, piece):
    counter.count += 1
    piece.position = 3
    return math.pi + piece.get_position()
'''
    found = encapsulation("player.py", source, ACCESSORS)
    assert [(f.line, f.text.split(":")[0]) for f in found] == [(13, "counter.count"), (14, "piece.position")]
    assert "written directly" in found[0].text and "use get_position()" in found[1].text
    assert encapsulation("player.py", CLEAN, ACCESSORS) == []
    assert [f.line for f in encapsulation("player.py", BREACH, ACCESSORS)] == [12, 12]


def test_pep8_lists_findings_with_lines() -> None:
    found = pep8("player.py", STYLED)
    assert {(f.line, f.text[:4]) for f in found} >= {(2, "E231"), (3, "E225"), (4, "E301")}
    assert pep8("player.py", TIDY) == []


def test_a_checker_that_fails_costs_the_child_not_the_harness(monkeypatch: pytest.MonkeyPatch) -> None:
    # Too deep for the parser: the encapsulation check finds nothing (the sandbox's import reports it).
    nested = "x = " + "(" * 5000 + ")" * 5000 + "\n"
    assert encapsulation("player.py", nested, {"x": ""}) == []
    # A child that dies (here: an address space too small to start Python) is a problem, not a crash.
    monkeypatch.setitem(door.TASKS, coderules.TASK.name, replace(coderules.TASK, memory=8 << 20))
    results = check_code([CodeRule("encapsulation", deduct=0.2), CodeRule("pep8")], [("player.py", BREACH.encode())])
    assert all(r.problem == "the door's child failed (exit code 3)" and not r.findings and not r.share_off
               for r in results)
    monkeypatch.undo()
    huge = check_code([CodeRule("pep8")], [("player.py", b"x = 1\n" * 200_000)])
    assert "larger than" in huge[0].problem and not huge[0].findings


def test_check_clovece_names_the_breach_its_line_and_the_20_percent(tmp_path: Path) -> None:
    for name, text in (("breach", BREACH), ("clean", CLEAN)):
        (tmp_path / name).mkdir()
        (tmp_path / name / "player.py").write_text(text)
    done = harness("check", "clovece", "breach", "--games", "1", cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "LOSE  encapsulation: 2 places, 20 % of the points off" in done.stdout
    assert "player.py:12:26: piece.position: the member variable 'position' read directly" in done.stdout
    assert "But encapsulation costs 20 % of the points" in done.stdout.splitlines()[-1]
    done = harness("check", "clovece", "clean", "--games", "1", "--json", cwd=tmp_path)
    report = json.loads(done.stdout)
    assert report["code_rules"][0]["summary"] == "encapsulation: ok" and report["passed"]


def test_check_blokovanie_lists_pep8_findings_and_none_for_a_clean_bot(tmp_path: Path) -> None:
    for name, text in (("styled", STYLED), ("tidy", TIDY)):
        (tmp_path / name).mkdir()
        (tmp_path / name / "player.py").write_text(text)
    done = harness("check", "blokovanie", "styled", "--games", "1", cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "warn  PEP 8 (pycodestyle): " in done.stdout and "player.py:2:" in done.stdout
    assert "E231" in done.stdout and "But" not in done.stdout  # the seed names no amount: nothing off
    done = harness("check", "blokovanie", "tidy", "--games", "1", cwd=tmp_path)
    assert "ok    PEP 8 (pycodestyle): ok" in done.stdout


def test_grading_deducts_20_percent_names_the_lines_and_honours_a_waiver(tmp_path: Path) -> None:
    for name, text in (("breach", BREACH), ("clean", CLEAN), ("forgiven", BREACH)):
        (tmp_path / "subs" / name).mkdir(parents=True)
        (tmp_path / "subs" / name / "player.py").write_text(text)
    for name, text in (("styled", STYLED), ("tidy", TIDY)):
        (tmp_path / "subs2" / name).mkdir(parents=True)
        (tmp_path / "subs2" / name / "player.py").write_text(text)
    (tmp_path / "tournaments.yaml").write_text("""jobs:
  cl:
    game: clovece
    format: gauntlet
    submissions: subs
    opponent: reference_players/clovece/random.py
    games: 1
    awards: {policy: pass_fail, points: 10}
    waive: {forgiven: [encapsulation]}
  bl:
    game: blokovanie
    format: gauntlet
    submissions: subs2
    opponent: reference_players/blokovanie/random.py
    games: 1
    awards: {policy: pass_fail, points: 1, style: {per_finding: 0.1, cap: 0.25}}
""")
    for job in ("cl", "bl"):
        assert harness("run", job, "--quiet", cwd=tmp_path).returncode == 0
    rows = {r["login"]: r for r in json.loads(harness("leaderboard", "cl", "--format", "json", cwd=tmp_path).stdout)["rows"]}
    assert (rows["clean"]["points"], rows["breach"]["points"], rows["forgiven"]["points"]) == (10, 8, 10)
    assert rows["forgiven"]["code_rules"][0]["waived"]
    styled = {r["login"]: r["points"] for r in
              json.loads(harness("leaderboard", "bl", "--format", "json", cwd=tmp_path).stdout)["rows"]}
    assert styled == {"styled": 0.75, "tidy": 1}  # at least 3 findings at 0.1, capped at 0.25
    assert harness("export", "cl", "--format", "feedback", "--out", "fb", cwd=tmp_path).returncode == 0
    text = (tmp_path / "fb" / "breach.txt").read_text()
    assert "encapsulation: 2 places, 20 % of the points off" in text and "player.py:12:26" in text
    assert harness("export", "cl", "--format", "gradescope", "--out", "gs", cwd=tmp_path).returncode == 0
    graded = json.loads((tmp_path / "gs" / "breach" / "results.json").read_text())
    assert graded["tests"][0]["score"] == 8 and "player.py:12:26" in graded["tests"][0]["output"]
    assert harness("report", "cl", "--out", "site", cwd=tmp_path).returncode == 0
    page = next((tmp_path / "site" / "bots").glob("breach*.html")).read_text()
    assert 'id="code-rules"' in page and "player.py:12:26" in page and "20 % of the points off" in page


def test_a_waiver_of_an_unknown_rule_is_one_line(tmp_path: Path) -> None:
    (tmp_path / "tournaments.yaml").write_text("""jobs:
  cl:
    game: clovece
    format: shuffled
    reference: [reference_players/clovece/random.py, reference_players/clovece/safe.py,
                reference_players/clovece/mean.py, reference_players/clovece/eager.py]
    waive: {someone: [pep8]}
""")
    done = harness("validate", cwd=tmp_path)
    assert done.returncode != 0 and "waive.someone: must be a list of Človeče nehnevaj sa's code rules" in done.stdout + done.stderr


def test_the_shipped_clovece_players_keep_encapsulation() -> None:
    for path in sorted((REPO / "reference_players/clovece").glob("*.py")):
        assert encapsulation(path.name, path.read_text(), ACCESSORS) == [], path.name
