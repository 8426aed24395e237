"""The Quoridor referee against RULES.md's worked example and its edge cases, with exact reasons."""

from __future__ import annotations

import random

import pytest

from harness.games.quoridor.moves import (
    PASS,
    Step,
    Wall,
    move_from_json,
    move_to_json,
    wall_key,
    wall_of_key,
)
from harness.games.quoridor.rules import RULES, State


def example() -> State:
    """RULES.md: 4x4, players at (0,0) and (0,3), initial wall Obstacle(0,1,0,2) + Obstacle(1,1,1,2)."""
    return State.build(4, 4, [(0, 0), (0, 3)], [("H", 0, 1)], max_obstacles=5)


# The 11 walls of RULES.md, as written there.
ELEVEN = [
    ((0, 0, 0, 1), (1, 0, 1, 1)), ((1, 0, 1, 1), (2, 0, 2, 1)), ((2, 0, 2, 1), (3, 0, 3, 1)),
    ((0, 2, 0, 3), (1, 2, 1, 3)), ((1, 2, 1, 3), (2, 2, 2, 3)), ((2, 2, 2, 3), (3, 2, 3, 3)),
    ((0, 1, 1, 1), (0, 2, 1, 2)), ((1, 1, 2, 1), (1, 2, 2, 2)),
    ((2, 0, 3, 0), (2, 1, 3, 1)), ((2, 1, 3, 1), (2, 2, 3, 2)), ((2, 2, 3, 2), (2, 3, 3, 3)),
]


def test_worked_example_has_exactly_the_eleven_walls() -> None:
    state = example()
    walls = [m for m in RULES.legal_moves(state) if isinstance(m, Wall)]
    assert len(walls) == 11
    assert set(walls) == {Wall.of(a, b) for a, b in ELEVEN}
    # any order of the two obstacles and either direction inside each is the same wall
    for a, b in ELEVEN:
        assert RULES.check(state, Wall.of(b[2:] + b[:2], a)) is None


def test_worked_example_expand_player() -> None:
    state = example()
    assert set(state.steps(0)) == {Step(1, 0), Step(0, 1)}
    assert [m for m in RULES.legal_moves(state) if isinstance(m, Step)] == [Step(1, 0), Step(0, 1)]


@pytest.mark.parametrize(("wall", "reason"), [
    (((1, 1, 1, 2), (2, 1, 2, 2)),  # overlap
     "wall (1,1)->(1,2) + (2,1)->(2,2) overlaps the initial wall (0,1)->(0,2) + (1,1)->(1,2) at edge (1,1)->(1,2)"),
    (((2, 1, 2, 2), (3, 1, 3, 2)),  # cuts the board
     "wall (2,1)->(2,2) + (3,1)->(3,2) leaves neither player a path to its goal row"),
    (((0, 0, 1, 0), (0, 1, 1, 1)),  # traps the player at (0,0)
     "wall (0,0)->(1,0) + (0,1)->(1,1) leaves you (at (0, 0)) no path to your goal row 3"),
    (((2, 0, 2, 1), (2, 1, 3, 1)),  # L-shape: not a wall
     ("obstacles (2,0)->(2,1) and (2,1)->(3,1) do not form a straight wall two cells long "
      "(one blocks a move along a row, the other a move along a column)")),
    (((0, 2, 1, 2), (0, 3, 1, 3)),  # traps the opponent at (0,3)
     "wall (0,2)->(1,2) + (0,3)->(1,3) leaves the opponent (at (0, 3)) no path to its goal row 0"),
])
def test_worked_example_illegal_walls(wall: tuple, reason: str) -> None:
    assert RULES.check(example(), Wall.of(*wall)) == reason


def test_without_crossings_or_path_check_the_counts_differ() -> None:
    """RULES.md: forbidding crossings would give 10, dropping the path check 16."""
    state = example()
    legal = set(state.wall_keys)
    initial = {w.key for w in state.walls}
    crossing = {k for k in legal if ("V" if k[0] == "H" else "H", k[1], k[2]) in initial}
    assert len(legal - crossing) == 10
    candidates = [(kind, x, y) for kind in "HV" for x in range(3) for y in range(3)]
    overlapping = [k for k in candidates if "overlaps" in (RULES.check(state, wall_of_key(k)) or "")]
    assert len(candidates) - len(overlapping) == 16


@pytest.mark.parametrize(("edges", "reason"), [
    (((0, 0, 2, 0), (0, 1, 2, 1)), "obstacle (0,0)->(2,0) does not separate two orthogonally adjacent cells"),
    (((0, 0, 1, 1), (1, 0, 2, 1)), "obstacle (0,0)->(1,1) does not separate two orthogonally adjacent cells"),
    (((3, 0, 4, 0), (3, 1, 4, 1)), "obstacle (3,0)->(4,0) is off the 4x4 board"),
    (((0, -1, 0, 0), (1, -1, 1, 0)), "obstacle (0,-1)->(0,0) is off the 4x4 board"),
    (((0, 0, 0, 1), (0, 1, 0, 0)), "both obstacles are the same edge (0,0)->(0,1); a wall blocks two different edges"),
    (((0, 0, 0, 1), (2, 0, 2, 1)),
     "obstacles (0,0)->(0,1) and (2,0)->(2,1) do not form a straight wall two cells long (they are not side by side)"),
    (((0, 0, 0, 1), (0, 1, 0, 2)),
     "obstacles (0,0)->(0,1) and (0,1)->(0,2) do not form a straight wall two cells long (they are not side by side)"),
])
def test_malformed_walls(edges: tuple, reason: str) -> None:
    assert RULES.check(example(), Wall.of(*edges)) == reason


@pytest.mark.parametrize(("target", "reason"), [
    ((0, -1), "step to (0, -1) is off the 4x4 board"),
    ((4, 0), "step to (4, 0) is off the 4x4 board"),
    ((0, 0), "step to (0, 0) is where your pawn already is"),
    ((1, 1), "step from (0, 0) to (1, 1) is not one cell left, right, up or down"),
    ((0, 2), "step from (0, 0) to (0, 2) is not one cell left, right, up or down"),
])
def test_illegal_steps(target: tuple[int, int], reason: str) -> None:
    assert RULES.check(example(), Step(*target)) == reason


def test_steps_through_walls_and_onto_the_opponent() -> None:
    state = State.build(4, 4, [(0, 1), (1, 1)], [("H", 0, 1)])
    assert RULES.check(state, Step(0, 2)) == \
        "step from (0, 1) to (0, 2) crosses the initial wall (0,1)->(0,2) + (1,1)->(1,2)"
    assert RULES.check(state, Step(1, 1)) == "step to (1, 1) lands on the opponent's pawn (no jumping)"
    mine = State.build(4, 4, [(1, 0), (3, 3)], [])
    mine = RULES.apply(mine, Wall.of((1, 0, 2, 0), (1, 1, 2, 1)))  # player 0 walls at ply 0
    mine = RULES.apply(mine, Step(3, 2))
    assert RULES.check(mine, Step(2, 0)) == \
        "step from (1, 0) to (2, 0) crosses the wall you placed at ply 0 ((1,0)->(2,0) + (1,1)->(2,1))"
    theirs = RULES.apply(RULES.apply(State.build(4, 4, [(1, 0), (3, 3)], []), Step(0, 0)),
                         Wall.of((0, 0, 1, 0), (0, 1, 1, 1)))  # player 1 walls at ply 1
    assert RULES.check(theirs, Step(1, 0)) == \
        "step from (0, 0) to (1, 0) crosses the wall the opponent placed at ply 1 ((0,0)->(1,0) + (0,1)->(1,1))"


def test_overlap_with_a_players_wall_and_crossing_it() -> None:
    state = RULES.apply(State.build(5, 5, [(2, 0), (2, 4)], []), Wall.of((1, 1, 1, 2), (2, 1, 2, 2)))
    assert RULES.check(state, Wall.of((2, 1, 2, 2), (3, 1, 3, 2))) == (
        "wall (2,1)->(2,2) + (3,1)->(3,2) overlaps the wall the opponent placed at ply 0 "
        "((1,1)->(1,2) + (2,1)->(2,2)) at edge (2,1)->(2,2)")
    assert RULES.check(state, Wall.of((1, 1, 2, 1), (1, 2, 2, 2))) is None  # crosses it: allowed
    assert RULES.check(state, Wall.of((1, 0, 2, 0), (1, 1, 2, 1))) is None  # touches its end: allowed


def test_wall_budget_excludes_initial_walls() -> None:
    state = State.build(6, 6, [(0, 0), (5, 5)], [("H", 2, 2), ("V", 0, 3)], max_obstacles=1)
    wall = Wall.of((3, 0, 4, 0), (3, 1, 4, 1))
    assert RULES.check(state, wall) is None  # two initial walls on the board, none used
    state = RULES.apply(state, wall)
    state = RULES.apply(state, Wall.of((0, 0, 0, 1), (1, 0, 1, 1)))
    assert state.used == (1, 1)
    assert RULES.check(state, Wall.of((4, 3, 4, 4), (5, 3, 5, 4))) == \
        "wall (4,3)->(4,4) + (5,3)->(5,4): you have no walls left (you placed 1 of 1)"
    assert all(isinstance(m, Step) for m in RULES.legal_moves(state))
    none = State.build(4, 4, [(0, 0), (0, 3)], [], max_obstacles=0)
    assert RULES.check(none, Wall.of((2, 0, 2, 1), (3, 0, 3, 1))) == \
        "wall (2,0)->(2,1) + (3,0)->(3,1): this game allows no walls (max_obstacles is 0)"


def test_reaching_the_goal_row_wins() -> None:
    state = State.build(3, 3, [(1, 1), (0, 2)], [], turn=0)
    assert RULES.winner(state) is None and RULES.scores(state) == (0.0, 0.0)
    state = RULES.apply(state, Step(1, 2))
    assert RULES.is_over(state) and RULES.winner(state) == 0 and RULES.scores(state) == (1.0, 0.0)
    assert RULES.legal_moves(state) == ()
    assert RULES.check(state, Step(1, 1)) == "the game is over"
    state = RULES.apply(State.build(3, 3, [(0, 0), (1, 1)], [], turn=1), Step(1, 0))
    assert RULES.winner(state) == 1 and RULES.scores(state) == (0.0, 1.0)


def test_pass_only_when_nothing_is_legal() -> None:
    # 3x3: player 0 at (0,0) is boxed in by the opponent at (0,1) and the wall V(0,0) and has no
    # walls; the opponent can still step to (0,2).
    state = State.build(3, 3, [(0, 0), (0, 1)], [("V", 0, 0)], max_obstacles=0)
    assert state.steps(0) == () and not RULES.is_over(state)
    assert RULES.legal_moves(state) == [PASS]
    assert RULES.check(state, PASS) is None
    state = RULES.apply(state, PASS)
    assert state.turn == 1 and state.ply == 1 and not RULES.is_over(state)
    assert RULES.check(state, PASS) == "pass while a legal move exists (e.g. step to (0, 2))"
    # with a wall left, a boxed-in pawn must place a wall instead of passing
    walled = State.build(5, 2, [(0, 0), (0, 1)], [("V", 0, 0)], max_obstacles=1)
    assert walled.steps(0) == ()
    assert RULES.check(walled, PASS) == "pass while a legal move exists (e.g. wall (1,0)->(1,1) + (2,0)->(2,1))"


def test_both_stuck_both_lose() -> None:
    # 2x2, same column, one vertical wall: neither pawn can step, and the only other wall cuts both.
    state = State.build(2, 2, [(0, 0), (0, 1)], [], max_obstacles=1)
    state = RULES.apply(state, Wall.of((0, 0, 1, 0), (0, 1, 1, 1)))
    assert RULES.is_over(state) and state.outcome == "stuck"
    assert RULES.winner(state) is None and RULES.scores(state) == (0.0, 0.0)


def test_ply_cap_is_a_draw() -> None:
    settings = RULES.parse_settings({"sizex": 3, "sizey": 5, "ply_cap": 2, "max_obstacles": 0})
    state = RULES.initial(settings, random.Random(0))
    state = RULES.apply(state, Step(0, 0))
    assert not RULES.is_over(state)
    state = RULES.apply(state, Step(0, 4))
    assert RULES.is_over(state) and state.outcome == "cap"
    assert RULES.winner(state) is None and RULES.scores(state) == (0.5, 0.5)


def test_default_ply_cap_and_start() -> None:
    state = RULES.initial(RULES.parse_settings({}), random.Random(0))
    assert (state.sizex, state.sizey, state.max_obstacles, state.ply_cap) == (9, 9, 10, 324)
    assert state.pawns == ((4, 0), (4, 8)) and state.turn == 0 and state.walls == ()
    assert RULES.to_move(state) == 0


@pytest.mark.parametrize(("move", "data"), [
    (Step(3, 4), [1, [3, 4]]),
    (Wall.of((1, 0, 1, 1), (0, 0, 0, 1)), [2, [[0, 0, 0, 1], [1, 0, 1, 1]]]),
    (Wall.of((0, 2, 1, 2), (0, 1, 1, 1)), [2, [[0, 1, 1, 1], [0, 2, 1, 2]]]),
    (Wall.of((1, 1, 0, 1), (0, 1, 1, 1)), [2, [[0, 1, 1, 1], [0, 1, 1, 1]]]),  # the same edge twice
    (PASS, None),
])
def test_json_round_trip(move: object, data: object) -> None:
    assert move_to_json(move) == data  # type: ignore[arg-type]
    assert move_from_json(data) == move
    assert RULES.move_from_json(RULES.move_to_json(move)) == move  # type: ignore[arg-type]


@pytest.mark.parametrize("data", [[1, [1]], [1, [1, 2.0]], [3, [1, 2]], [2, [[0, 0, 0, 1]]], [True, [1, 2]],
                                  "pass", [2, [[0, 0, 0], [1, 0, 1, 1]]], [1, (1, 2)]])
def test_bad_json_moves(data: object) -> None:
    with pytest.raises(ValueError):
        move_from_json(data)


def test_wall_keys() -> None:
    assert wall_key(Wall.of((1, 2, 1, 3), (2, 3, 2, 2)), 4, 4) == ("H", 1, 2)
    assert wall_key(Wall.of((2, 2, 1, 2), (1, 1, 2, 1)), 4, 4) == ("V", 1, 1)
    assert str(wall_of_key(("V", 1, 1))) == "(1,1)->(2,1) + (1,2)->(2,2)"


def test_apply_does_not_change_the_old_state() -> None:
    state = example()
    before = (state.pawns, state.walls, state.hb, state.vb, state.used, state.turn, state.ply)
    walls_before = state.wall_keys
    RULES.apply(state, Wall.of(*ELEVEN[0]))
    RULES.apply(state, Step(1, 0))
    assert (state.pawns, state.walls, state.hb, state.vb, state.used, state.turn, state.ply) == before
    assert state.wall_keys == walls_before
