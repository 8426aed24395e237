"""Človeče's dice: drawn from the seed alone, a pure function of the state, replayable."""

from __future__ import annotations

import random
from collections import Counter

from harness.games.clovece import GAME
from harness.games.clovece.rules import RULES, State, roll_die
from tests.games.clovece.helpers import reference
from harness.inprocess import play


def rolls_of_a_game(seed: int) -> list[tuple[int, tuple[int, ...], int]]:
    """(seat, the turn's rolls, which roll) of every decision, in a game of first-listed moves."""
    state = RULES.initial(RULES.parse_settings({}), random.Random(seed))
    seen = []
    while not RULES.is_over(state):
        seen.append((state.turn, state.rolls, state.index))
        state = RULES.apply(state, RULES.legal_moves(state)[0])
    return seen


def test_same_seed_same_rolls_different_seeds_differ() -> None:
    assert rolls_of_a_game(11) == rolls_of_a_game(11)
    assert rolls_of_a_game(11) != rolls_of_a_game(12)
    assert RULES.initial({"ply_cap": 4000}, random.Random(5)) == RULES.initial({"ply_cap": 4000}, random.Random(5))
    assert RULES.initial({"ply_cap": 4000}, random.Random(5)).dice_seed != \
        RULES.initial({"ply_cap": 4000}, random.Random(6)).dice_seed


def test_a_roll_is_a_pure_function_of_the_dice_seed_and_its_number() -> None:
    assert [roll_die(123, k) for k in range(50)] == [roll_die(123, k) for k in range(50)]
    assert [roll_die(123, k) for k in range(50)] != [roll_die(124, k) for k in range(50)]
    counts = Counter(roll_die(7, k) for k in range(60_000))
    assert set(counts) == {1, 2, 3, 4, 5, 6}
    assert all(abs(c - 10_000) < 500 for c in counts.values()), counts  # ~5 standard deviations


def test_the_referee_uses_no_global_random() -> None:
    state = RULES.initial(RULES.parse_settings({}), random.Random(3))
    random.seed(1)
    a = RULES.apply(state, RULES.legal_moves(state)[0])
    random.seed(2)
    b = RULES.apply(state, RULES.legal_moves(state)[0])
    assert a == b


def test_replaying_the_recorded_moves_reproduces_every_roll() -> None:
    players = [reference(n) for n in ("mean", "safe", "eager", "random")]
    game = play(GAME, players, seed=2024)
    assert game.failed is None and RULES.is_over(game.state)
    # what the record keeps: the settings, the seed and the moves as JSON
    moves = [RULES.move_to_json(m) for m in game.moves]
    state: State = RULES.initial(RULES.parse_settings({}), random.Random(2024))
    for recorded, played in zip(moves, game.history):
        assert state.turn == played.player
        decoded = RULES.move_from_json(recorded)
        assert RULES.check(state, decoded) is None
        state = RULES.apply(state, decoded)
    assert state == game.state and state.drawn == game.state.drawn


def test_the_rolls_are_visible_in_the_state() -> None:
    state = RULES.initial(RULES.parse_settings({}), random.Random(9))
    assert state.rolls and 0 <= state.index < len(state.rolls) and state.roll == state.rolls[state.index]
    assert 6 in state.rolls  # black has no piece out: it decides only after a 6
    line = GAME.describe(state, ["a", "b", "c", "d"])
    rolls = " ".join(f"[{r}]" if k == state.index else str(r) for k, r in enumerate(state.rolls))
    assert line.startswith(f"ply 0: black (a) to play the {state.roll} of {rolls}")
