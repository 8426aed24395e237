"""``harness check streky``: the game the command is for (ASCII-only sources, a text board)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from harness.games import game_names
from tests.check.test_check_cli import check
from tests.conftest import REPO

HERE = Path(__file__).resolve().parent

pytestmark = pytest.mark.skipif("streky" not in game_names(), reason="the Štreky game is not installed")


def test_a_reference_player_passes(tmp_path: Path) -> None:
    run = check("streky", str(REPO / "reference_players/streky/greedy.py"), "--games", "2", "--json",
                "--out", str(tmp_path))
    report = json.loads(run.stdout)
    assert run.returncode == 0 and report["passed"] is True, report["first_error"]
    assert report["static"][0] == {"name": "source is ASCII-only", "ok": True, "detail": ""}
    assert {g["opponent"] for g in report["games"]} >= {"reference-greedy"}  # the checked bot keeps its name


def test_a_pass_while_a_card_fits_is_explained_on_the_board(tmp_path: Path) -> None:
    run = check("streky", str(HERE / "bots/streky_passer.py"), "--games", "1", "--out", str(tmp_path))
    assert run.returncode == 1
    out = run.stdout
    first = sorted(p.stem for p in (REPO / "reference_players/streky").glob("*.py"))[0]
    assert f"First error: game 1 vs {first} (seat 0, seed 0), after 0 plies: illegal_move" in out
    assert "a player must place a card when it can" in out
    assert "\n  answer: " in out  # the pass, as the game records it
    board = out.split("  position:\n", 1)[1]
    assert board.startswith("        0         5") and "\n      0  . . ." in board  # the game's render_text
    assert (tmp_path / "harness-check-streky-1.html").is_file()


def test_a_non_ascii_source_fails_before_any_game(tmp_path: Path) -> None:
    run = check("streky", str(HERE / "bots/streky_non_ascii.py"), "--json", "--out", str(tmp_path))
    report = json.loads(run.stdout)
    assert run.returncode == 1 and report["games"] == [] and report["passed"] is False
    first = report["static"][0]
    assert first["name"] == "source is ASCII-only" and first["ok"] is False
    assert first["detail"].startswith("player.py line 5 column ") and "non-ASCII" in first["detail"]
