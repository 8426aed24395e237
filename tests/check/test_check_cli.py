"""``harness check`` as a student runs it: a real subprocess, real sandboxed games, exit codes."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import BOTS, REPO

HERE = Path(__file__).resolve().parent
GOOD = HERE / "bots/good.py"
REFERENCES = sorted(p.stem for p in (REPO / "reference_players/priemspel").glob("*.py"))  # basis, strategie, ...


def check(*args: str, cwd: Path = REPO) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "harness", "check", *args], capture_output=True, text=True,
                          timeout=300, cwd=cwd, env=None)


def check_json(bot: Path, tmp_path: Path, games: int = 2, *more: str) -> tuple[int, dict[str, Any]]:
    run = check("priemspel", str(bot), "--games", str(games), "--json", "--out", str(tmp_path), *more)
    assert run.returncode in (0, 1), run.stderr
    return run.returncode, json.loads(run.stdout)


def test_a_correct_bot_passes(tmp_path: Path) -> None:
    run = check("priemspel", str(GOOD), "--games", "4", cwd=tmp_path)
    assert run.returncode == 0, run.stdout + run.stderr
    lines = run.stdout.splitlines()
    games = [line for line in lines if re.match(r"\s+game\s+\d+\s+vs ", line)]
    n = 4 * len(REFERENCES)
    assert len(games) == n and all(" ok " in line for line in games)
    assert [re.findall(r"vs (\S+)", g)[0] for g in games] == [ref for ref in REFERENCES for _ in range(4)]
    assert [re.findall(r"seat (\d)", g)[0] for g in games] == ["0", "1"] * (n // 2)
    assert lines[-1] == f"PASS: all {n} games ok: the grader would accept this bot."
    assert any(line.startswith("Slowest moves: ") and "the limit is 1 s per move" in line for line in lines)
    assert list(tmp_path.iterdir()) == []  # no replay file when nothing failed


def test_the_json_of_a_correct_bot(tmp_path: Path) -> None:
    code, report = check_json(GOOD, tmp_path, games=3)
    assert code == 0 and report["passed"] is True and report["first_error"] is None
    assert [c["ok"] for c in report["static"]] == [True, True, True]
    assert [(g["opponent"], g["seat"], g["seed"]) for g in report["games"]] == [
        (ref, seat, seed) for ref in REFERENCES for seat, seed in ((0, 0), (1, 0), (0, 1))]
    assert all(g["verdict"] == "ok" and g["plies"] > 0 for g in report["games"])
    assert report["slowest_moves"][0]["wall"] >= report["slowest_moves"][-1]["wall"] > 0


# bot -> (verdict of its first failing game, words of the reason, after how many plies, its answer)
FAILING: dict[Path, tuple[str, str, int, Any]] = {
    BOTS / "priemspel/wrong_type.py": ("bad_answer", "must return an int number of squares, got '2' (str)", 0, "2"),
    BOTS / "priemspel/exception_midgame.py": ("exception", "IndexError: list index out of range at player.py line 10",
                                              4, None),
    HERE / "bots/illegal_step.py": ("illegal_move", "square 6 (= 3 + 3) is not prime", 2, 3),
}


@pytest.mark.parametrize("bot", list(FAILING), ids=lambda p: p.stem)
def test_a_failing_bot_gets_its_first_error_explained(bot: Path, tmp_path: Path) -> None:
    verdict, words, ply, answer = FAILING[bot]
    code, report = check_json(bot, tmp_path, 2, "--against", "basis")  # the plies below are against basis
    assert code == 1 and report["passed"] is False
    assert [g["opponent"] for g in report["games"]] == ["basis", "basis"]
    err = report["first_error"]
    assert (err["game"], err["opponent"], err["seat"], err["verdict"]) == (1, "basis", 0, verdict)
    assert words in err["reason"] and err["ply"] == ply and err["answer"] == answer
    assert err["position"].startswith(f"[*{bot.stem},basis,")  # PriemSpel's notation: the bot to move
    replay = Path(err["replay"])
    assert replay == tmp_path / "harness-check-priemspel-1.html" and replay.is_file()
    assert verdict in replay.read_text()
    assert report["games"][0]["verdict"] == verdict


def test_against_picks_reference_players_in_its_order(tmp_path: Path) -> None:
    code, report = check_json(GOOD, tmp_path, 1, "--against", "strategie", "--against", "basis", "--against", "basis")
    assert code == 0 and [g["opponent"] for g in report["games"]] == ["strategie", "basis"]


def test_the_text_report_of_a_failing_bot(tmp_path: Path) -> None:
    run = check("priemspel", str(BOTS / "priemspel/exception_midgame.py"), "--games", "2", "--against", "basis",
                cwd=tmp_path)
    assert run.returncode == 1
    out = run.stdout
    assert "First error: game 1 vs basis (seat 0, seed 0), after 4 plies: exception" in out
    assert "    [*exception_midgame,basis,7]" in out  # the position, drawn as text
    assert "IndexError: list index out of range" in out.split("traceback:")[1]  # the bot's own traceback
    assert "replay: harness-check-priemspel-1.html" in out and (tmp_path / "harness-check-priemspel-1.html").is_file()
    assert out.splitlines()[-1] == "FAIL: 2 of 2 games end with a verdict against your bot."


METHODS, CONSTRUCTS, IMPORTS = "class Player with the required methods", "Player(...) constructs", "imports in the sandbox"


@pytest.mark.parametrize(("bot", "failed", "detail"), [
    ("missing_method.py", [METHODS], "missing: zet() (it has: move)"),
    ("syntax_error.py", [IMPORTS], "SyntaxError: expected ':' (player.py, line 2)"),
    ("missing_class.py", [IMPORTS], "player.py defines no class Player"),
    ("init_raises.py", [METHODS, CONSTRUCTS], "ValueError: no board for init_raises"),  # and it has no zet()
])
def test_a_bot_failing_the_static_checks_plays_no_games(bot: str, failed: list[str], detail: str,
                                                        tmp_path: Path) -> None:
    code, report = check_json(BOTS / "priemspel" / bot, tmp_path)
    assert code == 1 and report["passed"] is False and report["games"] == []
    bad = [c for c in report["static"] if c["ok"] is False]
    assert [c["name"] for c in bad] == failed and detail in bad[-1]["detail"]
    run = check("priemspel", str(BOTS / "priemspel" / bot))
    assert run.returncode == 1 and run.stdout.splitlines()[-1].startswith(f"FAIL: {failed[0]}: ")
    assert "Games: not played" in run.stdout


def test_a_timeout_is_a_failure_with_where_it_was_stuck(tmp_path: Path) -> None:
    code, report = check_json(BOTS / "priemspel/move_slow.py", tmp_path, games=1)
    assert code == 1
    assert report["first_error"]["verdict"] == "timeout"
    # check judges by CPU time, as grading jobs do by default; --policy wall is the course's rule
    assert "zet() used more than 1 s of CPU time (stuck at player.py line" in report["first_error"]["reason"]
    code, report = check_json(BOTS / "priemspel/move_slow.py", tmp_path, 1, "--policy", "wall")
    assert code == 1 and "zet() did not return within 1 s" in report["first_error"]["reason"]


@pytest.mark.parametrize(("args", "message"), [
    (["chess", str(GOOD)], "unknown game 'chess'"),
    (["priemspel", "nope.py"], "nope.py: cannot read the bot"),
    (["priemspel", str(GOOD), "--games", "0"], "--games 0: must be at least 1"),
    (["priemspel", str(GOOD), "--set", "N=1"], "N: must be at least 2"),
    (["priemspel", str(GOOD), "--against", "nobody"], "--against nobody: no such reference player (known: basis"),
])
def test_bad_arguments_exit_2_with_one_line(args: list[str], message: str) -> None:
    run = check(*args)
    assert run.returncode == 2 and message in run.stderr and len(run.stderr.strip().splitlines()) == 1


def test_an_unwritable_replay_is_said_not_fatal(tmp_path: Path) -> None:
    (tmp_path / "a-file").write_text("")
    run = check("priemspel", str(BOTS / "priemspel/wrong_type.py"), "--games", "1", "--against", "basis",
                "--out", str(tmp_path / "a-file/sub"))
    assert run.returncode == 1, run.stderr
    assert f"  replay: not written ({tmp_path / 'a-file/sub'}: " in run.stdout
