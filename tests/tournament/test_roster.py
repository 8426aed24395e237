"""Rosters: one login per line, a CSV with a login column, an LMS's own export with extra columns."""

from __future__ import annotations

from pathlib import Path

import pytest

from harness.roster import Person, RosterError, read_roster


def test_plain_and_csv_rosters(tmp_path: Path) -> None:
    plain = tmp_path / "plain.txt"
    plain.write_text("# the course\nalice\n\nbob\n")
    assert read_roster(plain) == [Person("alice"), Person("bob")]
    table = tmp_path / "table.csv"
    # A byte-order mark (Excel's "CSV UTF-8"), headers in any case and spacing, unknown columns ignored.
    table.write_bytes("\ufeffFull Name,LOGIN,Group,SIS_Login_ID,E-mail,Student ID,Section,Canvas User ID\n"
                      "\"Ahn, Ann\",ann,3,ann.ahn,ann@uni.example,S001,Lab 1,4711\n"
                      "Ben Berg,ben,4,,,,,\n".encode())
    assert read_roster(table) == [
        Person("ann", name="Ahn, Ann", student_id="S001", sis_login_id="ann.ahn", section="Lab 1",
               email="ann@uni.example", canvas_id="4711"),
        Person("ben", name="Ben Berg")]


@pytest.mark.parametrize("text, problem", [
    ("login\n", "lists no logins"),
    ("login,name\nann,A\nann,B\n", "lists 'ann' twice"),
])
def test_unusable_rosters_say_why(tmp_path: Path, text: str, problem: str) -> None:
    path = tmp_path / "r.csv"
    path.write_text(text)
    with pytest.raises(RosterError, match=problem):
        read_roster(path)
    with pytest.raises(RosterError, match="cannot be read"):
        read_roster(tmp_path / "missing.csv")
