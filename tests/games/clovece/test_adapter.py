"""Človeče's bot interface: the calls, and every malformed answer with its pinned reason."""

from __future__ import annotations

import random
from typing import Any

import pytest

from harness.games.base import BadAnswer, Call, WireObject
from harness.games.clovece import GAME
from harness.games.clovece.adapter import ADAPTER, board_view
from harness.games.clovece.rules import RULES, Move
from harness.inprocess import play
from harness.record import Verdict
from tests.games.clovece.helpers import botapi, move, position

clovece = botapi()


def piece(color: str = "black", index: int = 0, position: int | None = None, **extra: Any) -> WireObject:
    return WireObject("Piece", {"color": color, "index": index, "position": position, **extra}, "clovece.Piece")


P = piece()
FORM = "get_move() must return a list with one tuple [(piece, target)], got "
NOT_A_PIECE = "not a Piece of the board view (return one of self.pieces)"
BAD = [  # (answer, reason)
    (None, FORM + "None (NoneType)"),
    ((P, 0), FORM + "(Piece(black 0), 0) (tuple)"),
    ({"piece": 0, "target": 0}, FORM + "{'piece': 0, 'target': 0} (dict)"),
    (P, FORM + "Piece(black 0) (object of class clovece.Piece)"),
    (0, FORM + "0 (int)"),
    ([], "get_move() must return a list with one tuple [(piece, target)], got a list of 0 items"),
    ([(P, 0), (P, 6)], "get_move() must return a list with one tuple [(piece, target)], got a list of 2 items"),
    ([[P, 0]], "get_move()[0] must be a tuple (piece, target), got [Piece(black 0), 0] (list)"),
    ([(P,)], "get_move()[0] must be a tuple (piece, target), got (Piece(black 0),) (tuple)"),
    ([(P, 0, 1)], "get_move()[0] must be a tuple (piece, target), got (Piece(black 0), 0, 1) (tuple)"),
    ([P], "get_move()[0] must be a tuple (piece, target), got Piece(black 0) (object of class clovece.Piece)"),
    ([(0, 0)], "get_move()[0][0] must be a Piece of the board view, got 0 (int)"),
    ([("black", 0)], "get_move()[0][0] must be a Piece of the board view, got 'black' (str)"),
    ([(WireObject(None, {"color": "black", "index": 0}, "player.Piece"), 0)],
     f"get_move()[0][0] is an object of class player.Piece, {NOT_A_PIECE}"),
    ([(WireObject("Board", {}, "clovece.Board"), 0)],
     f"get_move()[0][0] is an object of class clovece.Board, {NOT_A_PIECE}"),
    ([(piece("purple"), 0)],
     "get_move()[0][0] is a Piece whose color is 'purple' (str), not one of black, yellow, green, red"),
    ([(WireObject("Piece", {}, "clovece.Piece"), 0)],
     "get_move()[0][0] is a Piece whose color is None (NoneType), not one of black, yellow, green, red"),
    ([(piece(index=4), 0)], "get_move()[0][0] is a Piece whose index is 4 (int), not 0..3"),
    ([(piece(index=True), 0)], "get_move()[0][0] is a Piece whose index is True (bool), not 0..3"),
    ([(P, None)], "get_move()[0][1], the target, must be an int position seen from the piece, got None (NoneType)"),
    ([(P, "0")], "get_move()[0][1], the target, must be an int position seen from the piece, got '0' (str)"),
    ([(P, 0.0)], "get_move()[0][1], the target, must be an int position seen from the piece, got 0.0 (float)"),
    ([(P, False)], "get_move()[0][1], the target, must be an int position seen from the piece, got False (bool)"),
    ([(P, P)], "get_move()[0][1], the target, must be an int position seen from the piece, got Piece(black 0) "
               "(object of class clovece.Piece)"),
]


@pytest.mark.parametrize("answer, reason", BAD, ids=[r for _, r in BAD])
def test_bad_answers(answer: Any, reason: str) -> None:
    state = RULES.initial(RULES.parse_settings({}), random.Random(0))
    assert ADAPTER.decode(state, 0, answer) == BadAnswer(reason)


ILLEGAL = [  # (state, answer, reason): answers that decode, refused by the referee
    (position("black", [6]), [(piece("yellow", 0), 0)], "piece 0 of yellow is not yours: you play black"),
    (position("black", [6]), [(piece("black", 2), 0)],
     "a 6 with a piece in the stable and black's start cell free: piece 0 (the first piece in the stable) "
     "must come out to 0"),
    (position("black", [6], black=[0, 6, None, None]), [(piece("black", 0, 0), 6)],
     "target 6 (track cell 6) is occupied by black's own piece 1"),
    (position("black", [6], black=[0, 6, None, None]), [(piece("black", 2), 0)],
     "target 0 (track cell 0) is occupied by black's own piece 0"),
    (position("black", [6], black=[0, 6, None, None]), [(piece("black", 2), 6)],
     "piece 2 of black comes out of the stable onto its start 0, not to 6"),
    (position("red", [4], red=[None, 12, None, None]), [(piece("red", 1, 12), 4)],
     "piece 1 of red is at 12 and the roll is 4: its target is 16, not 4"),
    (position("red", [4], red=[None, 12, None, None]), [(piece("red", 0), 0)],
     "piece 0 of red is in the stable: only a 6 brings it out (the roll is 4)"),
]


@pytest.mark.parametrize("state, answer, reason", ILLEGAL, ids=[r for _, _, r in ILLEGAL])
def test_answers_the_referee_refuses(state: Any, answer: Any, reason: str) -> None:
    decoded = ADAPTER.decode(state, state.turn, answer)
    assert isinstance(decoded, Move)
    assert RULES.check(state, decoded) == reason


def test_a_stale_piece_is_identified_by_colour_and_index() -> None:
    state = position("red", [4], red=[None, 12, None, None])
    assert ADAPTER.decode(state, 3, [(piece("red", 1, position=3), 16)]) == move("red", 1, 16)


def test_calls() -> None:
    state = position("yellow", [6, 2], yellow=[5, None, None, None])
    assert ADAPTER.setup_calls(state, 1, "login", False) == [
        Call("__init__", ("yellow", board_view(state)), "init", ("color", "board"), 1)]
    board, get_move = ADAPTER.turn_calls(state, 1, [])
    assert board.method == "setattr" and board.args[0] == "board" and board.args[1] == board_view(state)
    assert get_move == Call("get_move", (6,), "move")
    fields = [p.fields for p in board.args[1].fields["_pieces"]]
    assert len(fields) == 16 and fields[4] == {"color": "yellow", "index": 0, "position": 5}


# ---- verdicts in real (in-process) games --------------------------------------------------
class _Base(clovece.BasePlayer):
    def answer(self, roll: int) -> Any:
        raise NotImplementedError

    def get_move(self, roll: int) -> Any:
        return self.answer(roll)


class TupleBot(_Base):
    def answer(self, roll: int) -> Any:
        return self.prepare_targets([self.get_valid_moves(roll)[0]])[0]


class ThiefBot(_Base):
    def answer(self, roll: int) -> Any:
        return [(self.board.get_piece("yellow", 0), 0)]


class StepsBot(_Base):  # returns the steps, not the target
    def answer(self, roll: int) -> Any:
        return [(self.pieces[0], roll)]


class Piece:  # a look-alike of the view's Piece
    def __init__(self, color: str, index: int) -> None:
        self.color, self.index = color, index


class LookalikeBot(_Base):
    def answer(self, roll: int) -> Any:
        return [(Piece(self.color, 0), 0)]


class CheaterBot(_Base):
    def answer(self, roll: int) -> Any:
        self.pieces[0].position = 40
        return []


class GoodBot(_Base):
    def answer(self, roll: int) -> Any:
        return self.prepare_targets([self.get_valid_moves(roll)[0]])


VERDICTS = [
    (TupleBot, Verdict.BAD_ANSWER, FORM + "(Piece(black 0), 0) (tuple)"),
    (ThiefBot, Verdict.ILLEGAL_MOVE, "piece 0 of yellow is not yours: you play black"),
    (StepsBot, Verdict.ILLEGAL_MOVE, "a 6 with a piece in the stable and black's start cell free: piece 0 "
                                     "(the first piece in the stable) must come out to 0"),
    (LookalikeBot, Verdict.BAD_ANSWER, "get_move()[0][0] is an object of class "),
    (CheaterBot, Verdict.EXCEPTION, "AttributeError: a Piece of the board view is read-only: the harness moves "
                                    "the pieces"),
]


@pytest.mark.parametrize("bot, verdict, reason", VERDICTS, ids=[v[0].__name__ for v in VERDICTS])
def test_verdicts_in_a_game(bot: type, verdict: Verdict, reason: str) -> None:
    game = play(GAME, [bot, GoodBot, GoodBot, GoodBot], seed=1)
    assert game.failed == 0 and game.verdicts[0] is verdict
    assert game.reason.startswith(reason), game.reason
    if bot is LookalikeBot:
        assert game.reason.endswith(f".Piece, {NOT_A_PIECE}")
    assert places_are_a_loss(game.places)


def places_are_a_loss(places: tuple[int, ...]) -> bool:
    return places == (4, 1, 1, 1)
