"""Canvas and Moodle gradebooks, checked column by column against the formats their importers
read (see harness/report/lms.py for the sources), on a real course run once: PriemSpel
submissions (good, broken, misnamed, empty), a group of a gauntlet and a round robin, a roster
with the LMS's identity columns that misses one login.
"""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest

from harness.config import load_config
from harness.report.lms import canvas_csv
from harness.tournament.formats import job_results
from tests.report.test_gradebook import course, harness, run

ROSTER = """Login,Name,Student ID,SIS Login ID,Section,Email
ann,"Ahn, Ann",S001,ann.ahn,Lab 1,ann@uni.example
ben,"Berg, Ben",S002,ben.berg,Lab 1,ben@uni.example
cat,"Cole, Cat",S003,,Lab 2,cat@uni.example
dave,"Dorn, Dave",S004,dave.dorn,Lab 2,dave@uni.example
eve,"Eng, Eve",S005,eve.eng,Lab 2,eve@uni.example
zoe,"Zeller, Zoe",S007,zoe.z,Lab 1,zoe@uni.example
"""  # noisy submitted, but is not on it


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    config = course(tmp_path_factory.mktemp("lms"))
    (config.parent / "students.csv").write_text(ROSTER)
    run(config)
    return config


def table(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text)))


def test_canvas_has_the_identity_columns_the_points_possible_row_and_one_column_per_job(played: Path) -> None:
    done = harness(played, "export", "both", "--format", "canvas")
    assert done.returncode == 0, done.stderr
    rows = table(done.stdout)
    # The importer: the header's first cells "Student", "ID", then SIS User ID, SIS Login ID, and
    # "Section" closing the identity columns; every further column is an assignment.
    assert rows[0] == ["Student", "ID", "SIS User ID", "SIS Login ID", "Section", "grading", "tour"]
    assert rows[1] == ["Points Possible", "", "", "", "", "2", "3"]  # pass_fail 2; the best tier 3
    body = {r[3]: r for r in rows[2:]}
    assert len(rows) == 2 + 7 and all(len(r) == 7 for r in rows)
    assert body["ann.ahn"][:5] == ["Ahn, Ann", "", "S001", "ann.ahn", "Lab 1"] and body["ann.ahn"][5] == "2"
    assert body["cat"][:5] == ["Cole, Cat", "", "S003", "cat", "Lab 2"]  # no SIS login id: the login
    assert body["cat"][5:] == ["0", "0"]  # disqualified in both
    assert body["dave.dorn"][5:] == ["0", "0"] and body["zoe.z"][5:] == ["0", "0"]  # absent students keep a row
    # The login no roster lists: reported, and still a row (its login where the identities go).
    assert body["noisy"][:5] == ["noisy", "", "", "noisy", ""]
    assert "1 login(s) not on a roster: noisy" in done.stderr
    for r in rows[2:]:
        assert all(0 <= float(cell) <= float(cap) for cell, cap in zip(r[5:], rows[1][5:]))
    assert "total" not in rows[0]  # Canvas would create an assignment named total


def test_moodle_has_one_identifier_the_grades_and_a_feedback_column_per_job(played: Path, tmp_path: Path) -> None:
    out = tmp_path / "moodle.csv"
    done = harness(played, "export", "both", "--format", "moodle", "--out", str(out))
    assert done.returncode == 0, done.stderr
    rows = table(out.read_text())
    # noisy has no email and no student id: the identifier every row has is the username.
    assert rows[0] == ["Username", "Full name", "grading", "tour", "Feedback for grading", "Feedback for tour"]
    body = {r[0]: r for r in rows[1:]}
    assert sorted(body) == ["ann", "ben", "cat", "dave", "eve", "noisy", "zoe"]
    assert body["ann"][1:3] == ["Ahn, Ann", "2"] and body["noisy"][1] == "noisy"
    assert "bad_answer" in body["cat"][4] and "First error" in body["cat"][4]
    assert all(len(r) == 6 and "\n" not in "".join(r) for r in rows)  # one line per student
    assert body["zoe"][5] == "tour: no submission." and "no player.py" in body["dave"][4]
    assert "map from 'Username' to Username" in done.stderr and "noisy" in done.stderr
    # With every student on the roster, the email address identifies them.
    (played.parent / "students.csv").write_text(ROSTER + 'noisy,"Noe, Isy",S006,noisy,Lab 2,noisy@uni.example\n')
    try:
        again = harness(played, "export", "both", "--format", "moodle")
    finally:
        (played.parent / "students.csv").write_text(ROSTER)
    rows = table(again.stdout)
    assert rows[0][0] == "Email address" and "not on a roster" not in again.stderr
    assert {r[0] for r in rows[1:]} == {f"{x}@uni.example" for x in ("ann", "ben", "cat", "dave", "eve", "noisy",
                                                                       "zoe")}


def test_points_never_exceed_what_the_awards_allow(played: Path) -> None:
    config = load_config(played)
    results = job_results(config.jobs["grading"])
    next(r for r in results.rows if r.login == "ann").points = 99.0  # a row the awards could never give
    rows = table(canvas_csv([results]).text)
    assert rows[1][5] == "2" and {r[0]: r[5] for r in rows[2:]}["Ahn, Ann"] == "2"


def test_a_group_leaderboard_is_one_csv_with_the_job_first(played: Path) -> None:
    done = harness(played, "leaderboard", "both", "--format", "csv")
    assert done.returncode == 0, done.stderr
    rows = list(csv.DictReader(io.StringIO(done.stdout)))
    assert list(rows[0])[:2] == ["job", "login"]
    assert {r["job"] for r in rows} == {"grading", "tour"}
    assert {r["login"] for r in rows if r["job"] == "grading"} >= {"ann", "ben", "cat", "noisy", "zoe"}


def test_a_roster_with_the_lms_columns_still_gives_the_logins(played: Path) -> None:
    job = load_config(played).jobs["grading"]
    assert job.roster == ("ann", "ben", "cat", "dave", "eve", "zoe")
    assert job.roster_file == played.parent / "students.csv"


def test_a_roster_broken_after_the_jobs_were_read_is_a_warning_and_no_row_is_lost(played: Path) -> None:
    results = job_results(load_config(played).jobs["grading"])  # read with the roster as it was
    (played.parent / "students.csv").write_text("login\n")
    try:
        book = canvas_csv([results])
        done = harness(played, "export", "grading", "--format", "canvas")
    finally:
        (played.parent / "students.csv").write_text(ROSTER)
    assert book.warnings[0] == f"grading: the roster {played.parent / 'students.csv'} lists no logins (one per line, " \
                               "or a CSV file with a 'login' column)"
    assert "7 login(s) not on a roster" in book.warnings[1] and len(table(book.text)) == 2 + 7
    # Read now, the jobs file itself refuses the job: one line, exit code 2.
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "students.csv lists no logins" in done.stderr
