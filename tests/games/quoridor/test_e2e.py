"""Quoridor end to end through real bot processes: the worked example, matches, SemBasic grading."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from harness.cli import main as harness_main
from harness.games.base import Call, WireObject
from harness.games.quoridor import GAME
from harness.games.quoridor.moves import Wall
from harness.match import play_match
from harness.tournament.battery import grade
from harness.record import Verdict
from harness.sandbox import BotProcess
from tests.conftest import REPO

REFERENCE = REPO / "reference_players" / "quoridor"
SUBMISSIONS = REPO / "submissions" / "quoridor"
ELEVEN = {
    Wall.of(a, b) for a, b in [
        ((0, 0, 0, 1), (1, 0, 1, 1)), ((1, 0, 1, 1), (2, 0, 2, 1)), ((2, 0, 2, 1), (3, 0, 3, 1)),
        ((0, 2, 0, 3), (1, 2, 1, 3)), ((1, 2, 1, 3), (2, 2, 2, 3)), ((2, 2, 2, 3), (3, 2, 3, 3)),
        ((0, 1, 1, 1), (0, 2, 1, 2)), ((1, 1, 2, 1), (1, 2, 2, 2)),
        ((2, 0, 3, 0), (2, 1, 3, 1)), ((2, 1, 3, 1), (2, 2, 3, 2)), ((2, 2, 3, 2), (2, 3, 3, 3))]
}


def obstacle(*e: int) -> WireObject:
    return WireObject("Obstacle", dict(zip(("fromx", "fromy", "tox", "toy"), e)), "obstacle.Obstacle")


def as_wall(pair: list[WireObject]) -> Wall:
    assert all(o.cls == "Obstacle" for o in pair)
    return Wall.of(*(tuple(o.fields[k] for k in ("fromx", "fromy", "tox", "toy")) for o in pair))


BOTS = [REFERENCE / "random_legal.py", REFERENCE / "runner.py", REFERENCE / "waller.py",
        SUBMISSIONS / "ok_naive" / "player.py", SUBMISSIONS / "ok_compact" / "player.py"]


@pytest.mark.parametrize("path", BOTS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_worked_example_through_a_bot_process(path: Path, no_leftovers: None) -> None:
    """RULES.md's example: exactly 11 walls from expand_obstacles, {[1,0], [0,1]} from expand_player."""
    with BotProcess(GAME, path.read_bytes(), label="example") as bot:
        assert bot.load().ok
        assert bot.call(Call("__init__", ("pepa",), "init")).ok
        r = bot.call(Call("initialization", (4, 4, 0, 0, 0, 3, 5, [obstacle(0, 1, 0, 2), obstacle(1, 1, 1, 2)]), "init"))
        assert r.ok, r.reason
        walls = bot.call(Call("expand_obstacles", (), "move"))
        assert walls.ok, walls.reason
        assert len(walls.value) == 11 and {as_wall(p) for p in walls.value} == ELEVEN
        steps = bot.call(Call("expand_player", (), "move"))
        assert sorted(tuple(c) for c in steps.value) == [(0, 1), (1, 0)]


def test_harness_play_runner_vs_random_legal(capsys: pytest.CaptureFixture[str], no_leftovers: None) -> None:
    code = harness_main(["play", "quoridor", str(REFERENCE / "runner.py"), str(REFERENCE / "random_legal.py"),
                         "--seed", "1", "--json"])
    record = json.loads(capsys.readouterr().out)
    assert code == 0
    assert [p["verdict"] for p in record["players"]] == ["ok", "ok"]
    assert record["end"] == "rules" and record["winner"] in (0, 1) and sorted(record["scores"]) == [0.0, 1.0]
    assert record["settings"]["sizex"] == 9 and record["moves"][0]["answer"][0] in (1, 2)


@pytest.mark.parametrize("seed", [1, 2])
def test_both_seatings_on_one_start(seed: int, no_leftovers: None) -> None:
    settings = {"start_columns": "random", "initial_walls": {"random": 3}, "sizex": 7, "sizey": 7}
    waller, runner = (REFERENCE / "waller.py").read_bytes(), (REFERENCE / "runner.py").read_bytes()
    first = play_match(GAME, [waller, runner], settings=settings, seed=seed, logins=["waller", "runner"])
    second = play_match(GAME, [runner, waller], settings=settings, seed=seed, logins=["runner", "waller"])
    for record, waller_seat in ((first, 0), (second, 1)):
        assert [p.verdict for p in record.players] == [Verdict.OK, Verdict.OK], [p.reason for p in record.players]
        assert record.winner == waller_seat
        assert record.players[waller_seat].bot_name == "waller 1.0"
    assert first.settings == second.settings


def test_lookalike_obstacle_is_a_bad_answer_in_a_game(no_leftovers: None) -> None:
    source = (SUBMISSIONS / "lookalike_obstacle" / "player.py").read_bytes()
    record = play_match(GAME, [(REFERENCE / "runner.py").read_bytes(), source], seed=3, logins=["runner", "copycat"])
    me = record.players[1]
    assert me.verdict is Verdict.BAD_ANSWER and record.winner == 0 and record.players[0].verdict is Verdict.OK
    assert me.reason.startswith("make_move()[1][0] is an object of class player.Obstacle, not the harness's "
                                "Obstacle class")
    assert record.moves[-1].accepted is False and record.moves[-1].answer[0] == 2


def test_walking_through_a_wall_is_an_illegal_move(no_leftovers: None) -> None:
    source = (SUBMISSIONS / "through_walls" / "player.py").read_bytes()
    settings = {"initial_walls": [[[3, 2, 3, 3], [4, 2, 4, 3]]]}  # right in front of the first player
    record = play_match(GAME, [source, (REFERENCE / "runner.py").read_bytes()], settings=settings, seed=1)
    me = record.players[0]
    assert me.verdict is Verdict.ILLEGAL_MOVE and record.winner == 1
    assert me.reason == "step from (4, 2) to (4, 3) crosses the initial wall (3,2)->(3,3) + (4,2)->(4,3)"
    assert record.moves[-1].answer == [1, [4, 3]] and record.moves[-1].accepted is False


# ---- SemBasic ------------------------------------------------------------------------------
EXPECTED = {  # submission -> (expand_player, expand_obstacles)
    "ok_naive": (1, 1),
    "ok_compact": (1, 1),
    "no_crossing": (1, 0),
    "no_path_check": (1, 0),
    "own_path_only": (1, 0),
    "duplicate_walls": (1, 0),
    "lookalike_obstacle": (1, 0),
    "through_walls": (0, 1),
    "ignores_opponent": (0, 1),
}
REASONS = {
    "no_crossing": "1 missing",
    "no_path_check": "5 extra",
    "own_path_only": "2 extra",
    "duplicate_walls": "11 duplicated",
    "lookalike_obstacle": "not the harness's Obstacle class",
    "through_walls": "1 extra",
    "ignores_opponent": "1 extra",
}


def test_every_sample_submission_is_listed() -> None:
    assert {p.name for p in SUBMISSIONS.iterdir() if (p / "player.py").is_file()} == set(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_sample_submission_points(name: str, no_leftovers: None) -> None:
    result = grade(GAME, (SUBMISSIONS / name / "player.py").read_bytes(), login=name)
    assert result.interface, result.interface_reason
    assert (result.points_by_part["expand_player"], result.points_by_part["expand_obstacles"]) == EXPECTED[name], \
        result.text()
    if name in REASONS:
        assert REASONS[name] in result.first_failure.reason  # type: ignore[union-attr]


@pytest.mark.parametrize("name", ["random_legal", "runner", "waller"])
def test_reference_players_earn_both_points(name: str, capsys: pytest.CaptureFixture[str], no_leftovers: None) -> None:
    code = harness_main(["basic", "quoridor", str(REFERENCE / f"{name}.py"), "--json"])
    data = json.loads(capsys.readouterr().out)
    assert code == 0, data["first_failure"]
    assert {k: data[k] for k in ("interface", "expand_player", "expand_obstacles", "points")} == \
        {"interface": True, "expand_player": 1, "expand_obstacles": 1, "points": 2}
    assert data["first_failure"] is None and data["positions"] >= 200


def test_cli_exit_code_and_text_for_a_partial_bot(capsys: pytest.CaptureFixture[str], no_leftovers: None) -> None:
    code = harness_main(["basic", "quoridor", str(SUBMISSIONS / "no_path_check" / "player.py")])
    out = capsys.readouterr().out
    assert code == 1
    assert out.startswith("SemBasic (Quoridor) for no_path_check: 1 of 2 points")
    assert "First failure of expand_obstacles: position 0 (worked example), 4x4 board" in out
    assert "leaves neither player a path to its goal row" in out


SKELETON = b'''
from obstacle import *

class Player:
    def __init__(self, name):
        self.name = name
    def initialization(self, sizex, sizey, myx, myy, opponentx, opponenty, max_obstacles, list_of_obstacles):
        self.sizex = sizex
    def make_move(self):
        return None
    def opponent_move(self, moveType, result):
        pass
    def expand_player(self):
        return []
    def expand_obstacles(self):
        return []
'''


@pytest.mark.parametrize(("source", "reason"), [
    (b"def broken(:\n", "player.py cannot be loaded (exception): "),
    (b"import numpy\n" + SKELETON, "player.py line 1: import of 'numpy' is not allowed in Quoridor variant"),
    (SKELETON.replace(b"def make_move", b"def makeMove"), "class Player has no method make_move"),
    (SKELETON.replace(b"class Player:", b"class Bot:"), "player.py cannot be loaded (exception): player.py defines no class Player"),
    (SKELETON.replace(b"self.name = name", b"raise ValueError('no')"), "Player('student') failed: Player(...) raised ValueError: no"),
])
def test_interface_failures(source: bytes, reason: str, no_leftovers: None) -> None:
    result = grade(GAME, source)
    assert not result.interface and result.points == 0
    assert result.interface_reason.startswith(reason), result.interface_reason
    assert result.to_json()["expand_player"] == 0 and "were not graded" in result.text()


def test_a_skeleton_earns_nothing_but_passes_the_interface(no_leftovers: None) -> None:
    result = grade(GAME, SKELETON)
    assert result.interface and result.points == 0
    assert result.failures["expand_player"].position.index == 0  # the worked example has 2 steps
    assert "2 missing" in result.failures["expand_player"].reason


def test_a_timeout_fails_one_part_and_the_other_goes_on(no_leftovers: None) -> None:
    """A bot that hangs in expand_obstacles on 15x15 boards: that part fails with the timeout,
    its process is restarted, and expand_player is still graded on every position."""
    runner = (REFERENCE / "runner.py").read_text()
    slow = runner.replace('''    def expand_obstacles(self):
        """''', '''    def expand_obstacles(self):
        if self.sizex == 15:
            while True:
                pass
        """''')
    assert slow != runner
    result = grade(GAME, slow.encode(), login="slow")
    assert result.points_by_part == {"expand_player": 1, "expand_obstacles": 0}
    failure = result.failures["expand_obstacles"]
    assert failure.position.sizex == 15 and "failed (timeout)" in failure.reason
    assert result.passed["expand_player"] == result.positions
