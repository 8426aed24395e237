"""Reference players by their bare name, from any folder: ``harness play streky brute random``.

The installed ``harness`` command (the venv's editable install stands in for ``pip install``)
runs in an empty folder, where no ``reference_players/`` exists.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from harness.config import load_config
from harness.games import get_game
from harness.submission import read_submission

HARNESS = str(Path(sys.executable).with_name("harness"))


def run(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([HARNESS, *args], capture_output=True, text=True, timeout=180, cwd=cwd)


def test_play_streky_brute_random_from_an_empty_folder(tmp_path: Path) -> None:
    played = run(tmp_path, "play", "streky", "brute", "random", "--seed", "1", "--json")
    assert played.returncode == 0, played.stderr
    record = json.loads(played.stdout)
    assert [p["login"] for p in record["players"]] == ["brute", "random"]
    assert [p["verdict"] for p in record["players"]] == ["ok", "ok"]
    streky = get_game("streky")
    shipped = [read_submission(streky.reference_player(n), streky.botapi_modules) for n in ("brute", "random")]
    assert [p["sha256"] for p in record["players"]] == [s.sha256 for s in shipped]
    assert list(tmp_path.iterdir()) == []  # nothing was written where it ran


def test_an_unknown_name_gets_one_line_listing_the_reference_players(tmp_path: Path) -> None:
    played = run(tmp_path, "play", "streky", "brute", "brutus")
    assert played.returncode == 2 and played.stdout == ""
    lines = played.stderr.strip().splitlines()
    assert lines == ["harness play: brutus: not a file, a folder, or a reference player of streky "
                     "(its reference players: brute, random, strong)"]


def test_a_folder_of_that_name_wins_over_the_reference_player(tmp_path: Path) -> None:
    blokovanie = get_game("blokovanie")
    (tmp_path / "random").mkdir()  # a submission folder named like a reference player
    (tmp_path / "random" / "player.py").write_bytes(blokovanie.reference_player("first_free").read_bytes())
    played = run(tmp_path, "play", "blokovanie", "random", "max_block", "--json")
    assert played.returncode == 0, played.stderr
    record = json.loads(played.stdout)
    mine = read_submission(tmp_path / "random").sha256
    assert mine != read_submission(blokovanie.reference_player("random")).sha256
    assert record["players"][0]["sha256"] == mine and record["players"][0]["login"] == "random"


def test_check_against_a_name_from_an_empty_folder(tmp_path: Path) -> None:
    bot = tmp_path / "player.py"
    bot.write_bytes(get_game("priemspel").reference_player("strategie").read_bytes())
    checked = run(tmp_path, "check", "priemspel", "player.py", "--against", "basis", "--games", "2")
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "basis" in checked.stdout


def test_a_job_names_its_opponent_and_reference_players_bare(tmp_path: Path) -> None:
    (tmp_path / "subs" / "ann").mkdir(parents=True)
    (tmp_path / "subs" / "ann" / "player.py").write_text("x = 1\n")
    config = tmp_path / "t.yaml"
    config.write_text("jobs:\n"
                      "  g:\n    game: streky\n    format: gauntlet\n    submissions: subs\n    opponent: brute\n"
                      "  r:\n    game: quoridor\n    format: round_robin\n    submissions: subs\n"
                      "    reference: [random_legal, runner]\n")
    jobs = load_config(config).jobs
    assert jobs["g"].opponent == get_game("streky").reference_player("brute")
    assert jobs["r"].reference == tuple(get_game("quoridor").reference_player(n) for n in ("random_legal", "runner"))


def test_a_job_with_an_unknown_name_says_which_names_exist(tmp_path: Path) -> None:
    (tmp_path / "subs" / "ann").mkdir(parents=True)
    (tmp_path / "subs" / "ann" / "player.py").write_text("x = 1\n")
    config = tmp_path / "t.yaml"
    config.write_text("jobs:\n  g:\n    game: priemspel\n    format: gauntlet\n    submissions: subs\n"
                      "    opponent: brute\n")
    problem = load_config(config).problems["g"]
    assert problem == (f"{config}: jobs.g.opponent: brute: not a file, a folder, or a reference player of "
                       "priemspel (its reference players: basis, strategie)")
