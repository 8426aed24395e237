"""Človeče builds the player as the seed does, ``Player(color, board)``; ``Player(color)`` too.

Real sandboxed games (four bot processes each) for the seed's shape, the colour-only shape and a
wrong shape with its pinned reason; the shape reading itself (:mod:`harness.sandbox.bot.construct`)
on the kinds of constructors students write.
"""

from __future__ import annotations

import functools
from typing import Any

import pytest

from harness.games.clovece import GAME
from harness.inprocess import LocalBot, play
from harness.match import play_match
from harness.record import Verdict
from harness.sandbox.bot.construct import choose_arity, mismatch, signature_text

RANDOM = (GAME.reference_dir / "random.py").read_bytes()

# As a student writes it from the seed: the board arrives in the constructor and is kept; the
# pieces are read from it. It checks what it was given, so a wrong board is an exception.
SEED_SHAPED = b'''
import random
from clovece import BasePlayer, Board


class Player(BasePlayer):
    def __init__(self, color, board):
        if not isinstance(board, Board) or len(board.get_pieces()) != 16:
            raise ValueError("the constructor did not get the board")
        if any(p.position is not None for p in board.get_pieces()):
            raise ValueError("the constructor's board is not the start position")
        self.color = color
        self.board = board
        self.first_board = board
        self.moves = 0

    def get_move(self, roll):
        if self.moves and self.board is self.first_board:
            raise ValueError("the board was not kept current")
        self.moves += 1
        return self.prepare_targets([random.choice(self.get_valid_moves(roll))])
'''

COLOR_ONLY = b'''
import random
from clovece import BasePlayer


class Player(BasePlayer):
    def __init__(self, color):
        super().__init__(color)

    def get_move(self, roll):
        return self.prepare_targets([random.choice(self.get_valid_moves(roll))])
'''

WRONG_SHAPE = b'''
from clovece import BasePlayer


class Player(BasePlayer):
    def __init__(self, color, board, name):
        super().__init__(color, board)

    def get_move(self, roll):
        return self.prepare_targets([self.get_valid_moves(roll)[0]])
'''

WRONG_REASON = ("the constructor Player.__init__(self, color, board, name) does not fit how the harness "
                "creates the player: Player(color, board) or Player(color)")


def _play(bot: bytes, seed: int) -> Any:
    return play_match(GAME, [RANDOM, bot, RANDOM, RANDOM], seed=seed, logins=["a", "student", "c", "d"])


def test_a_seed_shaped_player_gets_its_board_in_the_constructor(no_leftovers: None) -> None:
    record = _play(SEED_SHAPED, 4)
    assert [p.verdict for p in record.players] == [Verdict.OK] * 4, [p.reason for p in record.players]
    assert record.end == "rules" and sum(1 for m in record.moves if m.player == 1) > 10


def test_a_colour_only_constructor_still_works(no_leftovers: None) -> None:
    record = _play(COLOR_ONLY, 4)
    assert [p.verdict for p in record.players] == [Verdict.OK] * 4, [p.reason for p in record.players]
    assert sum(1 for m in record.moves if m.player == 1) > 10  # built, and it played


def test_a_constructor_of_another_shape_gets_a_reason_naming_the_expected_one(no_leftovers: None) -> None:
    record = _play(WRONG_SHAPE, 4)
    student = record.players[1]
    assert student.verdict is Verdict.EXCEPTION
    assert student.reason == WRONG_REASON
    assert [p.verdict for i, p in enumerate(record.players) if i != 1] == [Verdict.OK] * 3
    assert record.moves == []  # nobody moved: the game ended at construction


def _load(source: bytes, tmp_path: Any, name: str) -> type:
    from harness.inprocess import load_class

    path = tmp_path / f"{name}.py"
    path.write_bytes(source)
    return load_class(GAME, path)


def test_the_same_shapes_in_process(tmp_path: Any) -> None:
    random_cls = _load(RANDOM, tmp_path, "rnd")
    for source, name in ((SEED_SHAPED, "seed"), (COLOR_ONLY, "colour")):
        game = play(GAME, [random_cls, _load(source, tmp_path, name), random_cls, random_cls], seed=2)
        assert game.failed is None, game.reason
    game = play(GAME, [random_cls, _load(WRONG_SHAPE, tmp_path, "wrong"), random_cls, random_cls], seed=2)
    assert game.failed == 1 and game.reason == f"TypeError: {WRONG_REASON}"


# ---- reading a constructor's shape ------------------------------------------------------
class NoInit:
    pass


class Seed:
    def __init__(self, color, board):  # type: ignore[no-untyped-def]
        pass


class ColourOnly:
    def __init__(self, color):  # type: ignore[no-untyped-def]
        pass


class Defaulted:
    def __init__(self, color, board=None, extra=3):  # type: ignore[no-untyped-def]
        pass


class Starred:
    def __init__(self, *args):  # type: ignore[no-untyped-def]
        pass


class KeywordOnly:
    def __init__(self, color, *, board):  # type: ignore[no-untyped-def]
        pass


class Inherits(Seed):
    pass


def _wrapper(f: Any) -> Any:
    @functools.wraps(f)
    def inner(*args: Any, **kwargs: Any) -> Any:
        return f(*args, **kwargs)
    return inner


class Wrapped:
    @_wrapper
    def __init__(self, color, board, name):  # type: ignore[no-untyped-def]
        pass


class Unreadable:
    __init__ = functools.partialmethod(lambda self, color, board: None)  # no plain function


@pytest.mark.parametrize(("cls", "arity"), [
    (Seed, 2), (Inherits, 2), (ColourOnly, 1), (Defaulted, 2), (Starred, 2),
    (NoInit, None), (KeywordOnly, None),
    (Wrapped, 2),  # (*args, **kwargs): binds anything; the call then fails on its own
    (Unreadable, 2),  # unknowable: the longest form, and the call decides
])
def test_the_longest_form_the_class_takes(cls: type, arity: int | None) -> None:
    assert choose_arity(cls, 2, 1) == arity


def test_signatures_are_shown_as_written() -> None:
    assert signature_text(Defaulted) == "(self, color, board=..., extra=...)"
    assert signature_text(KeywordOnly) == "(self, color, *, board)"
    assert signature_text(Starred) == "(self, *args)"
    assert signature_text(NoInit) == "(self)"
    assert mismatch(NoInit, "Player", ("color", "board"), 1) == (
        "the constructor Player.__init__(self) does not fit how the harness creates the player: "
        "Player(color, board) or Player(color)")


def test_an_unknowable_constructor_that_fails_fails_on_its_own(tmp_path: Any) -> None:
    bot = LocalBot(GAME, Wrapped)
    from harness.games.base import Call

    with pytest.raises(TypeError, match="missing 1 required positional argument: 'name'"):
        bot.call(Call("__init__", ("black", None), "init", ("color", "board"), 1))


SEED_PIECES = b'''
from clovece import BasePlayer, Piece


class Player(BasePlayer):
    def __init__(self, color, board):
        self.color = color
        self.board = board
        self.pieces = [Piece(color) for _ in range(4)]  # the seed's own Player does this

    def get_move(self, roll):
        return self.prepare_targets([self.get_valid_moves(roll)[0]])
'''


def test_assigning_the_seeds_own_pieces_says_where_the_pieces_come_from(tmp_path: Any) -> None:
    random_cls = _load(RANDOM, tmp_path, "rnd")
    game = play(GAME, [_load(SEED_PIECES, tmp_path, "pieces"), random_cls, random_cls, random_cls], seed=2)
    assert game.failed == 0
    assert game.reason == ("AttributeError: self.pieces is your four pieces on the current board view "
                           "(self.board.get_pieces(self.color)): the harness keeps them, do not assign them")
