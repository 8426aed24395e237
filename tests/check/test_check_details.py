"""What ``check`` and the feedback show around a failure: the call that timed out among the slowest
moves, no position for a bot that failed before its first move, practice games by default."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

from tests.conftest import REPO

SPINS_ON_ITS_FOURTH_MOVE = '''
class Player:
    def __init__(self, name):
        self.name = name
        self.calls = 0

    def zet(self, spel):
        self.calls += 1
        if self.calls == 4:
            while True:
                pass
        for stap in range(1, spel.N + 1):
            n = spel.positie + stap
            if n > 1 and all(n % i for i in range(2, int(n ** 0.5) + 1)):
                return stap
        return 1
'''

CONSTRUCTOR_FAILS = '''
import base


class Player(base.BasePlayer):
    def __init__(self, login, boardRows, boardCols, cardsAtHand):
        raise ValueError("not yet")

    def play(self, newCardOnDesk):
        return []
'''

IMPORT_FAILS = '''
import base
import helper_that_is_missing


class Player(base.BasePlayer):
    def play(self, newCardOnDesk):
        return []
'''


def harness(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "harness", *args], cwd=cwd, capture_output=True, text=True,
                          timeout=600)


def test_the_call_that_timed_out_leads_the_slowest_moves(tmp_path: Path) -> None:
    (tmp_path / "player.py").write_text(SPINS_ON_ITS_FOURTH_MOVE)
    run = harness("check", "priemspel", "player.py", "--games", "2", "--out", str(tmp_path),
                  "--config", str(REPO / "harness/jobs/grading.yaml"), cwd=tmp_path)
    assert run.returncode == 1, run.stdout + run.stderr
    words = " ".join(run.stdout.split())
    slowest = re.search(r"Slowest moves \(CPU time, the clock that judges them\): (\d+\.\d+) s \(game 1, ply 7: "
                        r"timed out\), ", words)
    assert slowest is not None, words
    assert 0.9 <= float(slowest.group(1)) <= 1.6  # stopped at the 1 s CPU limit
    assert re.search(r"slowest in own time \(wall-clock time less waits for a CPU\): \d+\.\d+ s \(game 1, ply 7: "
                     r"timed out\)", words), words
    assert "warning:" not in words  # a call already stopped needs no "near the limit" warning
    assert "First error: game 1 (seed 1, seat 0) vs strategie, after 6 plies: timeout" in words


def test_feedback_draws_no_position_for_a_bot_that_never_saw_one(tmp_path: Path) -> None:
    for login, source in (("ctor", CONSTRUCTOR_FAILS), ("imp", IMPORT_FAILS), ("overlap", None)):
        (tmp_path / "subs" / login).mkdir(parents=True)
        text = source if source is not None else (REPO / "submissions/streky/overlap/player.py").read_text()
        (tmp_path / "subs" / login / "player.py").write_text(text)
    (tmp_path / "tournaments.yaml").write_text("""jobs:
  g:
    game: streky
    format: gauntlet
    submissions: subs
    opponent: brute
    settings: [{cards: random}]
    games: 1
    seed: 1
    awards: {policy: pass_fail, points: 5}
""")
    assert harness("run", "g", "--quiet", "--no-self-check", cwd=tmp_path).returncode == 0
    assert harness("export", "g", "--format", "feedback", "--out", "fb", cwd=tmp_path).returncode == 0
    for login, said in (("ctor", "Player(...) raised ValueError: not yet"),
                        ("imp", "import of player.py raised ModuleNotFoundError")):
        feedback = (tmp_path / "fb" / f"{login}.txt").read_text()
        assert said in feedback and "Your traceback:" in feedback
        assert "The position it was given" not in feedback and " . . . ." not in feedback, feedback
        assert len(feedback.splitlines()) < 12
    overlap = (tmp_path / "fb/overlap.txt").read_text()  # a bot that answered still gets its board
    assert "The position it was given:" in overlap and "!N: on a placed card" in overlap


def test_check_names_no_position_for_a_constructor_that_failed_in_a_game(tmp_path: Path) -> None:
    from harness.commands.check import error_text
    from harness.games import get_game
    from harness.pregrade import CheckReport, GameResult, explain
    from harness.record import GameRecord

    (tmp_path / "player.py").write_text(CONSTRUCTOR_FAILS)
    played = harness("play", "streky", "player.py", "brute", "--seed", "1", "--json", cwd=tmp_path)
    record = GameRecord.from_json(json.loads(played.stdout))
    game = get_game("streky")
    result = GameResult(1, "brute", 0, record)
    report = CheckReport(game, "player.py", [], [], games=[result])
    report.first_error = explain(result, game, None)
    text = error_text(report)
    assert "  position: none (your bot failed before its first move)" in text
    assert " . . . ." not in text and "Player(...) raised ValueError: not yet" in text


def test_practice_plays_ten_games_against_each_named_player_by_default(tmp_path: Path) -> None:
    run = harness("check", "priemspel", str(Path(__file__).parent / "bots/good.py"), "--against", "basis",
                  cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert "Practice: 10 games against each of basis (not the grading job)" in " ".join(run.stdout.split())
