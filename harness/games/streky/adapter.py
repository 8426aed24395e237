"""Štreky's bot interface: ``Player(login, rows, cols, cards)``, then ``play(newCardOnDesk)``.

After the constructor the harness sets ``tournament`` and ``timeout`` (the game's ``interface.after_init``),
as the course's manager did.

``newCardOnDesk`` is the opponent's last answer as the course's evaluator passed it:
``[row, col, matrix]`` (lists), or ``[]`` when the opponent passed or nobody has moved yet.
Answers are decoded with the evaluator's type rules: ``[]`` is a pass; otherwise a list (not a
tuple) of three items, ``row`` and ``col`` exactly ``int`` (not ``bool``, not ``float``) and the
matrix a non-empty list of non-empty, equally long lists of exact ints 0..4.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from harness.games.base import BadAnswer, Call, PlayedMove, WireObject
from harness.games.streky.cards import as_lists, as_matrix
from harness.games.streky.placements import PASS, Pass, Place
from harness.games.streky.rules import Move, State


class StrekyAdapter:
    """Translates referee states to the course's calls and the bot's answers to moves."""

    def setup_calls(self, state: State, seat: int, login: str, tournament: bool) -> list[Call]:
        cards = [as_lists(m) for m in state.deck.cards]
        return [Call("__init__", (login, state.rows, state.cols, cards), "init")]

    def turn_calls(self, state: State, seat: int, history: Sequence[PlayedMove[Move]]) -> list[Call]:
        return [Call("play", (new_card_on_desk(history),), "move")]

    def decode(self, state: State, seat: int, answer: Any) -> Move | BadAnswer:
        if type(answer) is not list:
            if answer is None:
                return BadAnswer("play() returned None: it must return [row, col, matrix], or [] to pass")
            if type(answer) is tuple:
                text = repr(answer)
                text = text[:80] + ("..." if len(text) > 80 else "")
                return BadAnswer(f"play() returned a tuple {text}: the answer must be a list "
                                 f"[row, col, matrix] (or [] to pass), not a tuple")
            return BadAnswer(f"play() must return a list [row, col, matrix] or [] to pass, got {_show(answer)}")
        if not answer:
            return PASS
        if len(answer) != 3:
            return BadAnswer(f"play() must return [row, col, matrix] (3 items) or [] to pass, "
                             f"got a list of {len(answer)} item{'s' if len(answer) != 1 else ''}: {_show(answer)}")
        row, col, matrix = answer
        for name, value in (("row", row), ("col", col)):
            if type(value) is not int:
                return BadAnswer(f"{name} must be an int, got {_show(value)}")
        problem = _matrix_problem(matrix)
        if problem:
            return BadAnswer(problem)
        return Place(row, col, as_matrix(matrix))


def new_card_on_desk(history: Sequence[PlayedMove[Move]]) -> list[Any]:
    """The opponent's last answer as ``play`` receives it: ``[row, col, matrix]`` or ``[]``."""
    if not history or isinstance(history[-1].move, Pass):
        return []
    move = history[-1].move
    return [move.row, move.col, as_lists(move.matrix)]


def _matrix_problem(matrix: Any) -> str | None:
    """The evaluator's rules for the card matrix: lists only, rectangular, exact ints 0..4."""
    if type(matrix) is not list:
        return f"the card matrix must be a list of lists, got {_show(matrix)}"
    if not matrix:
        return "the card matrix is empty: it must be a non-empty list of non-empty lists"
    width = None
    for r, line in enumerate(matrix):
        if type(line) is not list:
            return f"the card matrix's row {r} must be a list, got {_show(line)}"
        if not line:
            return f"the card matrix's row {r} is empty"
        if width is None:
            width = len(line)
        elif len(line) != width:
            return f"the card matrix is not rectangular: row {r} has {len(line)} cells, row 0 has {width}"
        for c, value in enumerate(line):
            if type(value) is not int:
                return f"the card matrix's cell [{r}][{c}] must be an int 0..4, got {_show(value)}"
            if not 0 <= value <= 4:
                return f"the card matrix's cell [{r}][{c}] is {value}: colours are 0..4"
    return None


def _show(value: Any) -> str:
    if isinstance(value, WireObject):
        return f"an object of class {value.type_name}"
    text = repr(value)
    return f"{text[:80]}{'...' if len(text) > 80 else ''} ({type(value).__name__})"


ADAPTER = StrekyAdapter()
