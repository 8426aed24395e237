"""Blokovanie's referee: settings, the blocking rule as tables, exact reasons, the end of the game,
rectangular boards, and random playouts compared with a naive set-of-cells oracle."""

from __future__ import annotations

import random

import pytest

from harness.games.base import SettingsError
from harness.games.blokovanie.rules import RULES, State, neighbourhoods


def board(rows: int = 5, cols: int = 6, *moves: tuple[int, int]) -> State:
    """The position after ``moves`` (each checked legal) on an empty ``rows`` x ``cols`` board."""
    state = RULES.initial(RULES.parse_settings({"rows": rows, "cols": cols}), random.Random(0))
    for move in moves:
        assert RULES.check(state, move) is None, move
        state = RULES.apply(state, move)
    return state


# ---- settings -------------------------------------------------------------------------------
def test_default_settings_are_the_seeds_example_board() -> None:
    assert RULES.parse_settings({}) == {"rows": 5, "cols": 6}
    assert RULES.parse_settings({"rows": 1, "cols": 50}) == {"rows": 1, "cols": 50}


@pytest.mark.parametrize(("raw", "message"), [
    ({"rows": 0}, "rows: must be an integer from 1 to 50, got 0"),
    ({"cols": 51}, "cols: must be an integer from 1 to 50, got 51"),
    ({"rows": "5"}, "rows: must be an integer from 1 to 50, got '5'"),
    ({"cols": 6.0}, "cols: must be an integer from 1 to 50, got 6.0"),
    ({"rows": True}, "rows: must be an integer from 1 to 50, got True"),
    ({"rows": -3}, "rows: must be an integer from 1 to 50, got -3"),
    ({"size": 5}, "unknown setting 'size' (known: rows, cols)"),
])
def test_bad_settings_name_the_key(raw: dict, message: str) -> None:
    with pytest.raises(SettingsError) as info:
        RULES.parse_settings(raw)
    assert str(info.value) == message


# ---- the blocking rule ----------------------------------------------------------------------
# "vyberie niektoré z voľných polí, čím zablokuje toto pole a všetky susedné polia (aj
# diagonálne)": the cell and its up to 8 neighbours, clipped at the edges.
BLOCKS = [
    (5, 6, (1, 1), ["XXX---", "XXX---", "XXX---", "------", "------"]),  # the seed's first move
    (5, 6, (0, 0), ["XX----", "XX----", "------", "------", "------"]),  # corner: 4 cells
    (5, 6, (0, 3), ["--XXX-", "--XXX-", "------", "------", "------"]),  # edge: 6 cells
    (5, 6, (4, 5), ["------", "------", "------", "----XX", "----XX"]),  # the seed's corner
    (5, 6, (2, 0), ["------", "XX----", "XX----", "XX----", "------"]),
    (1, 1, (0, 0), ["X"]),
    (1, 5, (0, 2), ["-XXX-"]),
    (4, 1, (3, 0), ["-", "-", "X", "X"]),
    (2, 9, (1, 8), ["-------XX", "-------XX"]),
    (9, 2, (8, 1), ["--"] * 7 + ["XX", "XX"]),
]


@pytest.mark.parametrize(("rows", "cols", "move", "lines"), BLOCKS)
def test_a_move_blocks_the_cell_and_its_neighbours(rows: int, cols: int, move: tuple[int, int],
                                                    lines: list[str]) -> None:
    state = board(rows, cols, move)
    assert state.lines() == lines
    assert len(RULES.legal_moves(state)) == "".join(lines).count("-")


def test_blocking_overlaps_changes_nothing_already_blocked() -> None:
    state = board(3, 5, (0, 0), (2, 2))  # (2, 2) reaches (1, 1), already blocked by (0, 0)
    assert state.lines() == ["XX---", "XXXX-", "-XXX-"]
    assert RULES.legal_moves(state) == [(0, 2), (0, 3), (0, 4), (1, 4), (2, 0), (2, 4)]


def test_legal_moves_are_the_free_cells_in_row_major_order() -> None:
    assert RULES.legal_moves(board(2, 3)) == [(0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (1, 2)]
    assert RULES.legal_moves(board(5, 6, (1, 1), (4, 5), (1, 4), (4, 0))) == [(3, 2), (3, 3), (4, 2), (4, 3)]


# ---- exact reasons --------------------------------------------------------------------------
@pytest.mark.parametrize(("move", "reason"), [
    ((7, 0), "row 7 is off the 5x6 board (rows 0..4)"),
    ((5, 0), "row 5 is off the 5x6 board (rows 0..4)"),
    ((-1, 2), "row -1 is off the 5x6 board (rows 0..4)"),
    ((0, 6), "column 6 is off the 5x6 board (columns 0..5)"),
    ((2, -1), "column -1 is off the 5x6 board (columns 0..5)"),
    ((9, 9), "row 9 is off the 5x6 board (rows 0..4)"),  # the row is judged first
    ((1, 1), "cell (1, 1) is already blocked"),  # the chosen cell itself
    ((2, 2), "cell (2, 2) is already blocked"),  # a neighbour of it
    ((0, 0), "cell (0, 0) is already blocked"),  # a diagonal neighbour
    ((True, 1), "a move is (row, col), two ints, got (True, 1)"),
    ([3, 3], "a move is (row, col), two ints, got [3, 3]"),
])
def test_illegal_moves_have_exact_reasons(move: object, reason: str) -> None:
    assert RULES.check(board(5, 6, (1, 1)), move) == reason  # type: ignore[arg-type]


def test_rectangular_reasons_name_the_right_bounds() -> None:
    assert RULES.check(board(2, 9), (2, 0)) == "row 2 is off the 2x9 board (rows 0..1)"
    assert RULES.check(board(9, 2), (0, 2)) == "column 2 is off the 9x2 board (columns 0..1)"
    assert RULES.check(board(9, 2), (8, 1)) is None and RULES.check(board(2, 9), (1, 8)) is None


# ---- turns and the end ----------------------------------------------------------------------
def test_players_alternate_and_the_one_who_cannot_move_loses() -> None:
    state = board(5, 6)
    assert RULES.to_move(state) == 0 and not RULES.is_over(state)
    assert RULES.winner(state) is None and RULES.scores(state) == (0.0, 0.0)
    for n, move in enumerate([(1, 1), (4, 5), (1, 4), (4, 0)]):
        state = RULES.apply(state, move)
        assert RULES.to_move(state) == (n + 1) % 2 and not RULES.is_over(state)
    state = RULES.apply(state, (4, 2))  # seat 0 blocks the last free cells
    assert RULES.is_over(state) and RULES.legal_moves(state) == []
    assert RULES.to_move(state) == 1  # ... so seat 1 cannot choose a free field
    assert RULES.winner(state) == 0 and RULES.scores(state) == (1.0, 0.0)


@pytest.mark.parametrize(("rows", "cols", "moves", "winner"), [
    (1, 1, [(0, 0)], 0),  # the first player's only move ends the game
    (3, 3, [(1, 1)], 0),  # the centre blocks all nine cells
    (2, 2, [(1, 0)], 0),
    (1, 4, [(0, 0), (0, 3)], 1),
    (1, 4, [(0, 2), (0, 0)], 1),
    (3, 4, [(0, 0), (0, 3), (2, 0), (2, 3)], 1),
])
def test_the_last_mover_wins(rows: int, cols: int, moves: list[tuple[int, int]], winner: int) -> None:
    state = board(rows, cols, *moves)
    assert RULES.is_over(state) and RULES.winner(state) == winner
    assert RULES.scores(state) == tuple(1.0 if i == winner else 0.0 for i in range(2))


def test_moves_survive_the_json_round_trip_and_bad_json_is_refused() -> None:
    assert RULES.move_to_json((4, 5)) == [4, 5]
    assert RULES.move_from_json([4, 5]) == (4, 5)
    for bad in ([4], [4, 5, 6], [4.0, 5], [True, 5], "4,5", None):
        with pytest.raises(ValueError, match="a Blokovanie move is"):
            RULES.move_from_json(bad)


def test_state_lines_and_from_lines_are_inverse() -> None:
    state = board(4, 7, (0, 0), (3, 6), (1, 3))
    again = State.from_lines(state.lines(), state.turn, state.ply)
    assert again == state
    with pytest.raises(ValueError):
        State.from_lines(["--", "-"])
    with pytest.raises(ValueError):
        State.from_lines(["-O"])


# ---- random playouts against a naive oracle -------------------------------------------------
def oracle_block(free: set[tuple[int, int]], move: tuple[int, int]) -> set[tuple[int, int]]:
    """The seed's rule on a set of free cells, as plainly as it can be written."""
    r, c = move
    return {(rr, cc) for rr, cc in free if abs(rr - r) > 1 or abs(cc - c) > 1}


@pytest.mark.parametrize(("rows", "cols"), [(1, 1), (1, 9), (9, 1), (2, 7), (7, 2), (3, 8), (8, 3), (5, 6),
                                            (6, 5), (4, 11), (13, 4), (10, 10), (50, 50)])
def test_random_playouts_agree_with_the_oracle(rows: int, cols: int) -> None:
    for seed in range(20 if rows * cols < 400 else 2):
        rng = random.Random(seed)
        state = board(rows, cols)
        free = {(r, c) for r in range(rows) for c in range(cols)}
        plies = 0
        while free:
            assert RULES.legal_moves(state) == sorted(free)
            move = rng.choice(sorted(free))
            blocked = (rng.randrange(-1, rows + 1), rng.randrange(-1, cols + 1))
            assert (RULES.check(state, blocked) is None) == (blocked in free)
            state, free, plies = RULES.apply(state, move), oracle_block(free, move), plies + 1
            assert state.turn == plies % 2 and state.ply == plies
        assert RULES.is_over(state) and RULES.winner(state) == (plies - 1) % 2


def test_neighbourhood_masks_have_four_six_or_nine_cells() -> None:
    sizes = [bin(m).count("1") for m in neighbourhoods(5, 6)]
    assert sizes.count(4) == 4 and sizes.count(6) == 2 * (4 + 3) and sizes.count(9) == 3 * 4
    assert [bin(m).count("1") for m in neighbourhoods(1, 3)] == [2, 3, 2]
