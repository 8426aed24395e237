"""Človeče's referee, table-driven from the seed's text and the readings in docs/rules.md (Človeče)."""

from __future__ import annotations

import random

import pytest

from harness.games.base import SettingsError, places_of
from harness.games.clovece.rules import (
    COLORS,
    RULES,
    Move,
    begin,
    draw_rolls,
    moves_for,
    normalize,
    progress,
)
from harness.games.clovece import rules as rules_module
from tests.games.clovece.helpers import STABLE, move, pieces, position

HOME = (40, 41, 42, 43)


# ---- positions seen from the piece -------------------------------------------------------
@pytest.mark.parametrize("color, pos, index", [
    ("yellow", 4, 14),  # the seed's example
    ("black", 0, 0), ("black", 39, 39), ("yellow", 29, 39), ("yellow", 30, 0), ("green", 0, 20),
    ("green", 25, 5), ("red", 9, 39), ("red", 10, 0), ("red", 39, 29),
    ("green", 41, 41), ("red", None, None),  # home and stable are not renumbered
])
def test_normalize_position(color: str, pos: int | None, index: int | None) -> None:
    assert normalize(pos, COLORS.index(color)) == index


# ---- valid moves ------------------------------------------------------------------------
def targets(state_moves: tuple[Move, ...]) -> list[tuple[int, int]]:
    return [(m.piece, m.target) for m in state_moves]


MOVES = [  # (description, pieces, seat, roll, expected (piece, target) list)
    ("a piece at 39 with a 5 cannot move (44 > 43)", pieces(black=[39, None, None, None]), "black", 5, []),
    ("a piece at 39 with a 4 reaches the last home cell", pieces(black=[39, None, None, None]), "black", 4, [(0, 43)]),
    ("never past 43: 38 + 6", pieces(black=[38, 5, 40, 41]), "black", 6, [(1, 11)]),
    ("stable pieces need a 6", pieces(yellow=[None, None, 12, None]), "yellow", 5, [(2, 17)]),
    ("forced activation: the first stable piece, nothing else",
     pieces(yellow=[3, None, 12, None]), "yellow", 6, [(1, 0)]),
    ("forced activation also with pieces home", pieces(red=[40, 41, None, None]), "red", 6, [(2, 0)]),
    ("own piece on the start: no piece comes out, the others move",
     pieces(green=[0, None, 7, None]), "green", 6, [(0, 6), (2, 13)]),
    ("an opponent on the start: any stable piece may come out capturing it, or another piece moves",
     pieces(green=[None, 7, None, None], black=[20, None, None, None]), "green", 6, [(0, 0), (1, 13), (2, 0), (3, 0)]),
    ("own piece on the target cell", pieces(black=[3, 5, None, None]), "black", 2, [(1, 7)]),
    ("an opponent on the target cell is a valid target (capture)",
     pieces(black=[3, None, None, None], yellow=[35, None, None, None]), "black", 2, [(0, 5)]),
    ("home entry only onto a free home cell", pieces(black=[39, 40, None, None]), "black", 1, [(1, 41)]),
    ("jumping over own pieces in the home", pieces(black=[39, 40, 41, 42]), "black", 4, [(0, 43)]),
    ("moving inside the home", pieces(black=[40, None, None, None]), "black", 2, [(0, 42)]),
    ("no free home cell within reach", pieces(black=[39, 41, 42, 43]), "black", 2, []),
    ("homes are private: black at 41 does not block yellow's 41",
     pieces(black=[41, None, None, None], yellow=[39, None, None, None]), "yellow", 2, [(0, 41)]),
    ("past 39 a piece enters its home, it does not go round again (black at track 11 is safe)",
     pieces(yellow=[38, None, None, None], black=[11, None, None, None]), "yellow", 3, [(0, 41)]),
]


@pytest.mark.parametrize("what, ps, color, roll, expected", MOVES, ids=[m[0] for m in MOVES])
def test_valid_moves(what: str, ps: tuple, color: str, roll: int, expected: list[tuple[int, int]]) -> None:
    assert targets(moves_for(ps, COLORS.index(color), roll)) == expected
    state = begin(ps, COLORS.index(color), 0, rolls=(roll,))
    if expected:
        assert state.turn == COLORS.index(color) and state.roll == roll
        assert targets(tuple(RULES.legal_moves(state))) == expected
        for m in RULES.legal_moves(state):
            assert RULES.check(state, m) is None
    else:  # the referee skips the roll: the next player decides (or rolls on)
        assert state.skipped[0] == (COLORS.index(color), roll)


# ---- the referee's reasons -----------------------------------------------------------------
REASONS = [  # (pieces, turn, roll, move, reason)
    (pieces(black=[5, None, None, None]), "black", 3, move("yellow", 0, 3),
     "piece 0 of yellow is not yours: you play black"),
    (pieces(yellow=[None, None, 12, None]), "yellow", 5, move("yellow", 1, 0),
     "piece 1 of yellow is in the stable: only a 6 brings it out (the roll is 5)"),
    (pieces(yellow=[3, None, 12, None]), "yellow", 6, move("yellow", 0, 9),
     "a 6 with a piece in the stable and yellow's start cell free: piece 1 (the first piece in the "
     "stable) must come out to 0"),
    (pieces(yellow=[3, None, 12, None]), "yellow", 6, move("yellow", 3, 0),
     "a 6 with a piece in the stable and yellow's start cell free: piece 1 (the first piece in the "
     "stable) must come out to 0"),
    (pieces(green=[0, None, 7, None]), "green", 6, move("green", 1, 0),
     "target 0 (track cell 20) is occupied by green's own piece 0"),
    (pieces(green=[None, 7, None, None], black=[20, None, None, None]), "green", 6, move("green", 0, 6),
     "piece 0 of green comes out of the stable onto its start 0, not to 6"),
    (pieces(black=[39, 4, None, None]), "black", 5, move("black", 0, 44),
     "piece 0 of black at 39 cannot move 5: 44 is past the last home cell 43"),
    (pieces(black=[0, 14, None, None]), "black", 6, move("black", 1, 22),  # a joined target (6 + 2)
     "piece 1 of black is at 14 and the roll is 6: its target is 20, not 22"),
    (pieces(red=[14, None, None, None]), "red", 3, move("red", 0, 3),
     "piece 0 of red is at 14 and the roll is 3: its target is 17, not 3"),
    (pieces(yellow=[39, None, None, 41], black=[4, None, None, None]), "yellow", 2, move("yellow", 0, 41),
     "target 41: yellow's home cell 41 is occupied by its own piece 3"),
    (pieces(black=[3, 5, None, None]), "black", 2, move("black", 0, 5),
     "target 5 (track cell 5) is occupied by black's own piece 1"),
    (pieces(red=[8, 9, None, None]), "red", 1, move("red", 0, 9),
     "target 9 (track cell 39) is occupied by red's own piece 1"),
]


@pytest.mark.parametrize("ps, color, roll, attempt, reason", REASONS, ids=[r[4][:40] for r in REASONS])
def test_check_gives_the_exact_reason(ps: tuple, color: str, roll: int, attempt: Move, reason: str) -> None:
    state = begin(ps, COLORS.index(color), 0, rolls=(roll,))
    assert (state.turn, state.roll) == (COLORS.index(color), roll)
    assert RULES.check(state, attempt) == reason


def test_check_of_a_finished_game_and_of_impossible_pieces() -> None:
    state = position("black", [4], black=[39, 40, 41, 42], finished=["yellow", "green", "red"],
                     yellow=HOME, green=HOME, red=HOME)
    assert RULES.check(state, move("black", 0, 43)) is None
    assert RULES.check(state, Move(0, 7, 3)) == "there is no piece 7 of seat 0: seats and pieces are numbered 0..3"
    over = RULES.apply(state, move("black", 0, 43))
    assert over.over and RULES.check(over, move("black", 0, 41)) == "the game is over"
    assert RULES.legal_moves(over) == ()


# ---- captures ---------------------------------------------------------------------------
def test_a_capture_sends_the_piece_to_its_stable() -> None:
    state = position("black", [2], black=[3, None, None, None], yellow=[35, 20, None, None])
    after = RULES.apply(state, move("black", 0, 5))
    assert after.pieces[0][0] == 5 and after.pieces[1] == (None, 20, None, None)
    assert after.last.captured == (1, 0)


def test_coming_out_onto_an_opponent_captures_it() -> None:
    state = position("green", [6, 1], green=[None, 7, None, None], black=[20, None, None, None])
    after = RULES.apply(state, move("green", 2, 0))
    assert after.pieces[2] == (None, 7, 0, None) and after.pieces[0] == STABLE
    assert (after.turn, after.roll) == (2, 1)  # the chain's next roll, same player


def test_capture_on_the_first_roll_of_a_six_chain_then_moving_on() -> None:
    # Yellow at 4 (track 14), its start (track 10) held by black, so the 6 is not forced;
    # red at its 30 (track 20). Yellow rolls 6, then 3.
    state = position("yellow", [6, 3], yellow=[4, None, None, None], red=[30, None, None, None],
                     black=[10, None, None, None])
    assert targets(tuple(RULES.legal_moves(state))) == [(0, 10), (1, 0), (2, 0), (3, 0)]
    state = RULES.apply(state, move("yellow", 0, 10))
    assert state.pieces[3] == STABLE and state.last.captured == (3, 0)
    assert (state.turn, state.roll) == (1, 3)  # the same piece may go on with the next roll
    state = RULES.apply(state, move("yellow", 0, 13))
    assert state.pieces[1][0] == 13 and state.pieces[0][0] == 10 and state.turn != 1


def test_each_roll_is_decided_against_the_position_the_previous_one_left() -> None:
    # All in the stable, rolls 6, 4: the 4 is playable only because the 6 brought a piece out.
    state = position("black", [6, 4])
    assert RULES.legal_moves(state) == (move("black", 0, 0),)
    state = RULES.apply(state, move("black", 0, 0))
    assert (state.turn, state.roll) == (0, 4) and RULES.legal_moves(state) == (move("black", 0, 4),)


def test_prepare_targets_joins_what_the_referee_asks_roll_by_roll() -> None:
    # The seed's [(p1, 6), (p1, 6), (p1, 3)] -> [(p1, 9)]: three decisions, ending where the join says.
    state = position("black", [6, 6, 3])
    for target in (0, 6, 9):
        assert move("black", 0, target) in RULES.legal_moves(state)
        state = RULES.apply(state, move("black", 0, target))
    assert state.pieces[0][0] == 9
    # [(p2, 6), (p2, 2)] with p2 at 14 -> [(p2, 22)]
    state = position("black", [6, 2], black=[0, 14, None, None], yellow=[3, None, None, None])
    state = RULES.apply(state, move("black", 1, 20))
    state = RULES.apply(state, move("black", 1, 22))
    assert state.pieces[0][1] == 22


# ---- the turn's rolls ---------------------------------------------------------------------
ROLLS = [  # (own pieces, dice, the turn's rolls)
    (STABLE, [1, 2, 3, 6], [1, 2, 3]),  # three rolls without a piece on the track
    (STABLE, [6, 3], [6, 3]),
    (STABLE, [2, 6, 6, 1], [2, 6, 6, 1]),
    (STABLE, [1, 2, 6, 4], [1, 2, 6, 4]),
    ((40, 41, None, None), [5, 5, 5, 6], [5, 5, 5]),  # pieces home are not on the track
    ((12, None, None, None), [4, 6], [4]),
    ((12, None, None, None), [6, 6, 2], [6, 6, 2]),
    ((0, 40, 41, 42), [6, 1], [6, 1]),
]


@pytest.mark.parametrize("own, dice, expected", ROLLS)
def test_rolls_of_a_turn(monkeypatch: pytest.MonkeyPatch, own: tuple, dice: list[int], expected: list[int]) -> None:
    monkeypatch.setattr(rules_module, "roll_die", lambda seed, k: dice[k - 100])
    assert draw_rolls(own, 0, 100) == (tuple(expected), 100 + len(expected))


def test_three_rolls_without_a_six_pass_the_turn() -> None:
    state = position("black", [1, 2, 3], dice_seed=5)
    assert state.turn != 0 and state.skipped[:3] == ((0, 1), (0, 2), (0, 3))


def test_turns_follow_seat_order_skipping_done_players() -> None:
    state = position("black", [2], black=[5, None, None, None], yellow=HOME, finished=["yellow"],
                     green=[7, None, None, None], dice_seed=1)
    state = RULES.apply(state, move("black", 0, 7))
    seats = [state.turn]
    while len(seats) < 12:
        state = RULES.apply(state, RULES.legal_moves(state)[0])
        if state.turn != seats[-1]:
            seats.append(state.turn)
    assert 1 not in seats and seats[0] == 2


# ---- the end ------------------------------------------------------------------------------
def test_finishing_order_and_the_last_player() -> None:
    state = position("red", [1], finished=["yellow", "green", "black"], black=HOME, yellow=HOME, green=HOME,
                     red=[39, 41, 42, 43])
    assert not RULES.is_over(state)
    end = RULES.apply(state, move("red", 0, 40))
    assert RULES.is_over(end) and end.finished == (1, 2, 0, 3)
    assert RULES.ranking(end) == (3, 1, 2, 4)
    assert RULES.scores(end) == (1.0, 3.0, 2.0, 0.0)
    assert RULES.winner(end) == 1
    assert places_of(RULES, end, [False] * 4) == (3, 1, 2, 4)


def test_the_last_player_plays_on_alone_until_done() -> None:
    state = position("red", [6], finished=["green", "black", "yellow"], black=HOME, yellow=HOME, green=HOME)
    rng = random.Random(3)
    decisions = 0
    while not RULES.is_over(state):
        assert state.turn == 3
        moves = RULES.legal_moves(state)
        state = RULES.apply(state, moves[rng.randrange(len(moves))])
        decisions += 1
    assert state.finished == (2, 0, 1, 3) and not state.capped and decisions > 10


def test_finishing_mid_turn_skips_the_rest_of_the_chain() -> None:
    state = position("green", [6, 5], green=[37, 40, 41, 42], dice_seed=2)
    state = RULES.apply(state, move("green", 0, 43))
    assert state.finished == (2,) and state.turn != 2 and (2, 5) in state.skipped
    assert RULES.scores(state)[2] == 3.0 and RULES.winner(state) == 2


def test_random_games_end_with_every_player_placed() -> None:
    for seed in range(20):
        state = RULES.initial(RULES.parse_settings({}), random.Random(seed))
        rng = random.Random(seed)
        while not RULES.is_over(state):
            moves = RULES.legal_moves(state)
            state = RULES.apply(state, moves[rng.randrange(len(moves))])
        assert sorted(state.finished) == [0, 1, 2, 3] and not state.capped
        assert sorted(RULES.ranking(state)) == [1, 2, 3, 4]
        assert sorted(RULES.scores(state)) == [0.0, 1.0, 2.0, 3.0]
        assert RULES.winner(state) == state.finished[0]


# ---- the ply cap ---------------------------------------------------------------------------
def test_the_ply_cap_ranks_finishers_then_progress() -> None:
    state = position("black", [2], ply_cap=1, finished=["green"], green=HOME, black=[5, 30, None, None],
                     yellow=[21, 15, None, None], red=[3, None, None, None])
    state = RULES.apply(state, move("black", 1, 32))
    assert state.over and state.capped and state.plies == 1
    # progress: black 6 + 33 = 39, yellow 22 + 16 = 38, red 4
    assert [progress(p) for p in state.pieces] == [39, 38, 4 * 41 + 6, 4]
    assert RULES.ranking(state) == (2, 3, 1, 4)
    assert RULES.scores(state) == (2.0, 1.0, 3.0, 0.0) and RULES.winner(state) == 2


def test_equal_progress_shares_a_place() -> None:
    state = position("black", [2], ply_cap=1, black=[5, None, None, None], yellow=[7, None, None, None],
                     green=[7, None, None, None])
    state = RULES.apply(state, move("black", 0, 7))
    assert RULES.ranking(state) == (1, 1, 1, 4)
    assert RULES.scores(state) == (3.0, 3.0, 3.0, 0.0) and RULES.winner(state) is None


def test_settings() -> None:
    assert RULES.parse_settings({}) == {"ply_cap": 4000}
    assert RULES.parse_settings({"ply_cap": 7}) == {"ply_cap": 7}
    for raw, key in [({"ply_cap": 0}, "ply_cap"), ({"ply_cap": "9"}, "ply_cap"), ({"ply_cap": True}, "ply_cap"),
                     ({"plycap": 5}, "'plycap'")]:
        with pytest.raises(SettingsError, match=key):
            RULES.parse_settings(raw)


# ---- the move's JSON --------------------------------------------------------------------------
def test_move_json() -> None:
    m = move("green", 2, 41)
    assert RULES.move_to_json(m) == {"color": "green", "piece": 2, "target": 41}
    assert RULES.move_from_json(RULES.move_to_json(m)) == m
    for bad in [None, [2, 41], {"color": "blue", "piece": 0, "target": 1}, {"color": "red", "piece": 4, "target": 1},
                {"color": "red", "piece": 0, "target": "1"}, {"color": "red", "piece": 0}]:
        with pytest.raises(ValueError):
            RULES.move_from_json(bad)


def test_positions_are_validated() -> None:
    for bad in [pieces(black=[3, 3, None, None]), pieces(black=[0, None, None, None], yellow=[30, None, None, None]),
                pieces(black=[44, None, None, None])]:
        with pytest.raises(ValueError):
            begin(bad, 0, 0, rolls=(1,))
