"""Grades an instructor can sign: every student has a row, incomplete is never silent, one gradebook
across a group, a public report without any bot's output, the history of the runs.

Real jobs on real SQLite stores, run by the real ``harness`` command in a subprocess.
"""

from __future__ import annotations

import csv
import io
import json
import re
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.conftest import BOTS, REPO

BASIS = REPO / "reference_players/priemspel/basis.py"
STRATEGIE = REPO / "reference_players/priemspel/strategie.py"
MARKER = "SECRET-MARKER-7f3a"
NOISY = f'''import sys


class Player:
    """Plays the smallest step, and prints a marker on both streams and in its exception."""

    def __init__(self, name):
        print("{MARKER} stdout")
        sys.stderr.write("{MARKER} stderr\\n")

    def zet(self, spel):
        if spel.positie > 12:
            raise ValueError("{MARKER} in a traceback")
        for stap in range(1, spel.N + 1):
            n = spel.positie + stap
            if n > 1 and all(n % i for i in range(2, int(n ** 0.5) + 1)):
                return stap
        return 1
'''.encode()
SLOW = (REPO / "tests/tournament/test_run.py").read_text().split("SLOW = b'''", 1)[1].split("'''", 1)[0].encode()


def course(tmp: Path, games: int = 1, roster: bool = True, slow: bool = False) -> Path:
    """A course folder: PriemSpel submissions (good, broken, misnamed, empty) and a group of two jobs."""
    subs = tmp / "submissions"
    for login, source in [("ann", BASIS.read_bytes()), ("ben", SLOW if slow else STRATEGIE.read_bytes()),
                          ("cat", (BOTS / "priemspel/wrong_type.py").read_bytes()), ("noisy", NOISY)]:
        (subs / login).mkdir(parents=True)
        (subs / login / "player.py").write_bytes(source)
    (subs / "dave").mkdir()
    (subs / "dave" / "Player.py").write_bytes(BASIS.read_bytes())
    (subs / "eve").mkdir()
    (tmp / "students.csv").write_text("name,login\nAnn,ann\nBen,ben\nCat,cat\nDave,dave\nEve,eve\nNoisy,noisy\n"
                                      "Zoe,zoe\n")
    config = tmp / "tournaments.yaml"
    config.write_text(f"""
jobs:
  grading:
    game: priemspel
    format: gauntlet
    submissions: submissions
    {"roster: students.csv" if roster else ""}
    opponent: {STRATEGIE}
    settings: [{{N: 5}}, {{start: 10, N: 4}}]
    games: {2 * games}
    awards: {{policy: pass_fail, points: 2}}
    workers: 2
  tour:
    game: priemspel
    format: round_robin
    submissions: submissions
    reference: [{BASIS}]
    settings: [{{N: 5}}, {{N: 7}}]
    games: {games}
    awards: {{policy: tiers, tiers: [{{top: 0.1, points: 3}}, {{top: 0.4, points: 1}}]}}
    workers: 2
  both:
    jobs: [grading, tour]
""")
    return config


def harness(config: Path, *args: str, timeout: float = 600) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "harness", *args, "--config", str(config)], cwd=config.parent,
                          capture_output=True, text=True, timeout=timeout)


def run(config: Path, job: str = "both") -> subprocess.CompletedProcess[str]:
    done = harness(config, "run", job, "--quiet", "--no-self-check")
    assert done.returncode == 0, done.stderr
    return done


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The course, run once to the end (shared by the read-only tests of this module)."""
    config = course(tmp_path_factory.mktemp("course"))
    run(config)
    return config


def test_every_student_has_a_row_with_a_reason_that_helps(played: Path) -> None:
    board = json.loads(harness(played, "leaderboard", "grading", "--format", "json").stdout)
    rows = {r["login"]: r for r in board["rows"]}
    assert set(rows) == {"ann", "ben", "cat", "dave", "eve", "noisy", "zoe"}
    assert rows["dave"]["absent"] and rows["dave"]["points"] == 0
    # Named as the student submitted it: no path of the grading machine reaches the student.
    assert rows["dave"]["reason"] == ("no player.py in your submission; found Player.py "
                                      "(the name must be exactly player.py)")
    assert rows["eve"]["reason"].endswith("; the folder is empty") and rows["zoe"]["reason"] == "no submission"
    assert rows["ann"]["points"] == 2 and rows["cat"]["points"] == 0 and rows["cat"]["disqualified"]
    table = list(csv.DictReader(io.StringIO(harness(played, "export", "grading").stdout)))
    assert [r["login"] for r in table] == ["ann", "ben", "cat", "dave", "eve", "noisy", "zoe"]
    assert {r["login"]: r["points"] for r in table}["dave"] == "0"


def test_logins_not_on_the_roster_are_warned_about(tmp_path: Path) -> None:
    config = course(tmp_path)
    (tmp_path / "students.csv").write_text("login\nann\nben\n")
    done = run(config, "grading")
    assert "submission(s) of logins not on the roster: cat, dave, eve, noisy" in done.stderr


def test_a_group_exports_one_table_and_one_json_document(played: Path) -> None:
    text = harness(played, "export", "both", "--format", "csv").stdout
    table = list(csv.reader(io.StringIO(text)))
    assert table[0] == ["login", "grading", "tour", "total"]
    by_login = {row[0]: row[1:] for row in table[1:]}
    assert by_login["ann"][0] == "2" and float(by_login["ann"][2]) == float(by_login["ann"][0]) + float(by_login["ann"][1])
    assert by_login["zoe"] == ["0", "0", "0"]  # on the roster of one job only: still a row
    data = json.loads(harness(played, "leaderboard", "both", "--format", "json").stdout)  # one document
    assert data["group"] == "both" and [j["job"] for j in data["jobs"]] == ["grading", "tour"]
    assert all(j["complete"] for j in data["jobs"])


def test_gradescope_gives_each_student_one_test_per_job_with_the_first_error(played: Path, tmp_path: Path) -> None:
    out = tmp_path / "gs"
    done = harness(played, "export", "both", "--format", "gradescope", "--out", str(out))
    assert done.returncode == 0, done.stderr
    cat = json.loads((out / "cat" / "results.json").read_text())
    assert [t["name"] for t in cat["tests"]] == ["grading", "tour"]
    assert cat["score"] == sum(t["score"] for t in cat["tests"]) == 0
    assert "bad_answer" in cat["tests"][0]["output"] and "The position it was given:" in cat["tests"][0]["output"]
    assert "games/" not in json.dumps(cat)  # no replay file the student cannot open
    assert "max_score" not in cat and cat["tests"][0]["max_score"] > 0  # per test only, as Gradescope defines
    noisy = json.loads((out / "noisy" / "results.json").read_text())
    assert MARKER in noisy["tests"][0]["output"]  # a student's own output reaches that student
    assert MARKER not in json.dumps(json.loads((out / "ann" / "results.json").read_text()))
    # Each test passes or fails as Gradescope shows it: every point of a pass/fail job; in a job that
    # ranks (tiers), playing without a verdict; no usable submission fails both.
    board = {r["login"]: r for r in json.loads(harness(played, "leaderboard", "grading", "--format", "json").stdout)["rows"]}
    for login in ("ann", "ben", "cat", "dave", "eve", "noisy", "zoe"):
        tests = {t["name"]: t for t in json.loads((out / login / "results.json").read_text())["tests"]}
        grading = tests["grading"]
        assert grading["status"] == ("passed" if grading["score"] == grading["max_score"] else "failed"), login
        assert grading["output_format"] == "text"  # a drawing keeps its spaces
        if login in ("cat", "dave", "eve", "zoe"):
            assert grading["status"] == tests["tour"]["status"] == "failed", login
    assert board["ann"]["points"] == 2 and json.loads((out / "ann" / "results.json").read_text())["tests"][1]["status"] == "passed"
    # The replay the report would show (deleted with Gradescope's container): the game as text.
    output = cat["tests"][0]["output"]
    replay = output.split("the first error, move by move (> marks your moves):\n", 1)[1]
    first = json.loads(harness(played, "export", "grading", "--format", "feedback").stdout)["cat"]
    assert re.search(r"First error: (game \d+ \(seed \d+, seat \d\))", first)[1].capitalize() in output
    assert re.search(r"^  >\s+x  cat: .*REJECTED$", replay, re.M) and "  result: " in replay
    assert "cat: bad_answer: " in replay


def test_a_public_report_holds_no_bot_output_anywhere(played: Path, tmp_path: Path) -> None:
    full, public = tmp_path / "full", tmp_path / "public"
    assert harness(played, "report", "both", "--out", str(full)).returncode == 0
    done = harness(played, "report", "both", "--out", str(public), "--public")
    assert done.returncode == 0, done.stderr
    assert (public / "index.html").is_file() and (public / "grading" / "index.html").is_file()
    assert 'href="tour/index.html"' in (public / "index.html").read_text()
    files = [p for p in public.rglob("*") if p.is_file()]
    assert len(files) > 20
    assert not any(MARKER in p.read_text(errors="replace") for p in files)
    assert any(MARKER in p.read_text(errors="replace") for p in full.rglob("*.html"))  # the instructor's one has it
    # Verdicts, reasons and replays stay.
    index = (public / "grading" / "index.html").read_text()
    assert "bad_answer" in index and (public / "grading" / "games").is_dir()


def test_awards_reach_the_best_student_and_the_rule_is_stated(played: Path) -> None:
    board = json.loads(harness(played, "leaderboard", "tour", "--format", "json").stdout)
    ranked = [r for r in board["rows"] if r["rank"] is not None]
    assert ranked and all(r["points"] == 3 for r in ranked if r["rank"] == 1)
    assert "ceil(fraction x ranked students)" in board["awards"]
    assert "points by the students&#39; rank" in (played.parent / "results/tour/site/index.html").read_text()


def test_an_interrupted_run_is_incomplete_everywhere_and_not_exported(tmp_path: Path) -> None:
    config = course(tmp_path, games=2, roster=False, slow=True)
    proc = subprocess.Popen([sys.executable, "-m", "harness", "run", "tour", "--config", str(config), "--quiet",
                             "--no-self-check"], cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            start_new_session=True)
    db = tmp_path / "results" / "tour" / "results.sqlite"
    deadline = time.time() + 120
    while time.time() < deadline:
        if db.exists():
            import sqlite3

            with sqlite3.connect(db) as con:
                try:
                    if con.execute("SELECT COUNT(*) FROM games").fetchone()[0] >= 4:
                        break
                except sqlite3.Error:
                    pass
        time.sleep(0.05)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    board = harness(config, "leaderboard", "tour")
    assert board.returncode == 0 and board.stdout.startswith("(incomplete: "), board.stdout
    assert " of 80 games)" in board.stdout.splitlines()[0]
    export = harness(config, "export", "tour")
    assert export.returncode == 1 and export.stdout == ""
    assert "tour: incomplete: " in export.stderr and "--allow-incomplete" in export.stderr
    assert len(export.stderr.strip().splitlines()) == 1
    allowed = harness(config, "export", "tour", "--allow-incomplete")
    assert allowed.returncode == 0 and allowed.stdout.startswith("login,points,rank,disqualified,reason")
    assert harness(config, "report", "tour", "--out", str(tmp_path / "site")).returncode == 0
    assert "is incomplete: " in (tmp_path / "site" / "index.html").read_text()
    status = harness(config, "status", "tour").stdout
    assert "did not finish (killed, or still running)" in status and "incomplete:" in status


def test_the_history_says_what_changed_between_runs(tmp_path: Path) -> None:
    config = course(tmp_path, roster=False)
    run(config, "tour")
    # The next day: cat fixes her bot, ann breaks hers.
    (tmp_path / "submissions" / "cat" / "player.py").write_bytes(BASIS.read_bytes() + b"\n# fixed\n")
    (tmp_path / "submissions" / "ann" / "player.py").write_bytes((BOTS / "priemspel/wrong_type.py").read_bytes())
    second = run(config, "tour")
    assert "reused" in second.stderr
    page = (tmp_path / "results" / "tour" / "site" / "history.html").read_text()
    assert "new disqualification: ann: bad_answer" in page
    assert "fixed: cat is no longer disqualified" in page
    assert "submissions changed: ann, cat" in page
    assert 'id="rank-chart"' in page and "data:image/svg+xml;base64," in page
    status = harness(config, "status", "tour").stdout.replace("\n    ", " ").splitlines()  # unwrapped
    assert status[0] == "tour (priemspel, round_robin)" and "complete" in status[1]
    assert status[2].startswith("  stored: ") and status[3] == "  last error: none"


def test_sembasic_is_a_job_whose_points_reach_the_gradebook(tmp_path: Path) -> None:
    subs = tmp_path / "subs"
    for login in ("ok_compact", "no_path_check"):
        (subs / login).mkdir(parents=True)
        (subs / login / "player.py").write_bytes((REPO / "submissions/quoridor" / login / "player.py").read_bytes())
    (subs / "empty").mkdir()
    config = tmp_path / "tournaments.yaml"
    config.write_text("jobs:\n  basic:\n    game: quoridor\n    format: sembasic\n    submissions: subs\n")
    done = harness(config, "run", "basic", "--quiet", "--no-self-check")
    assert done.returncode == 0, done.stderr
    assert "basic: 2 gradings, 0 reused, 2 played" in done.stderr
    table = {r["login"]: r for r in csv.DictReader(io.StringIO(harness(config, "export", "basic").stdout))}
    assert (table["ok_compact"]["points"], table["ok_compact"]["expand_player"],
            table["ok_compact"]["expand_obstacles"], table["ok_compact"]["passed"]) == ("2", "1", "1", "1")
    assert (table["no_path_check"]["points"], table["no_path_check"]["passed"]) == ("1", "0")
    assert "expand_obstacles" in table["no_path_check"]["reason"]
    assert table["empty"]["points"] == "0" and "the folder is empty" in table["empty"]["reason"]
    again = harness(config, "run", "basic", "--quiet", "--no-self-check")
    assert "2 reused, 0 played" in again.stderr  # graded once per version of the submission
