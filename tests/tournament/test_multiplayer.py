"""Jobs of more than two players: pairings, seat rotations, the seeds' strategy comparisons."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from itertools import combinations
from pathlib import Path

from harness.config import load_config
from harness.submission import Submission
from harness.tournament.formats import make_tasks
from harness.tournament.schedule import Entrant, Roll
from tests.conftest import REPO

CLOVECE = REPO / "reference_players/clovece"


def job(tmp_path: Path, body: str):  # type: ignore[no-untyped-def]
    refs = ", ".join(str(CLOVECE / f"{n}.py") for n in ("random", "safe", "mean", "eager"))
    (tmp_path / "tournaments.yaml").write_text(f"jobs:\n  j:\n    game: clovece\n    reference: [{refs}]\n{body}")
    return load_config(tmp_path / "tournaments.yaml").resolve("j")[0]


def entrants(n: int) -> list[Entrant]:
    return [Entrant(f"b{i}", "", Submission.of(f"# {i}".encode())) for i in range(n)]


def test_a_round_robin_of_four_seats_plays_every_table_in_every_rotation(tmp_path: Path) -> None:
    j = job(tmp_path, "    format: round_robin\n    games: 2\n")
    bots = entrants(5)
    tasks = make_tasks(j, Roll(bots, None))
    assert len(tasks) == 2 * 5 * 4  # 2 seeds x C(5, 4) tables x 4 rotations
    assert len({t.key for t in tasks}) == len(tasks)
    for seed in {t.seed for t in tasks}:
        games = [tuple(e.login for e in t.entrants) for t in tasks if t.seed == seed]
        assert {frozenset(g) for g in games} == {frozenset(c) for c in combinations([b.login for b in bots], 4)}
        seats = Counter((login, seat) for g in games for seat, login in enumerate(g))
        assert set(seats.values()) == {4}, "every bot takes every seat equally often"


def test_tables_sample_the_combinations_with_the_seed(tmp_path: Path) -> None:
    j = job(tmp_path, "    format: round_robin\n    games: 2\n    tables: 3\n")
    tasks = make_tasks(j, Roll(entrants(7), None))
    assert len(tasks) == 2 * 3 * 4  # C(7, 4) = 35 tables; 3 sampled per seed, each in 4 rotations
    assert make_tasks(j, Roll(entrants(7), None)) == tasks  # the sample is the seed's


def test_shuffled_games_seat_a_seeded_random_draw(tmp_path: Path) -> None:
    j = job(tmp_path, "    format: shuffled\n    games: 40\n")
    tasks = make_tasks(j, Roll(entrants(6), None))
    assert len(tasks) == 40 and all(len({e.login for e in t.entrants}) == 4 for t in tasks)
    orders = {tuple(e.login for e in t.entrants) for t in tasks}
    assert len(orders) > 30  # seats shuffled before each game
    firsts = Counter(t.entrants[0].login for t in tasks)
    assert set(firsts) == {f"b{i}" for i in range(6)}


def test_the_seed_s_find_best_strategy_as_a_job(tmp_path: Path) -> None:
    config = tmp_path / "tournaments.yaml"
    text = (REPO / "tournaments.yaml").read_text().replace("reference_players/", f"{REPO}/reference_players/")
    text = text.replace("    games: 200\n", "    games: 12\n")  # clovece-strategies, shortened
    config.write_text(text.replace("submissions/", f"{REPO}/submissions/"))
    run = subprocess.run([sys.executable, "-m", "harness", "run", "clovece-strategies", "--config", str(config),
                          "--no-self-check"], cwd=tmp_path, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr
    assert "Wins per strategy over 12 games (seats shuffled before each game; 95 % intervals), sum 12:" in run.stdout
    board = json.loads(subprocess.run([sys.executable, "-m", "harness", "leaderboard", "clovece-strategies",
                                       "--config", str(config), "--format", "json"], cwd=tmp_path,
                                      capture_output=True, text=True, timeout=120).stdout)
    wins = board["analysis"]["rows"]
    assert sum(r["wins"] for r in wins) == 12 and all(r["low"] <= (r["share"] or 0) <= r["high"] for r in wins)
    assert sorted(r["label"] for r in wins) == ["eager", "mean", "random", "safe"]
    index = (tmp_path / "results" / "clovece-strategies" / "site" / "index.html").read_text()
    assert 'id="analysis"' in index and "data:image/svg+xml;base64," in index
    rows = {r["login"]: r for r in board["rows"]}
    assert sum(r["wins"] for r in rows.values()) == 12 and all(r["games"] == 12 for r in rows.values())
