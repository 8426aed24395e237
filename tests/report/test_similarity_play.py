"""``harness similarity``'s behaviour channel discounts what is given: real games in the sandbox.

Bots draw from ``random`` seeded per game, so two bots that both make a seeded random choice
(the Štreky template's, or seven lines anyone writes) play the same games without copying
anything; a from-scratch rewrite of another bot's strategy (a twin) still plays as it does and
is still flagged.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from tests.conftest import REPO
from tests.report.test_similarity import OWN, harness

RANDOM_A = '''import random


class Player:
    def __init__(self, name):
        self.name = name

    def move(self, board):
        free = [(r, c) for r in range(len(board)) for c in range(len(board[0])) if board[r][c] == '-']
        return random.choice(free)
'''
RANDOM_B = '''import random


class Player:
    def __init__(self, name):
        self.name = name

    def move(self, board):
        cells = []
        for i, row in enumerate(board):
            for j, v in enumerate(row):
                if v == '-':
                    cells.append((i, j))
        return random.choice(cells)
'''


def test_two_independent_random_bots_are_not_twins_and_a_rewrite_is(tmp_path: Path) -> None:
    subs = {"rand_a": RANDOM_A, "rand_b": RANDOM_B, "greedy": (OWN / "greedy.py").read_text(),
            "mimic": (OWN / "mimic.py").read_text(), "fewest": (OWN / "fewest.py").read_text()}
    for login, text in subs.items():
        (tmp_path / "subs" / login).mkdir(parents=True)
        (tmp_path / "subs" / login / "player.py").write_text(text)
    (tmp_path / "tournaments.yaml").write_text(
        "jobs:\n  rr:\n    game: blokovanie\n    format: round_robin\n    submissions: subs\n"
        "    settings: [{rows: 5, cols: 6}, {rows: 7, cols: 7}, {rows: 6, cols: 9}]\n    games: 2\n    seed: 4\n"
        "    workers: 2\n")
    done = harness("run", "rr", "--quiet", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    done = harness("similarity", "rr", "--format", "json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    pairs = {(p["a"], p["b"]): p for p in json.loads(done.stdout) if not p["reference"]}
    rand = pairs[("rand_a", "rand_b")]
    # Not vacuous: the two seeded random bots really played the same moves everywhere they met.
    assert rand["behaviour"] == 1.0 and rand["positions"] >= 20
    assert not rand["suspicious"] and "seeded random" in rand["explained"]
    twin = pairs[("greedy", "mimic")]
    assert twin["suspicious"] and twin["flagged_by"] == ["behaviour"] and twin["explained"] is None
    assert {k for k, p in pairs.items() if p["suspicious"]} == {("greedy", "mimic")}
    assert "rand_a: a trivial strategy (a few lines of its own, drawing from random)" in done.stderr
    table = harness("similarity", "rr", cwd=tmp_path).stdout
    assert "(given)" in table and "play alike only as given or trivial strategies do" in table


def test_streky_samples_on_the_template_are_not_twins_in_real_games(tmp_path: Path) -> None:
    """Broken Štreky samples that fall back on the template's seeded random choice play identical
    games (the issue's 33 "suspicious" pairs); that is given play, not copying."""
    shutil.copytree(REPO / "submissions/streky", tmp_path / "subs")
    (tmp_path / "tournaments.yaml").write_text(
        "jobs:\n  st:\n    game: streky\n    format: round_robin\n    submissions: subs\n"
        "    settings: [{cards: random}]\n    games: 2\n    seed: 3\n    workers: 2\n")
    done = harness("run", "st", "--quiet", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    done = harness("similarity", "st", "--format", "json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    rows = json.loads(done.stdout)
    alike = [p for p in rows if p["behaviour"] == 1.0 and p["positions"] >= 10]
    # the samples did play the same moves, in 20 or more positions for some (once flagged)
    assert len(alike) >= 4 and any(p["positions"] >= 20 for p in alike)
    assert all(p["explained"] == "both keep the template's seeded random move choice" for p in alike)
    assert not any(p["suspicious"] for p in rows)


def test_moves_a_shipped_player_makes_are_no_evidence_between_students(tmp_path: Path) -> None:
    """greedy and mimic play exactly as the shipped max_block does (most cells blocked, first on
    ties). With max_block in the job, where they move as it does is given play: the two are no
    twins of each other, each is a copy of max_block by its play."""
    subs = {n: (OWN / f"{n}.py").read_text() for n in ("greedy", "mimic", "fewest", "centre")}
    for login, text in subs.items():
        (tmp_path / "subs" / login).mkdir(parents=True)
        (tmp_path / "subs" / login / "player.py").write_text(text)
    (tmp_path / "tournaments.yaml").write_text(
        "jobs:\n  rr:\n    game: blokovanie\n    format: round_robin\n    submissions: subs\n"
        "    reference: [reference_players/blokovanie/max_block.py]\n"
        "    settings: [{rows: 5, cols: 6}, {rows: 7, cols: 7}, {rows: 6, cols: 9}]\n    games: 1\n    seed: 1\n"
        "    workers: 2\n")
    done = harness("run", "rr", "--quiet", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    done = harness("similarity", "rr", "--format", "json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    rows = {(p["a"], p["b"]): p for p in json.loads(done.stdout)}
    for login in ("greedy", "mimic"):
        shipped = rows[(login, "reference/max_block")]
        assert shipped["suspicious"] and shipped["flagged_by"] == ["behaviour"] and shipped["behaviour"] == 1.0
        assert shipped["positions"] >= 20 and f"{login}: copy of reference player `max_block`, 1.00" in done.stderr
    # Where max_block sat in the same seat against the same opponent, it moved as they did: those
    # positions are given play. What is left are the games against max_block itself (no one knows
    # what max_block would play in its opponent's seat): fewer than 20 positions, so no flag.
    twins = rows[("greedy", "mimic")]
    assert not twins["suspicious"] and twins["positions"] < 20
    assert twins["positions"] < rows[("greedy", "reference/max_block")]["positions"]
    assert {k for k, p in rows.items() if p["suspicious"]} == {("greedy", "reference/max_block"),
                                                               ("mimic", "reference/max_block")}
