"""Štreky's adapter: the course's calls, and BRUTE's type rules for answers."""

from __future__ import annotations

import random
from typing import Any

import pytest

from harness.games.base import BadAnswer, Call, PlayedMove, WireObject
from harness.games.streky.adapter import ADAPTER, new_card_on_desk
from harness.games.streky.cards import COURSE, as_lists
from harness.games.streky.placements import PASS, Place
from harness.games.streky.rules import RULES


def state() -> Any:
    return RULES.initial(RULES.parse_settings({}), random.Random(0))


def test_setup_calls_construct_the_player_then_set_tournament_and_timeout() -> None:
    from harness.games.streky import GAME

    calls = GAME.setup_calls(state(), 1, "novak", True, 1.5)
    assert calls == [Call("__init__", ("novak", 19, 23, [as_lists(m) for m in COURSE]), "init"),
                     Call("setattr", ("tournament", True)), Call("setattr", ("timeout", 1.5))]
    assert type(calls[0].args[3][0]) is list and type(calls[0].args[3][0][0]) is list


def test_play_gets_the_opponents_last_answer_or_an_empty_list() -> None:
    card = ((0, 1), (1, 1))
    assert ADAPTER.turn_calls(state(), 0, []) == [Call("play", ([],), "move")]
    history = [PlayedMove(0, Place(3, 4, card))]
    assert ADAPTER.turn_calls(state(), 1, history) == [Call("play", ([3, 4, [[0, 1], [1, 1]]],), "move")]
    history.append(PlayedMove(1, PASS))
    assert new_card_on_desk(history) == []


@pytest.mark.parametrize("answer", [[], [5, 6, [[1]]], [0, 0, [[0, 0], [4, 4]]]])
def test_well_typed_answers_decode(answer: list[Any]) -> None:
    move = ADAPTER.decode(state(), 0, answer)
    if answer == []:
        assert move == PASS
    else:
        assert move == Place(answer[0], answer[1], tuple(tuple(r) for r in answer[2]))


# BRUTE's type rules: each answer and a fragment of the reason it is a bad answer.
BAD_ANSWERS = [
    (None, "play() returned None"),
    ((1, 2, [[1]]), "play() returned a tuple (1, 2, [[1]]): the answer must be a list"),
    ((), "play() returned a tuple ()"),
    ("[1, 2, [[1]]]", "must return a list [row, col, matrix] or [] to pass, got '[1, 2, [[1]]]' (str)"),
    ({"row": 1}, "got {'row': 1} (dict)"),
    (WireObject(None, {"row": 1}, "player.Move"), "got an object of class player.Move"),
    ([1, 2], "(3 items) or [] to pass, got a list of 2 items"),
    ([1, 2, [[1]], 4], "got a list of 4 items"),
    ([[1]], "got a list of 1 item:"),
    ([1.0, 2, [[1]]], "row must be an int, got 1.0 (float)"),
    ([True, 2, [[1]]], "row must be an int, got True (bool)"),
    ([1, "2", [[1]]], "col must be an int, got '2' (str)"),
    ([1, None, [[1]]], "col must be an int, got None (NoneType)"),
    ([1, 2, ((1,),)], "the card matrix must be a list of lists, got ((1,),) (tuple)"),
    ([1, 2, [(1,)]], "the card matrix's row 0 must be a list, got (1,) (tuple)"),
    ([1, 2, []], "the card matrix is empty"),
    ([1, 2, [[]]], "the card matrix's row 0 is empty"),
    ([1, 2, [[1, 2], [3]]], "not rectangular: row 1 has 1 cells, row 0 has 2"),
    ([1, 2, [[1, 2.0]]], "cell [0][1] must be an int 0..4, got 2.0 (float)"),
    ([1, 2, [[1, False]]], "cell [0][1] must be an int 0..4, got False (bool)"),
    ([1, 2, [[5]]], "cell [0][0] is 5: colours are 0..4"),
    ([1, 2, [[-1]]], "cell [0][0] is -1: colours are 0..4"),
    ([1, 2, "[[1]]"], "must be a list of lists, got '[[1]]' (str)"),
]


@pytest.mark.parametrize(("answer", "fragment"), BAD_ANSWERS)
def test_malformed_answers_are_bad_answers_with_a_precise_reason(answer: Any, fragment: str) -> None:
    decoded = ADAPTER.decode(state(), 0, answer)
    assert isinstance(decoded, BadAnswer)
    assert fragment in decoded.reason, decoded.reason


def test_decoded_moves_go_to_the_referee() -> None:
    # Well typed but illegal: decoding accepts it, the referee refuses it.
    move = ADAPTER.decode(state(), 0, [17, 0, [[1, 1, 1], [1, 1, 1], [1, 1, 1]]])
    assert isinstance(move, Place)
    assert "does not fit on the 19x23 board" in (RULES.check(state(), move) or "")
