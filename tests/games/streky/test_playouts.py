"""Seeded random playouts through the referee, with Štreky's invariants checked independently.

The checks here never use the referee's helpers: boards, contact, card counts and scores are
recomputed from the list of placed cards with plain loops. And ``legal_moves`` is compared
with ``check`` both on random candidates and, on small boards, exhaustively.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from harness.games.streky.cards import Matrix, canonical, mirror, rotations
from harness.games.streky.placements import PASS, Pass, Place
from harness.games.streky.rules import RULES, State

SETTINGS: list[dict[str, Any]] = [
    {}, {"cards": "tournament", "rows": 14, "cols": 14}, {"cards": "random", "rows": 8, "cols": 9},
    {"cards": "random", "rows": 6, "cols": 6}, {"cards": "random"}, {"cards": "stress", "rows": 6, "cols": 6},
    {"cards": "stress"},
]


def rescore(rows: int, cols: int, placed: list[tuple[int, int, Matrix]]) -> list[int]:
    """Each card's points, recomputed from scratch: label the whole board after every card."""
    board: list[list[int | None]] = [[None] * cols for _ in range(rows)]
    when: list[list[int]] = [[-1] * cols for _ in range(rows)]
    points = []
    for k, (r0, c0, m) in enumerate(placed):
        for dr, line in enumerate(m):
            for dc, v in enumerate(line):
                board[r0 + dr][c0 + dc] = v
                when[r0 + dr][c0 + dc] = k
        label: dict[tuple[int, int], int] = {}
        regions: list[list[tuple[int, int]]] = []
        for r in range(rows):
            for c in range(cols):
                v = board[r][c]
                if v is None or v == 0 or (r, c) in label:
                    continue
                label[(r, c)] = len(regions)
                todo, cells = [(r, c)], []
                while todo:
                    y, x = todo.pop()
                    cells.append((y, x))
                    for yy, xx in ((y + 1, x), (y - 1, x), (y, x + 1), (y, x - 1)):
                        if 0 <= yy < rows and 0 <= xx < cols and (yy, xx) not in label and board[yy][xx] == v:
                            label[(yy, xx)] = len(regions)
                            todo.append((yy, xx))
                regions.append(cells)
        points.append(sum(len(cells) for cells in regions
                          if any(when[y][x] == k for y, x in cells) and any(when[y][x] < k for y, x in cells)))
    return points


def check_invariants(state: State) -> None:
    rows, cols = state.rows, state.cols
    owner = [[-1] * cols for _ in range(rows)]
    used: list[Counter[Matrix]] = [Counter(), Counter()]
    for k, p in enumerate(state.placed):
        h, w = len(p.matrix), len(p.matrix[0])
        assert 0 <= p.row and p.row + h <= rows and 0 <= p.col and p.col + w <= cols, "card off the board"
        cells = [(p.row + dr, p.col + dc) for dr in range(h) for dc in range(w)]
        assert all(owner[r][c] < 0 for r, c in cells), "cards overlap"
        if k > 0:
            ring = ([(p.row - 1, c) for c in range(p.col, p.col + w)] + [(p.row + h, c) for c in range(p.col, p.col + w)]
                    + [(r, p.col - 1) for r in range(p.row, p.row + h)] + [(r, p.col + w) for r in range(p.row, p.row + h)])
            assert any(0 <= r < rows and 0 <= c < cols and owner[r][c] >= 0 for r, c in ring), "card does not touch"
        for r, c in cells:
            owner[r][c] = k
        used[p.player][canonical(p.matrix)] += 1
    dealt = Counter(canonical(m) for m in state.deck.cards)
    for player in (0, 1):
        assert all(n <= dealt[m] for m, n in used[player].items()), "a card played more often than dealt"
    gains = rescore(rows, cols, [(p.row, p.col, p.matrix) for p in state.placed])
    assert gains == [p.gain for p in state.placed], "scores differ from a recomputation"
    totals = [sum(g for p, g in zip(state.placed, gains) if p.player == i) for i in (0, 1)]
    assert tuple(totals) == state.points


def playout(raw: dict[str, Any], seed: int) -> State:
    rules = RULES
    state = rules.initial(rules.parse_settings(raw), random.Random(seed))
    rng = random.Random(seed)
    bound = 4 * len(state.deck.cards) + 2  # each placement uses a card; at most one pass between
    plies = 0
    while not rules.is_over(state):
        moves = rules.legal_moves(state)
        move = moves[rng.randrange(len(moves))]
        assert rules.check(state, move) is None
        state = rules.apply(state, move)
        plies += 1
        assert plies <= bound
    return state


@pytest.mark.parametrize("block", range(10))
def test_random_playouts_keep_the_invariants(block: int) -> None:
    for seed in range(block * 250, block * 250 + 250):  # 2500 playouts in all
        state = playout(SETTINGS[seed % len(SETTINGS)], seed)
        check_invariants(state)
        assert RULES.check(state, PASS) is None  # nobody can place at the end


def candidates(state: State, rng: random.Random, n: int) -> list[Place]:
    """Random candidate moves: dealt cards in any rotation or mirrored, near or off the board."""
    mats = [m for card in state.deck.cards for m in rotations(card) + rotations(mirror(card))]
    return [Place(rng.randint(-2, state.rows), rng.randint(-2, state.cols), rng.choice(mats)) for _ in range(n)]


def test_check_accepts_exactly_the_listed_moves_on_random_candidates() -> None:
    rng = random.Random(7)
    for seed in range(150):
        state = RULES.initial(RULES.parse_settings(SETTINGS[seed % len(SETTINGS)]), random.Random(seed))
        while not RULES.is_over(state):
            legal = RULES.legal_moves(state)
            for move in candidates(state, rng, 20) + [legal[rng.randrange(len(legal))]]:
                assert (RULES.check(state, move) is None) == (move in legal), move
            state = RULES.apply(state, legal[rng.randrange(len(legal))])


def test_legal_moves_are_complete_on_small_boards() -> None:
    """Every on-board (row, col, rotation or mirror) candidate: accepted iff listed, no duplicates."""
    rng = random.Random(3)
    for seed in range(60):
        # the course-like deal, and the stress deal's thin and 1x1 cards
        raw = {"cards": ("random", "stress")[seed % 2], "rows": rng.randint(3, 7), "cols": rng.randint(3, 8)}
        state = RULES.initial(RULES.parse_settings(raw), random.Random(seed))
        mats = sorted({m for card in state.deck.cards for m in rotations(card) + rotations(mirror(card))})
        while not RULES.is_over(state):
            legal = RULES.legal_moves(state)
            listed = list(legal)
            assert len(set(listed)) == len(listed), "a move is listed twice"
            accepted = {Place(r, c, m) for m in mats for r in range(state.rows) for c in range(state.cols)
                        if RULES.check(state, Place(r, c, m)) is None}
            if accepted:
                assert set(listed) == accepted
            else:
                assert listed == [PASS]
            state = RULES.apply(state, listed[rng.randrange(len(listed))])


def test_placements_behave_as_a_sequence() -> None:
    state = RULES.initial(RULES.parse_settings({"cards": "tournament"}), random.Random(0))
    rng = random.Random(0)
    for _ in range(12):
        legal = RULES.legal_moves(state)
        listed = list(legal)
        assert len(listed) == len(legal)
        for i in [0, len(legal) - 1, *rng.sample(range(len(legal)), min(50, len(legal)))]:
            assert legal[i] == listed[i] and legal[i - len(legal)] == listed[i]
        assert legal[3:9] == listed[3:9]
        with pytest.raises(IndexError):
            legal[len(legal)]
        assert PASS not in legal and "x" not in legal
        state = RULES.apply(state, legal[rng.randrange(len(legal))])
    assert not isinstance(RULES.legal_moves(state), tuple) or RULES.legal_moves(state) == (PASS,)


def test_opening_of_the_tournament_game_lists_every_placement() -> None:
    state = RULES.initial(RULES.parse_settings({"cards": "tournament"}), random.Random(0))
    square = sum(1 for m in state.deck.cards if len(m) == 4)
    assert len(state.deck.cards) == 24 and 0 < square < 24
    # The 4x4 base card equals itself turned by 180 degrees: square cards x 2 rotations on 30x30
    # anchors; 3x5 cards x 2 rotations on 31x29 anchors and 2 on 29x31 anchors.
    assert len(RULES.legal_moves(state)) == square * 2 * 30 * 30 + (24 - square) * 2 * 31 * 29 * 2
    assert isinstance(RULES.legal_moves(state)[0], Place) and not isinstance(RULES.legal_moves(state)[0], Pass)
