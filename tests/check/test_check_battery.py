"""``check`` states everything the grader would award: a game's grading battery too (Quoridor's
SemBasic), so a PASS is never silent about lost points; and its output fits the terminal."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.conftest import REPO

SHIPPED = REPO / "harness/jobs/grading.yaml"


def check(*args: str, columns: int = 80) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "COLUMNS": str(columns)}
    return subprocess.run([sys.executable, "-m", "harness", "check", *args, "--config", str(SHIPPED)],
                          cwd=REPO, capture_output=True, text=True, timeout=600, env=env)


def test_a_bot_below_the_sembasic_points_fails_check_though_its_games_are_ok() -> None:
    # The seed (004): "Z teto casti musite ziskat 2 body, jinak nebude semestralni prace uznana."
    run = check("quoridor", "submissions/quoridor/no_crossing")
    assert run.returncode == 1, run.stdout + run.stderr
    lines = run.stdout.splitlines()
    assert " ".join(" ".join(lines[-2:]).split()) == (
        "FAIL: SemBasic: 1 of 2 points (lost: expand_obstacles), and the grader needs all 2 (all 30 games of "
        "quoridor-grading ok)."), lines[-2:]
    assert json.loads(check("quoridor", "submissions/quoridor/no_crossing", "--json").stdout)["passed"] is False
    assert "SemBasic (Quoridor) for no_crossing: 1 of 2 points" in run.stdout
    assert "First failure of expand_obstacles" in run.stdout  # and why, with the position drawn
    # At 80 columns every line fits, and the job is described in words, not JSON.
    assert max(len(line) for line in lines) <= 80, max(lines, key=len)
    header = run.stdout.split("Limits:")[0]
    assert "null" not in header and "{" not in header and '"' not in header
    assert "initial walls random 4" in header and "sizex 11, sizey 11" in header


def test_the_battery_points_are_in_the_json_and_a_full_score_says_so() -> None:
    run = check("quoridor", "submissions/quoridor/ok_compact", "--games", "2", "--json")
    assert run.returncode == 0, run.stderr
    report = json.loads(run.stdout)
    assert report["battery"]["points"] == 2 and report["battery"]["interface"] is True
    text = check("quoridor", "submissions/quoridor/ok_compact", "--games", "2")
    assert " ".join(text.stdout.split()).endswith("SemBasic: 2 of 2 points (every part passes).")


def test_a_game_without_a_battery_says_nothing_of_one() -> None:
    run = check("priemspel", str(REPO / "submissions/priemspel/alice/player.py"), "--games", "2", "--json")
    assert run.returncode == 0 and json.loads(run.stdout)["battery"] is None
