"""Štreky's referee: every worked example of RULES.md, the exact reasons, settings and the end."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from harness.games.base import SettingsError
from harness.games.streky.cards import as_matrix, rotate
from harness.games.streky.placements import PASS, Place
from harness.games.streky.rules import RULES, State, new_game

K = [[0, 1, 4, 0], [1, 1, 4, 4], [4, 4, 1, 1], [0, 4, 1, 0]]
K_TURNED = [[0, 4, 1, 0], [4, 4, 1, 1], [1, 1, 4, 4], [0, 1, 4, 0]]  # the seed's move 2 card
T = [[1, 2, 1, 3, 4], [2, 2, 1, 3, 3], [3, 2, 1, 3, 2]]
T180 = [list(r) for r in rotate(rotate(as_matrix(T)))]
TCCW = [list(r) for r in rotate(as_matrix(T))]


def place(row: int, col: int, matrix: list[list[int]]) -> Place:
    return Place(row, col, as_matrix(matrix))


def run(rows: int, cols: int, moves: list[list[Any]], cards: list[list[list[int]]] | None = None,
        ) -> tuple[State, list[int | str]]:
    """Play ``moves`` alternately (both players dealt ``cards``, by default every card used);
    return the final state and, per move, its points or the referee's reason (then stop)."""
    deal = [as_matrix(m) for m in (cards if cards is not None else [m for _r, _c, m in moves])]
    state = new_game(rows, cols, deal)
    out: list[int | str] = []
    for r, c, m in moves:
        move = place(r, c, m)
        reason = RULES.check(state, move)
        if reason is not None:
            out.append(reason)
            break
        state = RULES.apply(state, move)
        out.append(state.placed[-1].gain)
    return state, out


# (board, moves, the points of each move or the reason-fragment of the illegal one)
WORKED_EXAMPLES = [
    pytest.param(3, 3, [[0, 0, [[1, 1, 1]]], [1, 0, [[1, 1]]]], None, [0, 5], id="3x3 extend a row"),
    pytest.param(3, 3, [[0, 0, [[1, 0, 1]]], [1, 0, [[1, 1, 1]]]], None, [0, 5], id="3x3 two regions merged once"),
    pytest.param(3, 3, [[0, 0, [[1, 1, 1]]], [1, 0, [[1, 2, 1]]]], None, [0, 5], id="3x3 one region reached twice"),
    pytest.param(3, 3, [[0, 0, [[1, 2]]], [1, 0, [[2, 1]]]], None, [0, 0], id="3x3 diagonal does not connect"),
    pytest.param(3, 3, [[0, 0, [[1, 0]]], [0, 2, [[1]]]], None, [0, 0], id="3x3 no connection through colour 0"),
    pytest.param(5, 5, [[0, 0, [[1, 0], [0, 1]]], [0, 1, [[2]]]], None,
                 [0, "overlaps the card placed at ply 1 at cell (0, 1) (a colour-0 cell"], id="5x5 overlap colour 0"),
    pytest.param(5, 5, [[0, 0, [[1, 0], [0, 1]]], [0, 2, [[2]]]], None, [0, 0], id="5x5 touch a colour-0 cell"),
    pytest.param(5, 5, [[2, 2, [[1]]], [3, 3, [[1]]]], None,
                 [0, "touches the card placed at ply 1 only at a corner (cell (2, 2))"], id="5x5 corner only"),
    pytest.param(5, 5, [[2, 2, [[1]]], [2, 3, [[1]]]], None, [0, 2], id="5x5 edge scores 2"),
    pytest.param(8, 12, [[1, 3, K], [1, 7, K_TURNED]], [K], [0, 12], id="8x12 seed move 2 scores 12"),
    pytest.param(8, 12, [[1, 3, K], [1, 7, K]], [K], [0, 0], id="8x12 unturned K scores 0"),
    pytest.param(10, 10, [[0, 0, T], [3, 0, T]], [T], [0, 22], id="10x10 T below T"),
    pytest.param(10, 10, [[0, 0, T], [3, 0, T180]], [T], [0, 6], id="10x10 T180 below T"),
    pytest.param(10, 10, [[0, 0, T], [0, 5, TCCW]], [T], [0, 10], id="10x10 rotCCW(T) beside T"),
]


@pytest.mark.parametrize(("rows", "cols", "moves", "cards", "expected"), WORKED_EXAMPLES)
def test_worked_examples(rows: int, cols: int, moves: list[list[Any]], cards: Any, expected: list[Any]) -> None:
    state, out = run(rows, cols, moves, cards)
    assert len(out) == len(expected)
    for got, want in zip(out, expected):
        if isinstance(want, str):
            assert isinstance(got, str) and want in got, got
        else:
            assert got == want
    if all(isinstance(w, int) for w in expected):
        assert state.points == (expected[0] + sum(expected[2::2]), sum(expected[1::2]))


def test_rotation_direction_is_counter_clockwise() -> None:
    # rot(m)[w-1-c][r] = m[r][c]: the top row, read right to left, becomes the first column.
    assert rotate(((1, 2, 3), (4, 5, 6))) == ((3, 6), (2, 5), (1, 4))
    assert rotate(as_matrix(K)) == as_matrix(K_TURNED) or rotate(rotate(rotate(as_matrix(K)))) == as_matrix(K_TURNED)


def test_scores_accumulate_and_decide_the_winner() -> None:
    state, _ = run(3, 3, [[0, 0, [[1, 1, 1]]], [1, 0, [[1, 1]]]])
    assert RULES.scores(state) == (0.0, 5.0)
    state = RULES.apply(state, RULES.legal_moves(state)[0])  # player 0 must place its [[1, 1]]
    assert state.points[0] > 0


# ---- exact reasons ---------------------------------------------------------------------------
A = [[1, 2, 0], [1, 1, 3]]
B = [[4, 1], [0, 2]]  # chiral: its mirror image is none of its rotations
B_MIRROR = [[1, 4], [2, 0]]


def started() -> State:
    """A 7x8 board, cards A (2x3) twice and B (2x2) once; A at (2, 2) by player 0, player 1 to move."""
    state = new_game(7, 8, [as_matrix(A), as_matrix(A), as_matrix(B)])
    return RULES.apply(state, place(2, 2, A))


@pytest.mark.parametrize(("move", "reason"), [
    (place(6, 0, A), "a 2x3 card at (6, 0) does not fit on the 7x8 board: it would cover rows 6..7 (the last row is 6)"),
    (place(0, 6, A), "a 2x3 card at (0, 6) does not fit on the 7x8 board: it would cover cols 6..8 (the last col is 7)"),
    (place(6, 7, B), ("a 2x2 card at (6, 7) does not fit on the 7x8 board: it would cover rows 6..7 (the last row is 6) "
                      "and cols 7..8 (the last col is 7)")),
    (place(-1, 0, B), "a 2x2 card at (-1, 0) is off the board: row and col must be at least 0"),
    (place(3, 4, B), "card at (3, 4) overlaps the card placed at ply 1 at cell (3, 4)"),
    (place(2, 4, B), ("card at (2, 4) overlaps the card placed at ply 1 at cell (2, 4) (a colour-0 cell: "
                      "cards never overlap, whatever the colours)")),
    (place(4, 5, B), ("card at (4, 5) touches the card placed at ply 1 only at a corner (cell (3, 4)): "
                      "it must share an edge with a placed card")),
    (place(5, 0, B), "card at (5, 0) does not touch any placed card: it must share an edge with one"),
    (place(0, 2, B_MIRROR), ("card [[1,4],[2,0]] is a mirror image of your card #2 [[4,1],[0,2]], not a rotation "
                             "of it: cards may only be rotated")),
    (place(0, 2, [[4, 2], [0, 0]]), "card [[4,2],[0,0]] is not one of your cards nor a rotation of one"),
])
def test_illegal_placements_have_exact_reasons(move: Place, reason: str) -> None:
    assert RULES.check(started(), move) == reason


def test_every_rotation_is_legal_and_the_mirror_is_not() -> None:
    state = started()
    m = as_matrix(B)
    for _ in range(4):
        assert RULES.check(state, Place(0, 2, m)) is None
        m = rotate(m)
    assert RULES.check(state, place(0, 2, B_MIRROR)) is not None


def test_a_card_dealt_twice_may_be_played_twice_not_three_times() -> None:
    state = started()  # player 0 has played one A
    state = RULES.apply(state, place(4, 2, A))  # player 1: its first A
    state = RULES.apply(state, place(0, 2, A))  # player 0: its second A
    state = RULES.apply(state, place(2, 5, B))  # player 1: B
    turned = Place(4, 5, rotate(as_matrix(A)))  # free, touches B: only the card is wrong
    assert RULES.check(state, turned) == ("card [[0,3],[2,1],[1,1]] is a rotation of your card #0, which you have "
                                          "already played 2 times (dealt 2 times): each card may be played only "
                                          "as often as dealt")
    state = RULES.apply(state, RULES.legal_moves(state)[0])  # player 0 still holds B
    assert RULES.check(state, turned) is None  # player 1 still holds its second A


def test_pass_is_illegal_while_a_placement_exists() -> None:
    state = started()
    reason = RULES.check(state, PASS)
    assert reason is not None
    assert reason.startswith("passed ([]) although a legal placement exists, e.g. [")
    assert reason.endswith("a player must place a card when it can")


def test_the_game_ends_after_two_passes_in_a_row() -> None:
    state = new_game(2, 2, [as_matrix([[1, 1], [1, 1]])])
    state = RULES.apply(state, place(0, 0, [[1, 1], [1, 1]]))
    assert not RULES.is_over(state)
    assert list(RULES.legal_moves(state)) == [PASS] and RULES.check(state, PASS) is None
    state = RULES.apply(state, PASS)
    assert not RULES.is_over(state) and RULES.to_move(state) == 0
    state = RULES.apply(state, PASS)
    assert RULES.is_over(state)
    assert RULES.winner(state) is None and RULES.scores(state) == (0.0, 0.0)


def test_regions_grow_over_several_cards() -> None:
    state, out = run(3, 3, [[1, 0, [[2, 2, 2]]], [0, 0, [[2, 2, 2]]], [2, 0, [[1]]], [2, 1, [[1]]]],
                     cards=[[[1]], [[2, 2, 2]]])
    assert out == [0, 6, 0, 2]
    assert state.points == (0, 8) and RULES.winner(state) == 1
    state = RULES.apply(state, PASS)  # nobody holds a card any more
    state = RULES.apply(state, PASS)
    assert RULES.is_over(state) and RULES.scores(state) == (0.0, 8.0)


def test_first_move_may_go_anywhere_on_the_board() -> None:
    state = new_game(5, 5, [as_matrix([[1, 2]])])
    assert RULES.check(state, place(4, 3, [[1, 2]])) is None
    assert len(RULES.legal_moves(state)) == 4 * 5 * 2 + 5 * 4 * 2  # 1x2 and 2x1 everywhere


# ---- settings ----------------------------------------------------------------------------------
def test_default_settings_are_the_course_game() -> None:
    settings = RULES.parse_settings({})
    assert settings == {"rows": 19, "cols": 23, "cards": "course", "seed": None}
    state = RULES.initial(settings, random.Random(0))
    assert (state.rows, state.cols, len(state.deck.cards)) == (19, 23, 7)


@pytest.mark.parametrize("raw", [
    {}, {"cards": "tournament"}, {"cards": "random"}, {"cards": "random", "seed": 5, "rows": 9},
    {"cards": [[[1, 2], [0, 3]], [[4]]], "rows": 4, "cols": 4}, {"cards": "course", "rows": 8, "cols": 9},
])
def test_settings_are_json_and_idempotent(raw: dict[str, Any]) -> None:
    settings = RULES.parse_settings(raw)
    assert json.loads(json.dumps(settings)) == settings
    assert RULES.parse_settings(settings) == settings


@pytest.mark.parametrize(("raw", "message"), [
    ({"size": 3}, "unknown setting 'size'"),
    ({"cards": "deluxe"}, "cards: unknown card set 'deluxe'"),
    ({"cards": []}, "cards: the list of cards is empty"),
    ({"cards": [[[1, 2], [3]]]}, r"cards\[0\]: row 1 has 1 cells but row 0 has 2"),
    ({"cards": [[[1, 5]]]}, r"cards\[0\]: cell \[0\]\[1\] is 5, but colours are 0..4"),
    ({"cards": [[[True]]]}, r"cards\[0\]: cell \[0\]\[0\] must be an int 0..4"),
    ({"cards": 7}, "cards: a card set name or a list of card matrices"),
    ({"rows": 0}, r"rows: an integer 1..100"),
    ({"cols": 2.5}, r"cols: an integer 1..100"),
    ({"rows": True}, r"rows: an integer 1..100"),
    ({"seed": 3}, "seed: only the random and stress card sets use a seed"),
    ({"cards": "random", "rows": 2}, "rows: the random cards are 3 to 5 cells a side"),
    ({"cards": "random", "seed": "x"}, "seed: an integer or null"),
    ({"cards": "course", "rows": 3, "cols": 3}, r"cards: card 0 \(4x4\) fits the 3x3 board in no rotation"),
])
def test_bad_settings_name_the_key(raw: dict[str, Any], message: str) -> None:
    with pytest.raises(SettingsError, match=message):
        RULES.parse_settings(raw)


def test_random_deal_comes_from_the_seed_setting_or_the_games_generator() -> None:
    seeded = RULES.parse_settings({"cards": "random", "seed": 11})
    a = RULES.initial(seeded, random.Random(1))
    b = RULES.initial(seeded, random.Random(2))
    assert (a.rows, a.cols, a.deck.cards) == (b.rows, b.cols, b.deck.cards)  # the seed setting decides
    free = RULES.parse_settings({"cards": "random"})
    c = RULES.initial(free, random.Random(1))
    d = RULES.initial(free, random.Random(1))
    e = RULES.initial(free, random.Random(2))
    assert (c.rows, c.cols, c.deck.cards) == (d.rows, d.cols, d.deck.cards)
    assert (c.rows, c.cols, c.deck.cards) != (e.rows, e.cols, e.deck.cards)


# ---- moves as JSON -----------------------------------------------------------------------------
def test_moves_round_trip_through_json() -> None:
    move = place(1, 2, [[0, 1], [2, 3]])
    assert RULES.move_to_json(move) == [1, 2, [[0, 1], [2, 3]]]
    assert RULES.move_from_json([1, 2, [[0, 1], [2, 3]]]) == move
    assert RULES.move_to_json(PASS) is None and RULES.move_from_json(None) == PASS
    for bad in ([1, 2], [1.0, 2, [[1]]], [1, 2, [[9]]], "x"):
        with pytest.raises(ValueError):
            RULES.move_from_json(bad)
