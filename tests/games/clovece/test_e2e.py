"""Človeče end to end through real bot processes (four per game, so only two games)."""

from __future__ import annotations

from harness.games.clovece import GAME
from harness.games.clovece.rules import RULES
from harness.match import play_match
from harness.record import Verdict
from harness.report.replay import replay_positions

NAMES = ["eager", "safe", "random", "mean"]


def test_the_four_reference_players_in_sandboxes(no_leftovers: None) -> None:
    sources = [(GAME.reference_dir / f"{n}.py").read_bytes() for n in NAMES]
    record = play_match(GAME, sources, seed=5, logins=NAMES)
    assert [p.verdict for p in record.players] == [Verdict.OK] * 4, [p.reason for p in record.players]
    assert record.end == "rules" and sorted(record.places) == [1, 2, 3, 4]
    assert record.winner == record.places.index(1) and sorted(record.scores) == [0.0, 1.0, 2.0, 3.0]
    first = record.moves[0]  # everyone starts in the stable: the first decision is a forced activation
    assert first.answer == {"color": ("black", "yellow", "green", "red")[first.player], "piece": 0, "target": 0}
    assert "to play the 6 of" in record.transcript[0] and "over, everyone is home" in record.transcript[-1]
    replay = replay_positions(record, GAME)  # the dice come back from the seed alone
    assert replay.problem == "" and len(replay.positions) == len(record.moves) + 1
    assert RULES.is_over(replay.positions[-1].state)
    assert RULES.ranking(replay.positions[-1].state) == record.places


THIEF = b'''
from clovece import BasePlayer


class Player(BasePlayer):
    def get_move(self, roll):
        other = self.board.get_pieces("red")[0]
        return [(other, 0)]
'''


def test_another_colours_piece_is_an_illegal_move_in_a_sandbox(no_leftovers: None) -> None:
    random = (GAME.reference_dir / "random.py").read_bytes()
    record = play_match(GAME, [random, THIEF, random, random], seed=3, logins=["a", "thief", "c", "d"])
    thief = record.players[1]
    assert thief.verdict is Verdict.ILLEGAL_MOVE and thief.reason == "piece 0 of red is not yours: you play yellow"
    assert [p.verdict for i, p in enumerate(record.players) if i != 1] == [Verdict.OK] * 3
    assert record.places == (1, 4, 1, 1) and record.moves[-1].accepted is False
    assert record.moves[-1].answer == {"color": "red", "piece": 0, "target": 0}
