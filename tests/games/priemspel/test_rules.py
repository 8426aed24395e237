"""PriemSpel's referee against the seed's examples (Tab 1) and its edge cases."""

from __future__ import annotations

import random

import pytest

from harness.games.base import SettingsError
from harness.games.priemspel.rules import RULES, describe, end_square

NAMES = ["Emile", "Zoe"]


def test_seed_tab1_moves_and_notation() -> None:
    state = RULES.initial(RULES.parse_settings({"start": 0, "N": 5}), random.Random(0))
    assert describe(state, NAMES) == "[*Emile,Zoe,0]"
    assert state.end == 23
    assert RULES.check(state, 5) is None
    state = RULES.apply(state, 5)
    assert describe(state, NAMES) == "[Emile,*Zoe,5]"
    state = RULES.apply(state, 2)
    assert describe(state, NAMES) == "[*Emile,Zoe,7]"
    # "spel += 2" from 7 lands on 9: invalid, and the game does not change.
    assert RULES.check(state, 2) == "square 9 (= 7 + 2) is not prime"


@pytest.mark.parametrize(("start", "n", "end"), [(0, 5, 23), (0, 2, 7), (0, 3, 7), (24, 5, 31), (8, 4, 23)])
def test_end_square(start: int, n: int, end: int) -> None:
    assert end_square(start, n) == end


def test_a_start_without_a_move_is_refused() -> None:
    with pytest.raises(SettingsError, match="start: no prime within N=4 squares of 24"):
        RULES.parse_settings({"start": 24, "N": 4})


@pytest.mark.parametrize(("move", "reason"), [
    (0, "step 0 is not forward: steps are 1..5"),
    (-1, "step -1 is not forward: steps are 1..5"),
    (6, "step 6 is larger than N = 5"),
    (1, "square 1 (= 0 + 1) is not prime"),
])
def test_illegal_moves_have_exact_reasons(move: int, reason: str) -> None:
    state = RULES.initial(RULES.parse_settings({}), random.Random(0))
    assert RULES.check(state, move) == reason


def test_the_player_who_cannot_move_loses() -> None:
    state = RULES.initial(RULES.parse_settings({}), random.Random(0))
    for step in (2, 1, 2, 2, 4, 2, 4, 2, 4):  # 0 2 3 5 7 11 13 17 19 23: nine moves, Emile last
        state = RULES.apply(state, step)
    assert RULES.is_over(state) and state.position == 23
    assert RULES.winner(state) == 0 and RULES.scores(state) == (1.0, 0.0)
    assert describe(state, NAMES) == "[+Emile,-Zoe,23]"


@pytest.mark.parametrize(("raw", "message"), [
    ({"N": 1}, "N: must be at least 2"),
    ({"N": "5"}, "N: must be an integer"),
    ({"start": -3}, "start: must not be negative"),
    ({"size": 3}, "unknown setting 'size'"),
    ({"N": True}, "N: must be an integer"),
])
def test_bad_settings_name_the_key(raw: dict, message: str) -> None:
    with pytest.raises(SettingsError, match=message):
        RULES.parse_settings(raw)
