"""The adaptive schedule: the planner on given results (pure), and real jobs of PriemSpel bots.

The real bots are of graded strength: the seed's strategy, playing a random legal step with
probability ``p`` (drawn from a generator seeded by the position, so a game replays exactly).
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from harness.config import Awards, Job, Tier, load_config
from harness.record import GameRecord, PlayerRecord
from harness.sandbox.limits import Limits
from harness.submission import Submission
from harness.tournament.adaptive import Planner, budget_of, round_robin_games
from harness.tournament.formats import job_results
from harness.tournament.formats import make_tasks
from harness.tournament.schedule import Entrant, Roll, load_entrants
from harness.tournament.store import ResultsStore
from tests.conftest import REPO

GRADED = '''

import random as _random

P = {p!r}
_Strong = Player


class Player(_Strong):
    """The seed's strategy, but a random legal step with probability P (seeded by the position)."""

    def zet(self, spel):
        rng = _random.Random(f"{{spel.positie}}/{{spel.N}}/{{P}}")
        if rng.random() < P:
            steps = self.stappen(spel.positie, spel.N)
            return rng.choice(steps) if steps else 1
        return super().zet(spel)
'''


def graded_bot(p: float) -> bytes:
    """A PriemSpel bot that plays like the seed's strategy except at random with probability ``p``."""
    return (REPO / "reference_players/priemspel/strategie.py").read_bytes() + GRADED.format(p=p).encode()


def make_job(tmp_path: Path, bots: int = 6, budget: str = "50%", fmt: str = "adaptive") -> Path:
    """``bots`` graded PriemSpel bots (s00 strongest) in an adaptive job with ranks 1 and 2 awarded."""
    subs = tmp_path / "submissions"
    for i in range(bots):
        (subs / f"s{i:02d}").mkdir(parents=True)
        (subs / f"s{i:02d}" / "player.py").write_bytes(graded_bot(round(i / max(bots - 1, 1), 3)))
    config = tmp_path / "tournaments.yaml"
    extra = f"\n    budget: {budget}" if fmt == "adaptive" else ""
    config.write_text(f"""
jobs:
  ad:
    game: priemspel
    format: {fmt}
    submissions: submissions
    settings: [{{N: 5}}, {{N: 7}}]
    games: 2
    workers: 2{extra}
    awards: {{policy: tiers, tiers: [{{rank: 1, points: 3}}, {{rank: 2, points: 1}}]}}
""")
    return config


def harness(config: Path, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "harness", *args, "--config", str(config)],
                            cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)


def run(config: Path) -> subprocess.Popen[str]:
    return harness(config, "run", "ad", "--quiet", "--no-self-check")


def stored(results: Path) -> dict[str, tuple[list[str], int | None]]:
    with ResultsStore(results, lock=False) as store:
        return {k: ([p.login for p in r.players], r.winner) for k, r in store.records()}


# ---- the planner on simulated results (pure) ---------------------------------------------------

def sim_job(n: int, budget: int | float | None, tiers: tuple[Tier, ...], seed: int = 1,
            game: str = "priemspel") -> tuple[Job, Roll]:
    entrants = [Entrant(f"b{i:02d}", f"/sim/b{i:02d}", Submission({"player.py": f"# {i}\n".encode()}))
                for i in range(n)]
    settings = {"cards": "course"} if game == "streky" else {"start": 0, "N": 5}
    job = Job(name="sim", game=game, format="adaptive", submissions=(), reference=(), opponent=None,
              settings=(settings,), games=3, seed=seed, tournament=True, limits=Limits(), workers=1,
              awards=Awards("tiers", tiers=tiers), results=Path("/nonexistent"), budget=budget)
    return job, Roll(entrants, None)


def play(tasks: list, at: dict[str, int], strength: list[float], rng: random.Random,
         store: dict[str, GameRecord]) -> None:
    """Decide each game by Bradley-Terry on ``strength`` (Elo) and store it."""
    for task in tasks:
        a, b = (at[e.login] for e in task.entrants)
        win = 0 if rng.random() < 1 / (1 + 10 ** ((strength[b] - strength[a]) / 400)) else 1
        store[task.key] = GameRecord(game="priemspel", settings=task.settings, seed=task.seed,
                                     players=[PlayerRecord(e.login, e.sha256) for e in task.entrants],
                                     winner=win, scores=(1.0 - win, float(win)), places=(1 + win, 2 - win))


def simulate(job: Job, roll: Roll, strength: list[float], seed: int = 7) -> tuple[list, dict[str, GameRecord]]:
    """Walk the planner to its end, deciding each game by Bradley-Terry on ``strength`` (Elo)."""
    at = {e.login: i for i, e in enumerate(roll.entrants)}
    rng = random.Random(seed)
    store: dict[str, GameRecord] = {}
    steps = []
    for progress in Planner(job, roll).walk(lambda keys: {k: store[k] for k in keys if k in store}):
        steps.append((progress.waves, progress.games, [t.key for t in progress.pending], progress.stopped))
        play(progress.pending, at, strength, rng, store)
    return steps, store


def test_the_walk_is_a_function_of_the_seed_and_the_results() -> None:
    tiers = (Tier(2.0, top=0.25), Tier(1.0, top=0.5))
    strength = [1500 + 60 * (12 - i) for i in range(12)]
    job, roll = sim_job(12, None, tiers)
    first = simulate(job, roll, strength)
    assert simulate(job, roll, strength) == first, "same seed, same results: same waves"
    other, _ = simulate(sim_job(12, None, tiers, seed=2)[0], roll, strength)
    assert other[0][2] != first[0][2], "another seed opens with other pairs"


def test_it_stops_once_every_tier_is_settled() -> None:
    # Far apart in two clear groups: the tiers settle long before the round robin is played.
    strength = [2600 if i < 3 else 1000 for i in range(12)]
    job, roll = sim_job(12, None, (Tier(1.0, top=0.25),))
    steps, store = simulate(job, roll, strength)
    assert steps[-1][3] == "settled"
    assert len(store) < round_robin_games(job, roll) / 2


def test_the_games_go_to_the_students_near_a_boundary() -> None:
    # 40 bots 40 Elo apart, the top quarter awarded: the boundary falls between b09 and b10.
    strength = [1500 + 40 * (20 - i) for i in range(40)]
    job, roll = sim_job(40, 600, (Tier(1.0, top=0.25),))
    steps, store = simulate(job, roll, strength)
    assert steps[-1][3] == "budget"
    games = {e.login: 0 for e in roll.entrants}
    for record in store.values():
        for p in record.players:
            games[p.login] += 1
    near = [games[f"b{i:02d}"] for i in range(7, 13)]  # within 120 Elo of the boundary
    far = [games[f"b{i:02d}"] for i in range(28, 40)]  # 720 Elo and more below it
    assert sum(near) / len(near) > 3 * sum(far) / len(far), (near, far)
    assert max(far) <= 20, "a clear student stops after a few meetings"


def test_only_unsettled_students_are_given_games() -> None:
    # Once a student is settled it gets no meeting of its own: every game after the opening has
    # a player still within noise of a boundary (the other may be a settled opponent).
    strength = [1500 + 45 * (15 - i) for i in range(30)]
    job, roll = sim_job(30, 900, (Tier(2.0, top=0.2), Tier(1.0, top=0.5)))
    at = {e.login: i for i, e in enumerate(roll.entrants)}
    rng = random.Random(3)
    store: dict[str, GameRecord] = {}
    checked = 0
    for progress in Planner(job, roll).walk(lambda keys: {k: store[k] for k in keys if k in store}):
        if progress.waves >= 1 and progress.pending:
            for task in progress.pending:
                assert any(e.login in progress.unsettled for e in task.entrants), task.key
                checked += 1
        play(progress.pending, at, strength, rng, store)
    assert checked > 100, "the planner went past the opening"
    assert len(progress.unsettled) < 30, "some students settled"
    assert progress.stopped in ("budget", "settled")


def test_it_stops_when_the_budget_is_spent() -> None:
    strength = [1500.0] * 12  # equal bots: no tier ever settles
    job, roll = sim_job(12, 100, (Tier(1.0, top=0.25),))
    steps, store = simulate(job, roll, strength)
    assert steps[-1][3] == "budget"
    assert 90 <= len(store) <= budget_of(job, roll) == 100


@pytest.mark.parametrize("game", ["priemspel", "streky"])  # Streky's keys carry a setup version
def test_a_pair_never_meets_more_often_than_in_the_round_robin(game: str) -> None:
    strength = [1500.0] * 6
    job, roll = sim_job(6, None, (Tier(1.0, rank=1),), game=game)
    steps, store = simulate(job, roll, strength)
    assert steps[-1][3] in ("exhausted", "settled")
    rr = make_tasks(Job(**{**job.__dict__, "format": "round_robin"}), roll)
    assert set(store) <= {t.key for t in rr}, "every adaptive game is one of the round robin's"


# ---- real jobs ------------------------------------------------------------------------------------

def test_a_small_adaptive_job_end_to_end(tmp_path: Path) -> None:
    config = make_job(tmp_path)
    done = run(config)
    _, err = done.communicate(timeout=600)
    assert done.returncode == 0, err
    job = load_config(config).jobs["ad"]
    full = round_robin_games(job, load_entrants(job))
    assert full == 120
    games = stored(tmp_path / "results" / "ad")
    assert 0 < len(games) <= 60, "within the budget of 50 % of the round robin"
    results = job_results(job)
    assert results.complete and results.stopped in ("settled", "budget", "exhausted")
    ranked = [r for r in results.rows if r.rank is not None]
    assert [r.rank for r in ranked] == sorted(r.rank for r in ranked)
    assert all(r.rating is not None for r in ranked)
    assert ranked[0].login in ("s00", "s01"), "a strong bot wins"
    status = harness(config, "status", "ad")
    out, err = status.communicate(timeout=120)
    assert status.returncode == 0, err
    assert f"the full round robin has {full}" in out
    board = harness(config, "leaderboard", "ad")
    out, err = board.communicate(timeout=120)
    assert board.returncode == 0, err
    assert "tier" in out and ("settled" in out or "near boundary" in out)
    # A second run plays nothing: the waves replay from the store.
    again = run(config)
    _, err = again.communicate(timeout=600)
    assert again.returncode == 0, err
    assert f"{len(games)} reused, 0 played" in err, err
    assert stored(tmp_path / "results" / "ad") == games


def test_adaptive_runs_are_deterministic_and_resume_after_kill_9(tmp_path: Path) -> None:
    a, b = tmp_path / "a", tmp_path / "b"
    config_a, config_b = make_job(a, budget="60%"), make_job(b, budget="60%")
    full = run(config_a)
    _, err = full.communicate(timeout=600)
    assert full.returncode == 0, err
    reference = stored(a / "results" / "ad")

    killed = run(config_b)
    db = b / "results" / "ad" / "results.sqlite"
    deadline = time.time() + 300
    while time.time() < deadline:
        try:
            with ResultsStore(b / "results" / "ad", lock=False) as store:
                if store.count() >= len(reference) // 2:
                    break
        except Exception:  # noqa: BLE001 - the store may not exist yet
            pass
        time.sleep(0.05)
    os.killpg(killed.pid, signal.SIGKILL)
    killed.wait()
    partial = len(stored(b / "results" / "ad"))
    assert db.exists() and 0 < partial < len(reference), "the run was not interrupted in the middle"

    resumed = run(config_b)
    _, err = resumed.communicate(timeout=600)
    assert resumed.returncode == 0, err
    assert stored(b / "results" / "ad") == reference, "same seed, deterministic bots: the same games"
    assert f"{len(reference)} games, {partial} reused, {len(reference) - partial} played" in err, err
    with ResultsStore(b / "results" / "ad", lock=False) as store:
        plans = store.connection.execute("SELECT COUNT(*) FROM waves").fetchone()[0]
    assert plans > 0, "the resumed run recorded its waves' plans for the readers"


def test_config_refuses_a_bad_budget_and_a_multiplayer_game(tmp_path: Path) -> None:
    config = make_job(tmp_path, bots=2, budget="150%")
    problems = load_config(config).problems
    assert "jobs.ad.budget" in problems["ad"] and str(config) in problems["ad"]
    text = config.read_text().replace("budget: 150%", "budget: 40%\n    confidence: 2")
    config.write_text(text)
    assert "jobs.ad.confidence" in load_config(config).problems["ad"]
    text = config.read_text().replace("format: adaptive", "format: round_robin")
    config.write_text(text)
    assert "only an adaptive job" in load_config(config).problems["ad"]


@pytest.mark.parametrize("budget", ["35%", 0.35, 40])
def test_config_reads_a_budget(tmp_path: Path, budget: object) -> None:
    config = make_job(tmp_path, bots=2, budget=str(budget))
    job = load_config(config).jobs["ad"]
    assert job.format == "adaptive" and job.confidence == 0.95
    assert job.budget == (40 if budget == 40 else 0.35)


# ---- the store's light records (standings and exports of a large store) -------------------------

def test_light_records_keep_what_standings_and_exports_read(tmp_path: Path) -> None:
    from harness.record import MoveRecord, Verdict

    players = [PlayerRecord("ann", "a" * 64, Verdict.EXCEPTION, "ValueError", stdout="ann's output",
                            traceback="Traceback ..."),
               PlayerRecord("ben", "b" * 64, bot_name="Ben", stdout="ben's output")]
    record = GameRecord(game="priemspel", settings={"start": 0, "N": 5}, seed=1, players=players, winner=1,
                        scores=(0.0, 1.0), places=(2, 1), plies=3, end="verdict", transcript=["1", "2"],
                        moves=[MoveRecord(0, 2, 0.01, 0.01), MoveRecord(1, 3, 0.01, 0.01)])
    with ResultsStore(tmp_path) as store:
        store.put("k", "job", record)
        (key, full), = store.records()
        (_, light), = store.records(light=True)
    assert key == "k" and full == record
    assert light.moves == [] and light.transcript == []
    assert (light.winner, light.scores, light.places, light.settings) == (1, (0.0, 1.0), (2, 1), record.settings)
    ann, ben = light.players
    assert (ann.verdict, ann.reason, ann.stdout, ann.traceback) == (Verdict.EXCEPTION, "ValueError", "ann's output",
                                                                    "Traceback ...")
    assert ben.bot_name == "Ben" and ben.stdout == "", "only a charged player's output is kept"
