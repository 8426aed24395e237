"""``harness play`` as a user runs it: a real subprocess of the installed command."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.conftest import BOTS, REPO

BASIS = str(REPO / "reference_players/priemspel/basis.py")
STRATEGIE = str(REPO / "reference_players/priemspel/strategie.py")


def harness(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "harness", *args], capture_output=True, text=True,
                          timeout=120, cwd=REPO)


def test_play_json_has_the_documented_fields() -> None:
    run = harness("play", "priemspel", BASIS, STRATEGIE, "--seed", "3", "--json")
    assert run.returncode == 0, run.stderr
    record = json.loads(run.stdout)
    assert [p["verdict"] for p in record["players"]] == ["ok", "ok"]
    assert all("reason" in p for p in record["players"])
    assert record["winner"] == 1 and record["scores"] == [0.0, 1.0] and record["plies"] == 8
    assert [m["answer"] for m in record["moves"]] == [2, 3, 2, 4, 2, 4, 2, 4]
    assert [m["player"] for m in record["moves"]] == [0, 1] * 4
    assert record["seed"] == 3 and record["settings"] == {"start": 0, "N": 5}
    assert len(record["players"][0]["sha256"]) == 64


def test_play_text_summary_and_settings() -> None:
    run = harness("play", "priemspel", BASIS, BASIS, "--set", "start=8", "--set", "N=4")
    assert run.returncode == 0, run.stderr
    assert "winner:" in run.stdout and "[*basis#1,basis#2,8]" in run.stdout


def test_a_broken_bot_is_still_exit_code_zero() -> None:
    run = harness("play", "priemspel", str(BOTS / "priemspel/wrong_type.py"), BASIS, "--json")
    assert run.returncode == 0
    assert json.loads(run.stdout)["players"][0]["verdict"] == "bad_answer"


@pytest.mark.parametrize(("args", "message"), [
    (["play", "chess", BASIS, BASIS], "unknown game 'chess'"),
    (["play", "priemspel", BASIS, "missing.py"], "missing.py: cannot read the bot"),
    (["play", "priemspel", BASIS, BASIS, "--set", "N=[1"], "--set 'N=[1': value is not valid YAML"),
    (["play", "priemspel", BASIS, BASIS, "--set", "N"], "expected KEY=VALUE"),
    (["play", "priemspel", BASIS, BASIS, "--set", "N=1"], "N: must be at least 2"),
])
def test_bad_arguments_give_one_line_and_exit_2(args: list[str], message: str) -> None:
    run = harness(*args)
    assert run.returncode == 2
    assert message in run.stderr and len(run.stderr.strip().splitlines()) == 1
