"""Blokovanie end to end through real sandboxed bot processes: the seed's game, a reference
match, the verdicts of broken answers, and the ``harness play`` command."""

from __future__ import annotations

import json

import pytest

from harness.cli import main as harness_main
from harness.games.blokovanie import GAME
from harness.match import play_match
from harness.record import Verdict
from tests.conftest import REPO

REFERENCE = REPO / "reference_players" / "blokovanie"


def scripted(moves: list[tuple[int, int]]) -> bytes:
    """A student-style bot playing ``moves`` in turn (ASCII, standard library only)."""
    return f'''
class Player:
    def __init__(self, name):
        self.name = name
        self.moves = {moves!r}

    def move(self, board):
        return self.moves.pop(0)
'''.encode()


def test_the_seed_game_in_the_sandbox(no_leftovers: None) -> None:
    record = play_match(GAME, [scripted([(1, 1), (1, 4), (4, 2)]), scripted([(4, 5), (4, 0)])],
                        settings={"rows": 5, "cols": 6}, logins=["Human", "Computer"])
    assert [p.verdict for p in record.players] == [Verdict.OK, Verdict.OK]
    assert [m.answer for m in record.moves] == [[1, 1], [4, 5], [1, 4], [4, 0], [4, 2]]
    assert record.winner == 0 and record.plies == 5 and tuple(record.scores) == (1.0, 0.0)
    assert record.settings == {"rows": 5, "cols": 6}


def test_strong_beats_max_block_in_the_sandbox(no_leftovers: None) -> None:
    strong, max_block = ((REFERENCE / f"{n}.py").read_bytes() for n in ("strong", "max_block"))
    # 5x6 is won for the first player, and strong solves it exactly from the first move (in about
    # 0.04 s), so the result does not depend on the machine's speed.
    record = play_match(GAME, [strong, max_block], seed=1, logins=["strong", "max_block"])
    assert [p.verdict for p in record.players] == [Verdict.OK, Verdict.OK], [p.reason for p in record.players]
    assert record.winner == 0
    assert all(p.max_wall < GAME.move_limit for p in record.players)


@pytest.mark.parametrize(("answer", "verdict", "reason"), [
    ("(0, 1)", Verdict.ILLEGAL_MOVE, "cell (0, 1) is already blocked"),
    ("'0 1'", Verdict.BAD_ANSWER, "move() must return (row, col), a tuple or list of two ints, got '0 1' (str)"),
])
def test_a_broken_answer_ends_the_game_with_its_verdict(answer: str, verdict: Verdict, reason: str,
                                                       no_leftovers: None) -> None:
    broken = f"class Player:\n    def __init__(self, name):\n        pass\n\n    def move(self, board):\n" \
             f"        return {answer}\n".encode()
    record = play_match(GAME, [(REFERENCE / "first_free.py").read_bytes(), broken], seed=2)
    me = record.players[1]
    assert me.verdict is verdict and me.reason == reason
    assert record.winner == 0 and record.players[0].verdict is Verdict.OK
    assert record.moves[-1].accepted is False and record.moves[0].answer == [0, 0]


def test_harness_play(capsys: pytest.CaptureFixture[str], no_leftovers: None) -> None:
    code = harness_main(["play", "blokovanie", str(REFERENCE / "random.py"), str(REFERENCE / "first_free.py"),
                         "--seed", "3", "--json"])
    record = json.loads(capsys.readouterr().out)
    assert code == 0
    assert [p["verdict"] for p in record["players"]] == ["ok", "ok"]
    assert record["end"] == "rules" and record["winner"] in (0, 1) and sorted(record["scores"]) == [0.0, 1.0]
    assert record["settings"] == {"rows": 5, "cols": 6}
