"""The reference players (the seed's four strategies), in-process: student-style, legal in many
seeded games, doing what the seed says, and compared with seats shuffled."""

from __future__ import annotations

import ast
import itertools
import sys
from typing import Any

import pytest

from harness.submission import imported_names
from harness.games.base import Call
from harness.games.clovece import GAME
from harness.games.clovece.adapter import ADAPTER
from harness.games.clovece.rules import COLORS, RULES, Move, State
from harness.inprocess import LocalBot, play, shuffled_wins
from tests.games.clovece.helpers import move, position, reference

NAMES = ("random", "safe", "mean", "eager")


@pytest.mark.parametrize("name", NAMES)
def test_reference_players_are_student_style_files(name: str) -> None:
    source = (GAME.reference_dir / f"{name}.py").read_bytes()
    assert all(b < 128 for b in source)
    tree = ast.parse(source)
    imported = imported_names(source)
    assert "clovece" in imported and imported - {"clovece"} <= set(sys.stdlib_module_names)
    classes = [n for n in tree.body if isinstance(n, ast.ClassDef)]
    assert [c.name for c in classes] == ["Player"]
    assert [b.id for b in classes[0].bases if isinstance(b, ast.Name)] == ["BasePlayer"]
    assert [f.name for f in classes[0].body if isinstance(f, ast.FunctionDef)] == ["get_move"]


def test_many_seeded_games_without_a_verdict() -> None:
    seatings = list(itertools.permutations(NAMES))[:16] + [(n,) * 4 for n in NAMES]
    for seed, names in enumerate(seatings):
        game = play(GAME, [reference(n) for n in names], seed=seed, logins=list(names))
        assert game.failed is None, (names, game.reason)
        assert RULES.is_over(game.state) and not game.state.capped
        assert sorted(game.places) == [1, 2, 3, 4] and game.winner == game.state.finished[0]


def test_seat_shuffled_comparison() -> None:
    types = [(n, reference(n)) for n in NAMES]
    wins = shuffled_wins(GAME, types, 16, seed=1)
    assert set(wins) == set(NAMES) and sum(wins.values()) == 16
    assert shuffled_wins(GAME, types, 4, seed=1) == shuffled_wins(GAME, types, 4, seed=1)  # seeded
    same = shuffled_wins(GAME, [("random", reference("random"))] * 2 + types[1:3], 4, seed=2)
    assert sum(same.values()) == 4 and set(same) == {"random", "safe", "mean"}


# ---- each strategy does what the seed says ------------------------------------------------
def answer(name: str, state: State) -> Move:
    bot = LocalBot(GAME, reference(name))
    bot.call(Call("__init__", (COLORS[state.turn],), "init"))
    got: Any = None
    for call in ADAPTER.turn_calls(state, state.turn, []):
        got = bot.call(call)
    decoded = ADAPTER.decode(state, state.turn, got)
    assert isinstance(decoded, Move) and RULES.check(state, decoded) is None
    return decoded


# black: piece 0 on its start, piece 1 at 20, piece 2 at 30 (track 30); red at its 5 (track 35)
CHOICE = dict(black=[0, 20, 30, None], red=[5, None, None, None], yellow=[3, None, None, None])


def test_safe_moves_the_piece_closest_to_home() -> None:
    assert answer("safe", position("black", [5], **CHOICE)) == move("black", 2, 35)  # a capture too
    assert answer("safe", position("black", [1], black=[39, 41, 3, None])) == move("black", 0, 40)
    assert answer("safe", position("black", [6], black=[5, None, None, None])) == move("black", 1, 0)  # forced


def test_mean_captures_when_it_can() -> None:
    for seed in range(10):
        assert answer("mean", position("black", [5], dice_seed=seed, **CHOICE)) == move("black", 2, 35)


def test_eager_clears_its_start_then_captures_then_brings_pieces_out() -> None:
    assert answer("eager", position("black", [5], **CHOICE)) == move("black", 0, 5)
    no_start = dict(black=[1, 20, 30, None], red=[5, None, None, None], yellow=[3, None, None, None])
    assert answer("eager", position("black", [5], **no_start)) == move("black", 2, 35)
    # a 6 with black on its start cell: the start piece moves (then the next 6 brings one out)
    assert answer("eager", position("black", [6], black=[0, 20, None, None])) == move("black", 0, 6)
    # the start held by an opponent: bring a piece out capturing it
    assert answer("eager", position("black", [6], black=[7, 20, None, None], green=[20, None, None, None])) == \
        move("black", 2, 0)
