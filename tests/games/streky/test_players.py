"""The Štreky reference players, in-process: legal, student-style, and doing what they claim."""

from __future__ import annotations

import random
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from harness.submission import imported_names
from harness.games.streky.cards import as_matrix
from harness.games.streky import GAME
from harness.inprocess import load_class, play
from harness.games.streky.placements import Place
from harness.games.streky.rules import RULES, State, new_game
from harness.record import Verdict

REFERENCE = Path(__file__).resolve().parents[3] / "reference_players" / "streky"
NAMES = ("random", "brute", "strong")
SEP = "# " + "-" * 87 + "\n"


def player(name: str) -> type:
    return load_class(GAME, REFERENCE / f"{name}.py")


def module(name: str) -> Any:
    return sys.modules[player(name).__module__]


def core(name: str) -> str:
    text = (REFERENCE / f"{name}.py").read_text()
    start = text.index(SEP + "# The board core")
    return text[start:text.index(SEP, text.index("class StrekyCore"))]


def test_the_board_core_is_the_same_in_every_reference_player() -> None:
    assert core("random") == core("brute") == core("strong")


@pytest.mark.parametrize("name", NAMES)
def test_reference_players_are_single_ascii_files_importing_only_stdlib_and_base(name: str) -> None:
    source = (REFERENCE / f"{name}.py").read_bytes()
    assert all(b < 128 for b in source)
    imported = imported_names(source)
    assert "base" in imported
    assert imported - {"base"} <= set(sys.stdlib_module_names)


PAIRS = [("random", "random", 40), ("brute", "random", 20), ("random", "brute", 20), ("strong", "brute", 6),
         ("brute", "strong", 6), ("strong", "strong", 3)]
SETTINGS: list[dict[str, Any]] = [{}, {"cards": "random"}, {"cards": "tournament"},
                                  {"cards": "random", "rows": 7, "cols": 6}]


@pytest.mark.parametrize(("a", "b", "games"), PAIRS)
def test_reference_players_play_legal_games(a: str, b: str, games: int) -> None:
    for seed in range(games):
        result = play(GAME, [player(a), player(b)], SETTINGS[seed % len(SETTINGS)], seed)
        assert result.verdicts == [Verdict.OK, Verdict.OK], result.reasons
        assert RULES.is_over(result.state)


def test_brute_picks_every_legal_placement_equally_often() -> None:
    state = new_game(2, 3, [as_matrix([[1, 2]])])  # 8 horizontal + 6 vertical placements
    cls = player("random")
    counts: Counter[tuple[int, int, tuple[tuple[int, ...], ...]]] = Counter()
    for seed in range(2800):
        random.seed(seed)
        bot = cls("x", 2, 3, [[[1, 2]]])
        row, col, matrix = bot.play([])
        counts[(row, col, as_matrix(matrix))] += 1
    legal = {(m.row, m.col, m.matrix) for m in RULES.legal_moves(state) if isinstance(m, Place)}
    assert set(counts) == legal and len(legal) == 14
    assert all(140 <= n <= 260 for n in counts.values()), counts  # 200 expected, sigma about 14


def gains(state: State) -> list[tuple[int, int]]:
    """(points, card area) of every legal placement, by the referee."""
    out = []
    for move in RULES.legal_moves(state):
        if isinstance(move, Place):
            out.append((RULES.apply(state, move).placed[-1].gain, move.height * move.width))
    return out


@pytest.mark.parametrize("settings", [{}, {"cards": "random", "rows": 9, "cols": 10}])
def test_brute_plays_the_best_immediate_score_and_then_the_larger_card(settings: dict[str, Any]) -> None:
    for seed in range(6):
        result = play(GAME, [player("brute"), player("random")], settings, seed)
        state = RULES.initial(RULES.parse_settings(settings), random.Random(seed))
        for move in result.moves:
            if RULES.to_move(state) == 0 and isinstance(move, Place) and state.placed:
                options = gains(state)
                best = max(g for g, _ in options)
                after = RULES.apply(state, move)
                assert after.placed[-1].gain == best
                assert move.height * move.width == max(a for g, a in options if g == best)
            state = RULES.apply(state, move)


# The course's Brute, on positions worked out by hand: (board, dealt cards, the opponent's card,
# every placement of highest score and, among those, of the largest card).
BRUTE_TABLE = [
    # Extending the row of three 1s: [[1,1,1]] under it scores 6 (3 old + 3 new); [[1]] scores 4;
    # [[2,2]] scores 0. One best placement.
    ((3, 3), [[[1, 1, 1]], [[1]], [[2, 2]]], [0, 0, [[1, 1, 1]]],
     {(1, 0, ((1, 1, 1),))}),
    # Next to a single 1: [[1]] and [[1,0]] both score 2 (1 old + 1 new); the larger card wins,
    # in each of the four places/rotations where its coloured cell touches the old 1.
    ((3, 4), [[[1, 0]], [[1]]], [0, 0, [[1]]],
     {(0, 1, ((1, 0),)), (1, 0, ((1, 0),)), (0, 1, ((1,), (0,))), (1, 0, ((1,), (0,)))}),
    # Nothing scores (colour 2 against 1): every placement of the largest card, 2x2 in any of its
    # rotations, touching the 1x1 card at (0, 0): (0, 1) and (1, 0), four rotations each.
    ((3, 3), [[[2, 2], [2, 0]], [[2]]], [0, 0, [[1]]],
     {(r, c, m) for r, c in ((0, 1), (1, 0))
      for m in (((2, 2), (2, 0)), ((2, 0), (2, 2)), ((0, 2), (2, 2)), ((2, 2), (0, 2)))}),
]


@pytest.mark.parametrize(("board", "cards", "theirs", "best"), BRUTE_TABLE)
def test_brute_plays_as_the_course_s_brute_on_hand_worked_positions(board: tuple[int, int], cards: list[Any],
                                                                     theirs: list[Any], best: set[Any]) -> None:
    played = Counter()
    for seed in range(80):
        random.seed(seed)  # the harness seeds the bot's random from the game's seed
        bot = player("brute")("x", *board, cards)
        row, col, matrix = bot.play(theirs)
        played[(row, col, as_matrix(matrix))] += 1
    assert set(played) == best  # only best placements, and (random ties) each of them


def test_strong_computes_the_opponents_best_reply_exactly() -> None:
    strong = module("strong")
    rng = random.Random(5)
    checked = 0
    for seed, settings in enumerate([{}, {"cards": "tournament"}, {"cards": "random"}] * 2):
        result = play(GAME, [player("brute"), player("brute")], settings, seed)
        state = RULES.initial(RULES.parse_settings(settings), random.Random(seed))
        board = strong.Board(state.rows, state.cols)
        hand = strong.Hand([[list(r) for r in m] for m in state.deck.cards])
        for move in result.moves:
            if isinstance(move, Place):
                board.place(move.row, move.col, move.matrix)
            if not board.placed or rng.random() < 0.75:
                continue
            shapes = hand.by_shape()
            replies = strong.Replies(board, shapes)
            mine = strong.all_moves(board, shapes)
            for _score, row, col, o in rng.sample(mine, min(12, len(mine))):
                trial = board.copy()
                trial.place(row, col, o.matrix)
                exact = strong.best_gain(trial, shapes)
                assert replies.after(row, col, o, strong.merged_roots(board, row, col, o)) == exact
                assert replies.floor(row, col, o) <= exact
                checked += 1
    assert checked > 250


def test_strong_beats_brute_on_the_course_setting() -> None:
    wins = 0
    for game in range(24):
        seat = game % 2
        players = [player("strong"), player("brute")] if seat == 0 else [player("brute"), player("strong")]
        result = play(GAME, players, {}, game // 2)
        wins += result.winner == seat
    assert wins >= 15  # measured: about 74 % (bench/bench_streky_strength.py)


def test_players_record_the_opponents_cards() -> None:
    bot = player("brute")("x", 5, 5, [[[1, 1]], [[2]]])
    bot.play([0, 0, [[1], [1]]])
    assert bot.theirs.left == [0, 1] and bot.mine.left[0] + bot.mine.left[1] == 1
    assert len(bot.cardsOnDesk) == 2
