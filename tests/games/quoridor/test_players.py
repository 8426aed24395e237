"""Reference players and the correct sample submissions, in-process, against the referee.

Their ``expand_player`` / ``expand_obstacles`` must equal the referee's on every battery
position and on every turn of real games (which also checks that they track the game through
``opponent_move`` and their own moves); their moves must be legal; the reference players are
ASCII, import only the standard library and ``obstacle``, and share one engine.
"""

from __future__ import annotations

import ast
import random
import re
from pathlib import Path

import pytest

from harness.games.base import BadAnswer, Call, PlayedMove
from harness.games.quoridor.adapter import ADAPTER
from harness.games.quoridor.battery import battery
from harness.games.quoridor import GAME
from harness.inprocess import LocalBot, load_class, play
from harness.games.quoridor.moves import wall_of_key
from harness.games.quoridor.rules import RULES
from harness.games.quoridor.sembasic import compare_steps, compare_walls
from tests.conftest import REPO

REFERENCE = REPO / "reference_players" / "quoridor"
SUBMISSIONS = REPO / "submissions" / "quoridor"
REFERENCE_BOTS = ["random_legal", "runner", "waller"]
CORRECT = [REFERENCE / f"{n}.py" for n in REFERENCE_BOTS] + [SUBMISSIONS / n / "player.py" for n in ("ok_naive", "ok_compact")]


def bot_class(path: Path) -> type:
    return load_class(GAME, path)


# (the sample submissions are graded on the battery through the sandbox in test_e2e.py)
@pytest.mark.parametrize("path", CORRECT[:3], ids=lambda p: p.stem)
def test_expands_equal_the_referee_on_the_battery(path: Path) -> None:
    bot = LocalBot(GAME, bot_class(path))
    for position in battery():
        for call in position.setup_calls("tester"):
            bot.call(call)
        assert compare_steps(position, bot.call(Call("expand_player"))) is None, position.index
        failure = compare_walls(position, bot.call(Call("expand_obstacles")))
        assert failure is None, failure.text()


GAME_SETTINGS = [
    {},
    {"sizex": 5, "sizey": 7, "max_obstacles": 4, "start_columns": "random", "initial_walls": {"random": 5}},
    {"sizex": 7, "sizey": 4, "max_obstacles": 3, "start_columns": [0, 6]},
    {"sizex": 3, "sizey": 3, "max_obstacles": 2, "start_columns": "random"},
    {"sizex": 11, "sizey": 11, "max_obstacles": 8, "initial_walls": {"random": 12}, "start_columns": "random"},
]


@pytest.mark.parametrize("opponent", REFERENCE_BOTS)
@pytest.mark.parametrize("path", CORRECT, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_expands_equal_the_referee_on_every_turn(path: Path, opponent: str) -> None:
    classes = [bot_class(path), bot_class(REFERENCE / f"{opponent}.py")]
    for n, settings in enumerate(GAME_SETTINGS):
        seed = 100 + n
        if n % 2:
            classes.reverse()
        state = RULES.initial(RULES.parse_settings(settings), random.Random(seed))
        random.seed(seed)
        bots = [LocalBot(GAME, c) for c in classes]
        for seat, bot in enumerate(bots):
            for call in ADAPTER.setup_calls(state, seat, f"p{seat}", False):
                bot.call(call)
        history: list[PlayedMove] = []
        while not RULES.is_over(state):
            seat = state.turn
            told, ask = ADAPTER.turn_calls(state, seat, history)
            bots[seat].call(told)
            steps = {tuple(c) for c in bots[seat].call(Call("expand_player"))}
            assert steps == {(s.x, s.y) for s in state.steps(seat)}, (n, state.ply)
            walls = {ADAPTER.decode(state, seat, (2, w)) for w in bots[seat].call(Call("expand_obstacles"))}
            expected = {wall_of_key(k) for k in state.wall_keys} if state.can_wall(seat) else set()
            assert walls == expected, (n, state.ply)
            move = ADAPTER.decode(state, seat, bots[seat].call(ask))
            assert not isinstance(move, BadAnswer) and RULES.check(state, move) is None, (n, state.ply, move)
            state = RULES.apply(state, move)
            history.append(PlayedMove(seat, move))


@pytest.mark.parametrize("path", CORRECT, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_plays_legal_games(path: Path) -> None:
    mine = bot_class(path)
    for seed in range(3):
        for other in REFERENCE_BOTS:
            theirs = bot_class(REFERENCE / f"{other}.py")
            for classes in ([mine, theirs], [theirs, mine]):
                game = play(GAME, classes, {"start_columns": "random", "initial_walls": {"random": seed}}, seed=seed)
                assert game.failed is None, game.reason


def test_waller_beats_runner() -> None:
    waller, runner = bot_class(REFERENCE / "waller.py"), bot_class(REFERENCE / "runner.py")
    wins = 0
    for seed in range(10):
        settings = {"start_columns": "random", "initial_walls": {"random": seed % 5}}
        wins += play(GAME, [waller, runner], settings, seed=seed).winner == 0
        wins += play(GAME, [runner, waller], settings, seed=seed).winner == 1
    assert wins >= 18


def test_reference_players_share_one_engine() -> None:
    def engine(path: Path) -> str:
        text = path.read_text()
        return text[text.index("    # ---- engine"):text.index("    # ---- end of engine ----")]

    engines = {n: engine(REFERENCE / f"{n}.py") for n in REFERENCE_BOTS}
    assert len(set(engines.values())) == 1, "the engine sections of the reference players differ"


@pytest.mark.parametrize("name", REFERENCE_BOTS)
def test_reference_players_are_student_style(name: str) -> None:
    source = (REFERENCE / f"{name}.py").read_bytes()
    assert all(b < 128 for b in source), "reference players are ASCII-only"
    tree = ast.parse(source)
    imported = {alias.name.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.Import)
                for alias in node.names}
    imported |= {node.module.split(".")[0] for node in ast.walk(tree)
                 if isinstance(node, ast.ImportFrom) and node.module}
    assert imported <= {"random", "collections", "obstacle"}
    assert re.search(r"^class Player\b", source.decode(), re.MULTILINE)
