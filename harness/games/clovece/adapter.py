"""Človeče's bot interface, modelled on the seed's ``Player.get_move(roll)``.

Setup: ``Player(color, board)`` as the seed builds it ("referencia sa nastaví v konštruktore"):
the seat's colour string (``"black"``, ``"yellow"``, ``"green"``, ``"red"``) and the board view
of the start position. A class whose constructor takes only the colour is built as
``Player(color)``; one that takes neither form gets a verdict naming both (see
:mod:`harness.sandbox.bot.construct`). Each decision: ``setattr("board", Board)`` (a fresh read-only
view of all sixteen pieces, so the board stays current; not timed) then ``get_move(roll)``, one
call per roll that has a valid move.

The answer is the seed's form, a list with one tuple ``[(piece, target)]``: ``piece`` one of the
view's ``Piece`` objects (it comes back as its ``color`` and ``index``) and ``target`` an int,
the position seen from the piece. A wrong shape or type is a bad answer with the reason below;
a piece of another colour or a target the rules forbid decodes to a :class:`Move` that the
referee refuses (an illegal move, with the referee's reason).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from harness.games.base import BadAnswer, Call, PlayedMove, WireObject
from harness.games.clovece.rules import COLORS, PIECES, Move, State

FORM = "a list with one tuple [(piece, target)]"
CONSTRUCTOR = ("color", "board")  # the seed's Player(color, board); Player(color) is accepted too


def piece_view(seat: int, index: int, position: int | None) -> WireObject:
    """A ``Piece`` for the wire (rebuilt as a real ``clovece.Piece`` in the bot)."""
    return WireObject("Piece", {"color": COLORS[seat], "index": index, "position": position}, "clovece.Piece")


def board_view(state: State) -> WireObject:
    """The read-only ``Board`` a bot gets before each decision: every colour's pieces."""
    pieces = [piece_view(s, i, p) for s, own in enumerate(state.pieces) for i, p in enumerate(own)]
    return WireObject("Board", {"_pieces": pieces}, "clovece.Board")


def brief(value: Any, depth: int = 0) -> str:
    """A bot's value in a few characters: pieces by colour and index, other objects by class."""
    if isinstance(value, WireObject):
        if value.cls == "Piece":
            return f"Piece({value.fields.get('color')} {value.fields.get('index')})"
        return f"<{value.type_name or '?'} object>"
    if isinstance(value, (list, tuple)) and depth < 2:
        inner = ", ".join(brief(v, depth + 1) for v in value[:4]) + (", ..." if len(value) > 4 else "")
        if isinstance(value, list):
            return f"[{inner}]"
        return f"({inner},)" if len(value) == 1 else f"({inner})"
    return repr(value)


def show(value: Any) -> str:
    """A short description of a bot's value for a reason: the value and its type."""
    text = brief(value)
    text = f"{text[:60]}{'...' if len(text) > 60 else ''}"
    kind = f"object of class {value.type_name or '?'}" if isinstance(value, WireObject) else type(value).__name__
    return f"{text} ({kind})"


class CloveceAdapter:
    """Setup and turn calls of the seed's interface; decoding of ``get_move()``'s answer."""

    def setup_calls(self, state: State, seat: int, login: str, tournament: bool) -> list[Call]:
        return [Call("__init__", (COLORS[seat], board_view(state)), "init", CONSTRUCTOR, optional=1)]

    def turn_calls(self, state: State, seat: int, history: Sequence[PlayedMove[Move]]) -> list[Call]:
        return [Call("setattr", ("board", board_view(state)), "move"),
                Call("get_move", (state.rolls[state.index],), "move")]

    def decode(self, state: State, seat: int, answer: Any) -> Move | BadAnswer:
        if type(answer) is not list:
            return BadAnswer(f"get_move() must return {FORM}, got {show(answer)}")
        if len(answer) != 1:
            return BadAnswer(f"get_move() must return {FORM}, got a list of {len(answer)} items")
        item = answer[0]
        if type(item) is not tuple or len(item) != 2:
            return BadAnswer(f"get_move()[0] must be a tuple (piece, target), got {show(item)}")
        piece, target = item
        if not isinstance(piece, WireObject):
            return BadAnswer(f"get_move()[0][0] must be a Piece of the board view, got {show(piece)}")
        if piece.cls != "Piece":
            return BadAnswer(f"get_move()[0][0] is an object of class {piece.type_name or '?'}, not a Piece "
                             f"of the board view (return one of self.pieces)")
        color, index = piece.fields.get("color"), piece.fields.get("index")
        if type(color) is not str or color not in COLORS:
            return BadAnswer(f"get_move()[0][0] is a Piece whose color is {show(color)}, not one of "
                             f"{', '.join(COLORS)}")
        if type(index) is not int or not 0 <= index < PIECES:
            return BadAnswer(f"get_move()[0][0] is a Piece whose index is {show(index)}, not 0..3")
        if type(target) is not int:
            return BadAnswer(f"get_move()[0][1], the target, must be an int position seen from the piece, "
                             f"got {show(target)}")
        return Move(COLORS.index(color), index, target)


ADAPTER = CloveceAdapter()
