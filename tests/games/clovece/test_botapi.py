"""The bot API students import (``from clovece import BasePlayer``): the seed's helpers, read-only
views, and agreement with the referee on every position of real games."""

from __future__ import annotations

import ast
import random
import sys
from typing import Any

import pytest

from harness.games.base import Call
from harness.games.clovece import GAME
from harness.games.clovece.adapter import ADAPTER
from harness.games.clovece.rules import COLORS, RULES, State, has_active, is_done
from harness.inprocess import LocalBot
from tests.games.clovece.helpers import botapi

clovece = botapi()
Board, Piece, BasePlayer = clovece.Board, clovece.Piece, clovece.BasePlayer


def test_the_module_is_ascii_and_standard_library_only() -> None:
    source = (GAME.botapi_dir / "clovece.py").read_bytes()
    assert all(b < 128 for b in source)
    for node in ast.walk(ast.parse(source)):
        assert not isinstance(node, ast.ImportFrom) or node.module in sys.stdlib_module_names
        if isinstance(node, ast.Import):
            assert all(a.name.partition(".")[0] in sys.stdlib_module_names for a in node.names)


@pytest.mark.parametrize("position, steps, target", [
    (None, 6, 0), (None, 5, None), (None, 0, None),  # out of the stable only with a 6
    (39, 5, 39),  # the seed: "a piece at 39 moved by 5 stays at 39"
    (39, 4, 43), (38, 5, 43), (0, 6, 6), (40, 3, 43), (42, 2, 42),
])
def test_piece_move(position: int | None, steps: int, target: int | None) -> None:
    assert Piece("red", 0, position).move(steps) == target


def test_piece_and_board_are_read_only() -> None:
    board = Board({"yellow": [4, None, 40, None]})
    p = board.get_piece("yellow", 0)
    assert (p.color, p.index, p.position, p.active, p.is_done()) == ("yellow", 0, 4, True, False)
    assert board.get_piece("yellow", 2).is_done() and not board.get_piece("yellow", 1).active
    for obj, name in [(p, "position"), (p, "active"), (board, "_pieces"), (board, "board")]:
        with pytest.raises(AttributeError):
            setattr(obj, name, 1)
    with pytest.raises(AttributeError):
        del p.position
    cells = board.board
    cells[14] = None  # a copy: the view does not change
    assert board.board[14] is p


def test_board_positions_and_can_move_there() -> None:
    board = Board({"black": [3, 41, None, None], "yellow": [4, None, 39, None], "red": [15, None, None, None]})
    assert board.normalize_position(4, "yellow") == 14
    assert board.normalize_position(41, "green") == 41 and board.normalize_position(None, "red") is None
    assert board.board[14] is board.get_piece("yellow", 0)
    assert board.board[5] is board.get_piece("red", 0) and board.board[3] is board.get_piece("black", 0)
    black0 = board.get_piece("black", 0)
    yellow2 = board.get_piece("yellow", 2)  # yellow's 39 is track 9
    assert board.get_piece_at(9, "black") is yellow2 and board.get_piece_at(41, "black") is board.get_piece("black", 1)
    assert board.get_piece_at(41, "yellow") is None  # homes are private
    assert board.can_move_there(None, black0, 9)  # an opponent: a capture
    assert not board.can_move_there(None, black0, 41)  # own piece in the home
    assert board.can_move_there(None, yellow2, 41)
    assert not board.can_move_there(None, black0, 44) and not board.can_move_there(None, black0, None)


def test_the_seed_examples_of_prepare_targets() -> None:
    board = Board({"black": [None, 14, None, 3]})
    player = BasePlayer("black", board)
    p1, p2, _, p4 = player.pieces
    assert player.prepare_targets([(p1, 6), (p1, 6), (p1, 3)]) == [(p1, 9)]
    assert player.prepare_targets([(p2, 6), (p2, 2)]) == [(p2, 22)]
    assert player.prepare_targets([(p1, 0)]) == [(p1, 0)]  # get_valid_moves' forced activation
    assert player.prepare_targets([(p4, 2), (p2, 1), (p4, 6)]) == [(p4, 11), (p2, 15)]


def test_the_seed_helpers() -> None:
    player = BasePlayer("green", Board({"green": [40, None, 12, 43], "red": [31, None, None, None]}))
    assert player.get_piece_positions() == [40, None, 12, 43]
    assert player.has_active() and not player.is_done()
    p = player.pieces
    assert player.get_valid_moves(6) == [(p[1], 0)]  # forced: the first stable piece
    assert player.get_valid_moves(1) == [(p[0], 1), (p[2], 1)]
    assert player.get_valid_moves(3) == [(p[2], 3)]  # 40 + 3: its own piece 3 is on 43
    home = BasePlayer("red", Board({"red": [40, 41, 42, 43]}))
    assert home.is_done() and not home.has_active() and home.get_valid_moves(6) == []
    with pytest.raises(NotImplementedError):
        BasePlayer("red").get_move(3)


class Probe(BasePlayer):
    """Answers every valid move (as the referee's moves) and what the helpers say."""

    def get_move(self, roll: int) -> Any:
        on_track = [p for p in self.board.get_pieces() if p.position is not None and p.position < 40]
        same = all(self.board.board[self.board.normalize_position(p.position, p.color)] is p for p in on_track)
        moves = [self.prepare_targets([m])[0] for m in self.get_valid_moves(roll)]
        return {"moves": moves, "done": self.is_done(), "active": self.has_active(),
                "positions": self.get_piece_positions(), "same": same, "color": self.color}


def states(seed: int) -> list[State]:
    state = RULES.initial(RULES.parse_settings({}), random.Random(seed))
    rng = random.Random(seed)
    seen = []
    while not RULES.is_over(state):
        seen.append(state)
        moves = RULES.legal_moves(state)
        state = RULES.apply(state, moves[rng.randrange(len(moves))])
    return seen


def test_get_valid_moves_equals_the_referee_on_every_position_of_real_games() -> None:
    bots = [LocalBot(GAME, Probe) for _ in range(4)]
    for seat, bot in enumerate(bots):
        bot.call(Call("__init__", (COLORS[seat],), "init"))
    checked = 0
    for seed in range(6):
        for state in states(seed):
            seat = state.turn
            answer = None
            for call in ADAPTER.turn_calls(state, seat, []):
                answer = bots[seat].call(call)
            assert answer["color"] == COLORS[seat] and answer["same"]
            decoded = [ADAPTER.decode(state, seat, [m]) for m in answer["moves"]]
            assert decoded == list(RULES.legal_moves(state)), state
            own = state.pieces[seat]
            assert answer["positions"] == list(own)
            assert (answer["done"], answer["active"]) == (is_done(own), has_active(own))
            checked += 1
    assert checked > 2000
