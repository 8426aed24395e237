"""``harness check`` as a student runs it: a real subprocess, real sandboxed games, exit codes."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import BOTS, REPO, last_said

HERE = Path(__file__).resolve().parent
GOOD = HERE / "bots/good.py"
REFERENCES = sorted(p.stem for p in (REPO / "reference_players/priemspel").glob("*.py"))  # basis, strategie, ...


def check(*args: str, cwd: Path = REPO) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "harness", "check", *args], capture_output=True, text=True,
                          timeout=300, cwd=cwd, env=None)


def check_json(bot: Path, tmp_path: Path, games: int = 2, *more: str) -> tuple[int, dict[str, Any]]:
    """``harness check priemspel BOT --json`` run in ``tmp_path`` (``games`` 0: all of the job's)."""
    sample = ["--games", str(games)] if games else []
    run = check("priemspel", str(bot), *sample, "--json", "--out", str(tmp_path), *more, cwd=tmp_path)
    assert run.returncode in (0, 1), run.stderr
    return run.returncode, json.loads(run.stdout)


def test_a_correct_bot_passes_the_grading_job(tmp_path: Path) -> None:
    # No tournaments.yaml where the student runs it: the shipped grading job (12 games vs strategie).
    run = check("priemspel", str(GOOD), "--verbose", cwd=tmp_path)
    assert run.returncode == 0, run.stdout + run.stderr
    lines = run.stdout.splitlines()
    words = " ".join(run.stdout.split())  # prose is wrapped to the terminal's width
    assert "Grading job: priemspel-grading (from the harness's shipped grading jobs) 12 games against strategie, " \
           "seats alternating, seeds from 1" in words, run.stdout
    assert "Limits: constructor 1 s and each move 1 s of CPU time; any call is stopped after 1.5 s of wall-clock " \
           "time" in words
    games = [line for line in lines if re.match(r"\s+game\s+\d+\s+vs ", line)]
    assert len(games) == 12 and all(" ok " in line for line in games)
    assert [re.findall(r"seat (\d)", g)[0] for g in games] == ["0", "1"] * 6
    assert lines[-1] == "PASS: the grader would accept this bot: all 12 games of priemspel-grading ok."
    assert any(line.startswith("Slowest moves (CPU time, the clock that judges them): ") for line in lines)
    assert list(tmp_path.iterdir()) == []  # nothing written where the student runs it


def test_a_sample_of_the_job_says_so(tmp_path: Path) -> None:
    run = check("priemspel", str(GOOD), "--games", "3", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert "Games: 3 of the 12 games of priemspel-grading (a sample: the first ones)" in run.stdout
    assert last_said(run.stdout) == ("PASS on a sample: 3 of the 12 games of priemspel-grading ok; the grader "
                                           "plays all 12 (run without --games to play them all).")


def test_check_plays_the_grading_job_of_the_jobs_file_in_force(tmp_path: Path) -> None:
    (tmp_path / "tournaments.yaml").write_text(f"""
jobs:
  priemspel-grading:
    game: priemspel
    format: gauntlet
    opponent: {REPO}/reference_players/priemspel/basis.py
    settings: {{start: 10, N: 4}}
    games: 3
    seed: 7
    limits: {{move: 0.5}}
  other:
    game: priemspel
    format: gauntlet
    opponent: {REPO}/reference_players/priemspel/strategie.py
    games: 1
""")
    code, report = check_json(GOOD, tmp_path, 0)
    assert report["job"]["name"] == "priemspel-grading" and report["job"]["config"] == str(tmp_path / "tournaments.yaml")
    assert report["job"]["games"] == 3 and report["job"]["limits"]["move"] == 0.5
    assert [(g["opponent"], g["seed"]) for g in report["games"]] == [("basis", 7), ("basis", 8), ("basis", 9)]
    code, report = check_json(GOOD, tmp_path, 0, "--job", "other")
    assert report["job"]["name"] == "other" and [g["opponent"] for g in report["games"]] == ["strategie"]


def test_the_json_of_a_correct_bot(tmp_path: Path) -> None:
    code, report = check_json(GOOD, tmp_path, games=3)
    assert code == 0 and report["passed"] is True and report["first_error"] is None and report["sample"] is True
    assert [c["name"] for c in report["static"]] == ["imports allowed", "imports in the sandbox",
                                                     "class Player with the required methods", "Player(...) constructs"]
    assert [(g["opponent"], g["seat"], g["seed"]) for g in report["games"]] == [
        ("strategie", 0, 1), ("strategie", 1, 2), ("strategie", 0, 3)]
    assert all(g["verdict"] == "ok" and g["plies"] > 0 for g in report["games"])
    assert report["slowest_moves"][0]["own"] >= report["slowest_moves"][-1]["own"] > 0


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
    assert "First error: game 1 (seed 0, seat 0) vs basis, after 4 plies: exception" in out
    assert "    [*exception_midgame,basis,7]" in out  # the position, drawn as text
    assert "IndexError: list index out of range" in out.split("traceback:")[1]  # the bot's own traceback
    replay = Path(re.findall(r"replay: (\S+)", out)[0])
    assert replay.name == "harness-check-priemspel-1.html" and replay.is_file()
    assert replay.parent != tmp_path and list(tmp_path.iterdir()) == []  # a temporary folder, not the current one
    assert last_said(out) == "FAIL: 2 of 2 games end with a verdict against your bot."


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
    assert run.returncode == 1 and last_said(run.stdout).startswith(f"FAIL: {failed[0]}: ")
    assert "Games: not played" in run.stdout


def test_a_timeout_is_a_failure_with_where_it_was_stuck(tmp_path: Path) -> None:
    code, report = check_json(BOTS / "priemspel/move_slow.py", tmp_path, games=1)
    assert code == 1
    assert report["first_error"]["verdict"] == "timeout"
    # check judges by CPU time, as grading jobs do by default; --policy wall is the course's rule.
    # On a busy machine the bot may not get its second of CPU time within the 1.5 s backstop:
    # then the backstop stops it (the verdict is the same; the reason names that clock).
    # (When the parent's clock fires first, the reason gives the clocks instead of where it was stuck.)
    reason = report["first_error"]["reason"]
    assert re.match(r"zet\(\) (used more than 1 s of CPU time|did not return within the wall-clock backstop of "
                    r"1\.5 s)", reason), reason
    code, report = check_json(BOTS / "priemspel/move_slow.py", tmp_path, 1, "--policy", "wall")
    assert code == 1 and "zet() did not return within 1 s" in report["first_error"]["reason"]


@pytest.mark.parametrize(("args", "message"), [
    (["chess", str(GOOD)], "unknown game 'chess'"),
    (["priemspel", "nope.py"], "nope.py: cannot read the bot"),
    (["priemspel", str(GOOD), "--games", "0"], "argument --games: must be at least 1, got 0"),
    (["priemspel", str(GOOD), "--job", "nope"], "--job nope: "),
    (["priemspel", str(GOOD), "--config", "missing.yaml"], "--config missing.yaml: no such file"),
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
    # Compared without white space: at the terminal's width a long path is cut across lines anywhere.
    assert f"replay:notwritten({tmp_path / 'a-file/sub'}:".replace(" ", "") in "".join(run.stdout.split())


def test_a_bot_that_sleeps_past_the_backstop_fails_and_check_says_which_clock(tmp_path: Path) -> None:
    """Under the cpu policy sleeping costs no CPU time; the wall-clock backstop (1.5 x 1 s) stops it."""
    (tmp_path / "sleepy.py").write_text("import time\n\n\nclass Player:\n    def __init__(self, name):\n"
                                        "        pass\n\n    def zet(self, spel):\n        time.sleep(2.5)\n"
                                        "        return 2\n")
    code, report = check_json(tmp_path / "sleepy.py", tmp_path, 1)
    assert code == 1 and report["first_error"]["verdict"] == "timeout"
    assert "zet() did not return within the wall-clock backstop of 1.5 s" in report["first_error"]["reason"]
