"""The referee against a naive independent referee: legal moves, check() on random candidates,
and the invariants of seeded random playouts (every wall leaves both paths, no pawn crosses a
wall or lands on the other, budgets hold, games end, outcomes are right)."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from harness.games.quoridor.battery import battery
from harness.games.quoridor.moves import PASS, Pass, Step, Wall
from harness.games.quoridor.rules import RULES, State
from tests.games.quoridor import oracle

SETTINGS = [
    {"sizex": 5, "sizey": 5, "max_obstacles": 4},
    {"sizex": 3, "sizey": 6, "max_obstacles": 3, "start_columns": "random", "initial_walls": {"random": 2}},
    {"sizex": 6, "sizey": 3, "max_obstacles": 2, "start_columns": "random"},
    {"sizex": 2, "sizey": 2, "max_obstacles": 1},
    {"sizex": 2, "sizey": 4, "max_obstacles": 2, "start_columns": [0, 0]},
    {"sizex": 7, "sizey": 7, "max_obstacles": 6, "initial_walls": {"random": 6}, "start_columns": "random"},
    {"sizex": 4, "sizey": 4, "max_obstacles": 0, "ply_cap": 12},
]


def as_pairs(move: Wall) -> frozenset[frozenset[tuple[int, int]]]:
    return frozenset(frozenset({(e[0], e[1]), (e[2], e[3])}) for e in move.edges)


def referee_sets(state: State) -> tuple[set, set, bool]:
    moves = RULES.legal_moves(state)
    steps = {(m.x, m.y) for m in moves if isinstance(m, Step)}
    walls = {as_pairs(m) for m in moves if isinstance(m, Wall)}
    assert len(steps) + len(walls) + (PASS in moves) == len(moves), "legal_moves lists a move twice"
    return steps, walls, PASS in moves


def playout_states(seed: int) -> Iterator[State]:
    """Every state of one seeded random playout (moves drawn from the referee's legal moves)."""
    raw = SETTINGS[seed % len(SETTINGS)]
    state = RULES.initial(RULES.parse_settings(raw), random.Random(seed))
    rng = random.Random(seed)
    yield state
    while not RULES.is_over(state):
        moves = RULES.legal_moves(state)
        state = RULES.apply(state, moves[rng.randrange(len(moves))])
        yield state


def test_legal_moves_match_the_oracle_on_the_battery() -> None:
    for position in battery():
        state = position.state
        if RULES.is_over(state):
            assert state.outcome == "stuck" and oracle.stuck(state, 0) and oracle.stuck(state, 1)
            continue
        assert referee_sets(state) == oracle.legal(state), position.index


@pytest.mark.parametrize("seed", range(40))
def test_legal_moves_match_the_oracle_along_playouts(seed: int) -> None:
    for state in playout_states(seed):
        if RULES.is_over(state):
            break
        assert referee_sets(state) == oracle.legal(state)


def random_candidate(rng: random.Random, state: State) -> Step | Wall | Pass:
    sx, sy = state.sizex, state.sizey
    roll = rng.random()
    if roll < 0.3:
        x, y = state.pawns[state.turn]
        return Step(x + rng.randint(-2, 2), y + rng.randint(-2, 2))
    if roll < 0.9:  # a wall: mostly well formed, sometimes not
        kind, x, y = rng.choice("HV"), rng.randint(-1, sx - 1), rng.randint(-1, sy - 1)
        a, b = oracle.wall_pairs(kind, x, y)
        edges = [tuple(sorted(a)), tuple(sorted(b))]
        if rng.random() < 0.2:
            edges[1] = tuple(sorted(oracle.wall_pairs(rng.choice("HV"), x + rng.randint(-1, 1), y)[rng.randrange(2)]))
        return Wall.of(*((p[0][0], p[0][1], p[1][0], p[1][1]) for p in edges))
    return PASS


@pytest.mark.parametrize("seed", range(20))
def test_check_agrees_with_legal_moves_on_random_candidates(seed: int) -> None:
    rng = random.Random(1000 + seed)
    for state in playout_states(seed):
        if RULES.is_over(state):
            assert all(RULES.check(state, random_candidate(rng, state)) == "the game is over" for _ in range(5))
            break
        listed = set(RULES.legal_moves(state))
        for _ in range(30):
            move = random_candidate(rng, state)
            reason = RULES.check(state, move)
            assert (reason is None) == (move in listed), (move, reason)
            assert reason is None or (isinstance(reason, str) and reason)


@pytest.mark.parametrize("seed", range(300))
def test_playout_invariants(seed: int) -> None:
    prev: State | None = None
    state = None
    for state in playout_states(seed):
        assert state.used[0] <= state.max_obstacles and state.used[1] <= state.max_obstacles
        walls = oracle.blocked(state)
        for s in (0, 1):  # every wall leaves both players a path
            assert oracle.has_path(state, walls, state.pawns[s], oracle.goal(state, s))
        assert state.pawns[0] != state.pawns[1]
        if prev is not None:
            mover = prev.turn
            assert state.turn == 1 - mover and state.ply == prev.ply + 1
            old, new = prev.pawns[mover], state.pawns[mover]
            if old != new:  # a step: one cell, through no wall
                assert abs(old[0] - new[0]) + abs(old[1] - new[1]) == 1
                assert frozenset({old, new}) not in walls
                assert new in oracle.steps(prev, mover)
            elif len(state.walls) > len(prev.walls):  # a wall: exactly two new edges, the budget used
                assert len(walls - oracle.blocked(prev)) == 2
                assert state.used[mover] == prev.used[mover] + 1
            else:  # a pass: only when nothing was legal
                assert oracle.legal(prev) == (set(), set(), True)
        prev = state
    assert state is not None and RULES.is_over(state)
    assert state.ply <= state.ply_cap
    outcome = state.outcome
    if outcome == "goal":
        w = RULES.winner(state)
        assert w is not None and state.pawns[w][1] == oracle.goal(state, w)
        assert state.pawns[1 - w][1] != oracle.goal(state, 1 - w)
    elif outcome == "stuck":
        assert oracle.stuck(state, 0) and oracle.stuck(state, 1) and RULES.scores(state) == (0.0, 0.0)
    else:
        assert outcome == "cap" and state.ply == state.ply_cap and RULES.scores(state) == (0.5, 0.5)
