"""``harness check streky``: the game the command is for (ASCII-only sources, a text board)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from harness.games import game_names
from tests.check.test_check_cli import check
from tests.conftest import REPO, last_said

HERE = Path(__file__).resolve().parent

pytestmark = pytest.mark.skipif("streky" not in game_names(), reason="the Štreky game is not installed")


def test_a_reference_player_passes(tmp_path: Path) -> None:
    run = check("streky", str(REPO / "reference_players/streky/random.py"), "--games", "2", "--json",
                "--out", str(tmp_path), cwd=tmp_path)
    report = json.loads(run.stdout)
    assert run.returncode == 0 and report["passed"] is True, report["first_error"]
    assert report["job"]["name"] == "streky-grading" and report["job"]["opponent"] == "brute"
    assert report["static"][0] == {"name": "source is ASCII-only", "ok": True, "detail": ""}
    assert report["static"][1]["detail"] == "allowed: the standard library, base, PIL"


def test_checking_the_opponent_itself_keeps_both_names(tmp_path: Path) -> None:
    run = check("streky", str(REPO / "reference_players/streky/brute.py"), "--games", "2", "--json", cwd=tmp_path)
    report = json.loads(run.stdout)
    assert {g["opponent"] for g in report["games"]} == {"reference-brute"}


def test_a_bot_hard_wired_to_the_template_board_fails_check(tmp_path: Path) -> None:
    """It plays by the rules on the course's 19x23 self-play board, but the grading job deals
    random boards: check plays what the grader plays, so it fails, as the grader would fail it."""
    bot = HERE / "bots/streky_19x23.py"
    practice = check("streky", str(bot), "--against", "random", "--games", "2", "--json", cwd=tmp_path)
    assert practice.returncode == 0, practice.stdout
    run = check("streky", str(bot), cwd=tmp_path)
    assert run.returncode == 1, run.stdout
    assert "Grading job: streky-grading (from the harness's shipped grading jobs)\n  64 games against brute" in run.stdout
    assert re.search(r"FAIL: \d+ of 64 games end with a verdict against your bot\.$", run.stdout)
    assert "First error: game " in run.stdout  # its array is 19 x 23: an IndexError, or a card off the board


def test_a_pass_while_a_card_fits_is_explained_on_the_board(tmp_path: Path) -> None:
    run = check("streky", str(HERE / "bots/streky_passer.py"), "--games", "1", "--out", str(tmp_path), cwd=tmp_path)
    assert run.returncode == 1
    out = run.stdout
    assert "First error: game 1 (seed 1, seat 0) vs brute, after 0 plies: illegal_move" in out
    assert "a player must place a card when it can" in out
    assert "\n  answer: " in out  # the pass, as the game records it
    board = out.split("  position:\n", 1)[1]
    # The game's render_text, each column number over its column's values.
    assert board.startswith("         0         5") and "\n      0  . . ." in board
    assert (tmp_path / "harness-check-streky-1.html").is_file()


def test_a_non_ascii_source_fails_before_any_game(tmp_path: Path) -> None:
    run = check("streky", str(HERE / "bots/streky_non_ascii.py"), "--json", "--out", str(tmp_path), cwd=tmp_path)
    report = json.loads(run.stdout)
    assert run.returncode == 1 and report["games"] == [] and report["passed"] is False
    first = report["static"][0]
    assert first["name"] == "source is ASCII-only" and first["ok"] is False
    assert first["detail"].startswith("player.py line 5 column ") and "non-ASCII" in first["detail"]


def test_check_takes_a_folder_and_a_zip(tmp_path: Path) -> None:
    import zipfile

    two = REPO / "tests/bots/course/streky_two_files"
    run = check("streky", str(two), "--games", "2", cwd=tmp_path)
    assert "Files: player.py, utils.py" in run.stdout
    # Štreky takes player.py alone (§1.2): the folder is read, and its second module refused.
    assert run.returncode == 1 and last_said(run.stdout).startswith("FAIL: one file (player.py): utils.py")
    folder = REPO / "tests/bots/course/quoridor_zip"
    with zipfile.ZipFile(tmp_path / "player.zip", "w") as z:
        for f in folder.glob("*.py"):
            z.write(f, f.name)
    run = check("quoridor", str(tmp_path / "player.zip"), "--games", "2", cwd=tmp_path)
    assert run.returncode == 0, run.stdout
    assert "Files: player.py, paths.py" in run.stdout and last_said(run.stdout).startswith("PASS on a sample")
