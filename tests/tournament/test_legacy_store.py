"""A store written before the redesign of issue 28 is reused whole, and reads the same.

``tests/tournament/legacy/`` was written by the harness as it was before formats became plug-ins
(commit 94a6ac0): a round robin (``rr``), an adaptive job (``ad``), a Štreky gauntlet (``sg``)
of tiny PriemSpel and Štreky bots and a SemBasic grading battery (``sb``) of two Quoridor bots, their SQLite stores under ``results/``, and what
``harness leaderboard`` and ``harness export`` printed from them under ``expected/``. The code of
today must find every stored game (0 played: the game keys did not change) and print the same
bytes.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import REPO

LEGACY = Path(__file__).parent / "legacy"
JOBS = ("rr", "ad", "sg", "sb", "all")
BOARDS = ("text", "markdown", "csv", "json")
EXPORTS = ("csv", "canvas", "moodle", "gradescope", "feedback")


@pytest.fixture(scope="module")
def legacy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the legacy folder (a run appends to its stores' history)."""
    folder = tmp_path_factory.mktemp("legacy") / "legacy"
    shutil.copytree(LEGACY, folder)
    return folder


def harness(folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "COLUMNS": "100"}  # the text leaderboard fits this width
    return subprocess.run([sys.executable, "-m", "harness", *args, "--config", str(folder / "tournaments.yaml")],
                          cwd=REPO, capture_output=True, text=True, timeout=600, env=env)


@pytest.mark.parametrize("job", JOBS)
@pytest.mark.parametrize("fmt", BOARDS)
def test_the_leaderboards_of_an_old_store_are_the_same(legacy: Path, job: str, fmt: str) -> None:
    done = harness(legacy, "leaderboard", job, "--format", fmt)
    assert done.returncode == 0, done.stderr
    assert done.stdout == (LEGACY / "expected" / f"leaderboard-{job}.{fmt}").read_text(encoding="utf-8")


@pytest.mark.parametrize("job", JOBS)
@pytest.mark.parametrize("fmt", EXPORTS)
def test_the_exports_of_an_old_store_are_the_same(legacy: Path, job: str, fmt: str) -> None:
    done = harness(legacy, "export", job, "--format", fmt)
    assert done.returncode == 0, done.stderr
    assert done.stdout == (LEGACY / "expected" / f"export-{job}.{fmt}").read_text(encoding="utf-8")


def test_an_old_store_is_reused_whole(legacy: Path) -> None:
    """Runs after the reads above (pytest keeps the file's order): every game is found, none played."""
    done = harness(legacy, "run", "all", "--quiet", "--no-self-check")
    assert done.returncode == 0, done.stderr
    summaries = [line for line in done.stderr.splitlines() if " reused, " in line]
    assert summaries == ["rr: 40 games, 40 reused, 0 played", "ad: 38 games, 38 reused, 0 played",
                         "sg: 4 games, 4 reused, 0 played", "sb: 2 gradings, 2 reused, 0 played"], done.stderr
    for job in JOBS:  # and the standings it stored in the history read as before
        board = harness(legacy, "leaderboard", job, "--format", "csv")
        assert board.stdout == (LEGACY / "expected" / f"leaderboard-{job}.csv").read_text(encoding="utf-8")
