"""The Blokovanie reference players, in-process: student-style files, legal games, each doing
what it claims; the strong player's exactness (against an independent brute-force oracle), the
soundness of its symmetry rule, its time budget and its win rates."""

from __future__ import annotations

import ast
import random
import sys
from collections import Counter
from functools import lru_cache
from pathlib import Path
from typing import Any

import pycodestyle  # a test extra (pyproject.toml): the seed's style rule is checked, never skipped
import pytest

from harness.submission import imported_names
from harness.games.blokovanie import GAME
from harness.games.blokovanie.rules import RULES, State, neighbourhoods
from harness.inprocess import LocalBot, load_class, play
from harness.games.base import Call
from harness.record import Verdict

REFERENCE = Path(__file__).resolve().parents[3] / "reference_players" / "blokovanie"
NAMES = ("first_free", "random", "max_block", "strong")


def player(name: str) -> type:
    return load_class(GAME, REFERENCE / f"{name}.py")


def module(name: str) -> Any:
    return sys.modules[player(name).__module__]


def ask(name: str, state: State, bot: LocalBot | None = None) -> Any:
    """The answer of a fresh (or the given) bot to ``move(board)`` on ``state``, through the wire."""
    bot = bot or LocalBot(GAME, player(name))
    if bot.instance is None:
        bot.call(Call("__init__", ("tester",), "init"))
    return GAME.adapter.decode(state, state.turn, bot.call(GAME.adapter.turn_calls(state, state.turn, [])[0]))


def random_position(rng: random.Random, rows: int, cols: int) -> State:
    """A position some random moves into a game on ``rows`` x ``cols`` (never over)."""
    state = RULES.initial(RULES.parse_settings({"rows": rows, "cols": cols}), rng)
    for _ in range(rng.randrange(rows * cols // 3 + 1)):
        moves = RULES.legal_moves(state)
        nxt = RULES.apply(state, rng.choice(list(moves)))
        if RULES.is_over(nxt):
            break
        state = nxt
    return state


# ---- student-style files --------------------------------------------------------------------
@pytest.mark.parametrize("name", NAMES)
def test_reference_players_keep_to_pep8_as_the_seed_demands_of_students(name: str) -> None:
    path = REFERENCE / f"{name}.py"
    assert max(len(line) for line in path.read_text().splitlines()) <= 79
    assert pycodestyle.Checker(str(path), quiet=True).check_all() == 0


@pytest.mark.parametrize("name", NAMES)
def test_reference_players_are_single_ascii_files_importing_only_the_standard_library(name: str) -> None:
    source = (REFERENCE / f"{name}.py").read_bytes()
    assert all(b < 128 for b in source)
    tree = ast.parse(source)
    imported = imported_names(source)
    assert imported <= set(sys.stdlib_module_names)
    classes = {n.name: n for n in tree.body if isinstance(n, ast.ClassDef)}
    methods = {f.name: f for f in classes["Player"].body if isinstance(f, ast.FunctionDef)}
    assert [a.arg for a in methods["__init__"].args.args] == ["self", "name"]
    assert [a.arg for a in methods["move"].args.args] == ["self", "board"]


# ---- legal games ----------------------------------------------------------------------------
SIZES = [{}, {"rows": 1, "cols": 1}, {"rows": 1, "cols": 8}, {"rows": 3, "cols": 7}, {"rows": 7, "cols": 3},
         {"rows": 6, "cols": 6}, {"rows": 4, "cols": 10}, {"rows": 12, "cols": 9}]


@pytest.mark.parametrize("a", NAMES)
@pytest.mark.parametrize("b", NAMES)
def test_reference_players_play_legal_games(a: str, b: str) -> None:
    games = 8 if "strong" in (a, b) else 24
    for seed in range(games):
        settings = SIZES[seed % len(SIZES)]
        if "strong" in (a, b) and settings.get("rows") == 12:
            settings = {"rows": 6, "cols": 7}  # big boards for strong: test_strong_keeps_its_time_budget
        result = play(GAME, [player(a), player(b)], settings, seed)
        assert result.verdicts == [Verdict.OK, Verdict.OK], result.reasons
        assert RULES.is_over(result.state) and result.winner in (0, 1)


# ---- each strategy does what it claims --------------------------------------------------------
def test_first_free_plays_the_first_free_cell_in_row_major_order() -> None:
    rng = random.Random(5)
    for rows, cols in [(5, 6), (1, 7), (7, 1), (4, 9)]:
        for _ in range(30):
            state = random_position(rng, rows, cols)
            assert ask("first_free", state) == RULES.legal_moves(state)[0]


def test_random_plays_every_free_cell_about_equally_often() -> None:
    state = State.from_lines(["-X---", "XXXX-", "-----"])  # 10 free cells
    bot = LocalBot(GAME, player("random"))
    random.seed(3)  # the module-level generator, as the harness seeds it
    counts = Counter(ask("random", state, bot) for _ in range(10000))
    assert set(counts) == set(RULES.legal_moves(state))
    assert all(880 <= n <= 1120 for n in counts.values()), counts  # 1000 +- 4 standard deviations


def test_random_is_reproducible_from_the_games_seed() -> None:
    first = [play(GAME, [player("random"), player("random")], {"rows": 6, "cols": 6}, seed).moves for seed in (1, 2)]
    again = [play(GAME, [player("random"), player("random")], {"rows": 6, "cols": 6}, seed).moves for seed in (1, 2)]
    assert first == again and first[0] != first[1]


def blocks(state: State, move: tuple[int, int]) -> int:
    """How many free cells a move blocks."""
    return bin(state.free & neighbourhoods(state.rows, state.cols)[move[0] * state.cols + move[1]]).count("1")


def test_max_block_blocks_the_most_free_cells_and_keeps_the_first_on_ties() -> None:
    rng = random.Random(6)
    for rows, cols in [(5, 6), (1, 7), (8, 2), (6, 9)]:
        for _ in range(30):
            state = random_position(rng, rows, cols)
            moves = list(RULES.legal_moves(state))
            best = max(blocks(state, m) for m in moves)
            assert ask("max_block", state) == next(m for m in moves if blocks(state, m) == best)
    empty = RULES.initial(RULES.parse_settings({}), rng)
    assert ask("max_block", empty) == (1, 1)  # the first of the twelve cells blocking nine
    assert ask("max_block", State.from_lines(["-----"])) == (0, 1)  # 3 blocked, tied with (0, 2), (0, 3)
    assert ask("max_block", State.from_lines(["--X--"])) == (0, 0)  # all four block 2


# ---- the strong player ------------------------------------------------------------------------
@lru_cache(maxsize=None)
def wins(rows: int, cols: int, free: int) -> bool:
    """Brute force: does the player to move on the free cells ``free`` win with perfect play?"""
    masks = neighbourhoods(rows, cols)
    m = free
    while m:
        low = m & -m
        m ^= low
        if not wins(rows, cols, free & ~masks[low.bit_length() - 1]):
            return True
    return False


def test_strong_wins_every_won_position_on_small_boards() -> None:
    rng = random.Random(7)
    bot = LocalBot(GAME, player("strong"))
    checked = won = 0
    for rows, cols in [(1, 9), (2, 7), (3, 3), (3, 6), (4, 4), (4, 5), (5, 4), (3, 7), (5, 5)]:
        for _ in range(25):
            state = random_position(rng, rows, cols)
            if wins(rows, cols, state.free):
                move = ask("strong", state, bot)
                assert RULES.check(state, move) is None
                assert not wins(rows, cols, RULES.apply(state, move).free), (state.lines(), move)
                won += 1
            checked += 1
    assert won > checked // 3


def test_strong_solves_the_empty_boards_as_the_brute_force_does() -> None:
    solver = module("strong").Solver()
    for rows in range(1, 5):
        for cols in range(1, 6):
            grid = solver.grid(rows, cols)
            assert (solver.position(grid, grid.full) != 0) == wins(rows, cols, grid.full), (rows, cols)


def test_the_symmetry_rule_only_claims_lost_positions() -> None:
    """Positions built from mirrored pairs of moves (point, axis and, on square boards, diagonal
    mirrors): whenever the rule says the player to move loses, the brute force agrees."""
    strong = player("strong")("tester")
    rng = random.Random(8)
    claimed = 0
    for rows, cols in [(3, 3), (3, 5), (4, 4), (5, 5), (4, 5), (2, 6), (5, 3)]:
        grid = strong.solver.grid(rows, cols)
        images = [lambda r, c: (rows - 1 - r, cols - 1 - c), lambda r, c: (rows - 1 - r, c),
                  lambda r, c: (r, cols - 1 - c)]
        if rows == cols:
            images += [lambda r, c: (c, r), lambda r, c: (cols - 1 - c, rows - 1 - r)]
        for _ in range(60):
            f = rng.choice(images)
            state = RULES.initial(RULES.parse_settings({"rows": rows, "cols": cols}), rng)
            for _ in range(rng.randrange(4)):
                free = RULES.legal_moves(state)
                if not free:
                    break
                move = rng.choice(list(free))
                state = RULES.apply(state, move)
                if RULES.check(state, f(*move)) is None:
                    state = RULES.apply(state, f(*move))
            if strong.symmetric_win(grid, state.free):
                claimed += 1
                assert not wins(rows, cols, state.free), state.lines()
    assert claimed > 20


def test_strong_opens_odd_boards_in_the_centre_and_keeps_a_symmetry_win() -> None:
    """On odd x odd boards the centre wins by mirroring; after every move of strong the position
    must still be one the symmetry rule (proven sound above) says the opponent loses."""
    for rows, cols in [(9, 9), (11, 15), (21, 3), (13, 31)]:
        result = play(GAME, [player("strong"), player("random")], {"rows": rows, "cols": cols}, seed=rows)
        assert result.moves[0] == (rows // 2, cols // 2) and result.winner == 0
        judge = player("strong")("judge")
        grid = judge.solver.grid(rows, cols)
        state = RULES.initial(RULES.parse_settings({"rows": rows, "cols": cols}), random.Random(0))
        for n, move in enumerate(result.moves):
            state = RULES.apply(state, move)
            if n % 2 == 0:
                assert judge.symmetric_win(grid, state.free), (rows, cols, n)


def test_strong_defends_a_lost_position_with_the_most_chances_for_the_opponent_to_err() -> None:
    # 4x5 is lost for the first player; after (1, 2) ten of the eleven replies lose (measured by
    # the brute force below); no first move leaves a larger share.
    state = RULES.initial(RULES.parse_settings({"rows": 4, "cols": 5}), random.Random(0))
    assert wins(4, 5, state.free) is False
    move = ask("strong", state)
    assert move == (1, 2)
    after = RULES.apply(state, move)
    replies = RULES.legal_moves(after)
    assert sum(wins(4, 5, RULES.apply(after, r).free) for r in replies) == 10 and len(replies) == 11


def test_strong_keeps_its_time_budget_on_big_boards() -> None:
    """Judged on the bot's own (CPU) time, as the harness judges it: on a loaded machine the wall
    clock also holds the time it waited for a CPU (0.62 s seen at load 16 for a 0.3 s budget)."""
    budget = module("strong").BUDGET
    for rows, cols, opponent, strong_seats in [(10, 12, "max_block", (0, 1)), (20, 20, "first_free", (0, 1)),
                                               (50, 50, "random", (0,))]:
        for seats in [(0, 1) if s == 0 else (1, 0) for s in strong_seats]:
            classes = [player("strong"), player(opponent)]
            result = play(GAME, [classes[s] for s in seats], {"rows": rows, "cols": cols}, seed=1)
            assert result.verdicts == [Verdict.OK, Verdict.OK]
            seat = seats.index(0)
            assert max(result.cpu[seat]) < budget + 0.15, (rows, cols, max(result.cpu[seat]))


def score(opponent: str, sizes: list[tuple[int, int]], seeds: int) -> tuple[int, int, list[str]]:
    """Games won by strong against ``opponent``, games played, and the lost (size, seat) pairs."""
    won = played = 0
    lost = []
    for rows, cols in sizes:
        for seat in (0, 1):
            for seed in range(seeds):
                classes = [player("strong"), player(opponent)]
                result = play(GAME, classes if seat == 0 else classes[::-1], {"rows": rows, "cols": cols}, seed)
                assert result.verdicts == [Verdict.OK, Verdict.OK]
                won += result.winner == seat
                played += 1
                if result.winner != seat:
                    lost.append(f"{rows}x{cols}/{seat}")
    return won, played, lost


def test_strong_beats_max_block_and_loses_only_lost_seats() -> None:
    # Up to 30 cells strong solves the board from its first move (5x6 in about 0.04 s, a seventh
    # of its budget), so there it must win every seat that wins against perfect play; larger
    # boards, where a busy machine could cut its search short, count in the rate only.
    exact = [(r, c) for r in range(1, 7) for c in range(r, 8) if r * c <= 30]
    won, played, lost = score("max_block", exact + [(5, 7), (6, 6), (6, 7), (7, 7), (8, 8), (9, 10)], 1)
    # Measured 47 / 60; the 13 losses are all on tiny boards whose seat is lost (1x1 second, ...).
    assert won / played >= 0.7, (won, played)
    for entry in lost:
        size, seat = entry.split("/")
        rows, cols = map(int, size.split("x"))
        if (rows, cols) in exact:
            assert wins(rows, cols, (1 << rows * cols) - 1) == (seat == "1"), entry


def test_strong_beats_random() -> None:
    won, played, _ = score("random", [(2, 7), (3, 8), (4, 5), (5, 5), (5, 6), (6, 6), (4, 9), (8, 8)], 6)
    assert won / played >= 0.85, (won, played)  # measured 94 / 96
