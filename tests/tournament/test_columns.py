"""80 columns: ``leaderboard`` and ``status`` of a group with a battery job and long logins fit
``COLUMNS=80`` and never cut a login (other columns wrap, or each row becomes a block)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from harness.terminal import Column, fit_table
from tests.conftest import REPO

LOGINS = {"no_crossing": "no_crossing_student_2026_a", "ok_compact": "ok_compact_student_2026_b",
          "through_walls": "through_walls_of_a_student_with_an_even_longer_login"}


def harness(folder: Path, *args: str, columns: int = 80) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "COLUMNS": str(columns)}
    return subprocess.run([sys.executable, "-m", "harness", *args], cwd=folder, capture_output=True, text=True,
                          timeout=600, env=env)


@pytest.fixture(scope="module")
def course(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("columns")
    for sample, login in LOGINS.items():
        shutil.copytree(REPO / "submissions/quoridor" / sample, folder / "subs" / login)
    (folder / "tournaments.yaml").write_text(f"""
jobs:
  basic:
    game: quoridor
    format: sembasic
    submissions: subs
  games:
    game: quoridor
    format: gauntlet
    submissions: subs
    opponent: {REPO}/reference_players/quoridor/random_legal.py
    settings: [{{start_columns: random}}]
    games: 2
    awards: {{policy: pass_fail, points: 1}}
  both:
    jobs: [basic, games]
""")
    run = harness(folder, "run", "both", "--quiet", "--no-self-check")
    assert run.returncode == 0, run.stderr
    return folder


@pytest.mark.parametrize("command", ["leaderboard", "status"])
def test_the_group_fits_80_columns_with_every_login_whole(course: Path, command: str) -> None:
    run = harness(course, command, "both")
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert max(len(line) for line in lines) <= 80, max(lines, key=len)
    if command == "leaderboard":
        for login in LOGINS.values():
            assert sum(login in line for line in lines) == 2, login  # once per job, never cut
        assert "..." not in run.stdout.split("games (quoridor")[0].split("\n", 1)[0]


def test_the_sembasic_table_does_not_cut_logins_when_they_fit(course: Path) -> None:
    run = harness(course, "leaderboard", "basic", columns=100)
    for login in LOGINS.values():
        assert login in run.stdout
    assert max(len(line) for line in run.stdout.splitlines()) <= 100


def test_a_table_keeps_logins_whole_at_any_width() -> None:
    columns = [Column("rank", head=True), Column("login", head=True), Column("bot", give=1),
               Column("status", give=2, floor=24, wrap=12)]
    rows = [[1, "a" * 30, "Some Bot Name", "illegal_move: the wall overlaps an existing wall at (3, 4)"],
            [2, "short", "x", "ok"]]
    for room in (40, 50, 60, 80):
        text = fit_table(columns, rows, room)
        assert max(len(line) for line in text.splitlines()) <= room, (room, text)
        assert "a" * 30 in text and "short" in text
    assert "\n" in fit_table(columns, rows, 60).split("a" * 30)[1]  # the status wrapped, the login did not
