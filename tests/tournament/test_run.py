"""Running jobs for real: subprocess bots, SQLite store, resume after kill -9, reuse, lock, Dask."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from harness.config import load_config
from harness.tournament.execute import Executor, LocalExecutor, run_job
from harness.tournament.schedule import Task
from harness.tournament.store import ResultsStore, StoreError
from tests.conftest import REPO

SLOW = b'''import time


class Player:
    """The seed's basic strategy, 30 ms per move: games last long enough to be interrupted."""

    def __init__(self, name):
        self.name = name

    def zet(self, spel):
        time.sleep(0.03)
        for stap in range(1, spel.N + 1):
            n = spel.positie + stap
            if n > 1 and all(n % i for i in range(2, int(n ** 0.5) + 1)):
                return stap
        return 1
'''


def make_job(tmp_path: Path, games: int = 2, settings: str = "[{N: 5}, {N: 7}]") -> Path:
    """A round robin of four submissions and one reference player in ``tmp_path``."""
    subs = tmp_path / "submissions"
    for login, source in [("ann", SLOW), ("ben", (REPO / "reference_players/priemspel/strategie.py").read_bytes()),
                          ("cat", (REPO / "reference_players/priemspel/basis.py").read_bytes()),
                          ("dan", (REPO / "tests/bots/priemspel/wrong_type.py").read_bytes())]:
        (subs / login).mkdir(parents=True)
        (subs / login / "player.py").write_bytes(source)
    config = tmp_path / "tournaments.yaml"
    config.write_text(f"""
jobs:
  rr:
    game: priemspel
    format: round_robin
    submissions: submissions
    reference: [{REPO}/reference_players/priemspel/basis.py]
    settings: {settings}
    games: {games}
    workers: 2
    awards: {{policy: tiers, tiers: [{{rank: 1, points: 3}}, {{rank: 2, points: 1}}]}}
""")
    return config


def stored(results: Path) -> dict[str, tuple]:
    """What a store holds, per game key, apart from timings."""
    with ResultsStore(results, lock=False) as store:
        out = {}
        for key, r in store.records():
            out[key] = ([p.login for p in r.players], [p.verdict.value for p in r.players], r.winner,
                        r.scores, [m.answer for m in r.moves])
        return out


def harness_run(config: Path, *extra: str, check: bool = False, **kwargs) -> subprocess.Popen:
    """``harness run rr``; without the timing self-check unless ``check`` (the suite runs on busy machines)."""
    flags = [] if check else ["--no-self-check"]
    return subprocess.Popen([sys.executable, "-m", "harness", "run", "rr", "--config", str(config), "--quiet",
                             *flags, *extra],
                            cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True, **kwargs)


def count_games(db: Path) -> int:
    try:
        with sqlite3.connect(db) as con:
            return con.execute("SELECT COUNT(*) FROM games").fetchone()[0]
    except sqlite3.Error:
        return 0


def test_resume_after_kill_9_equals_an_uninterrupted_run(tmp_path: Path, no_leftovers: None) -> None:
    a, b = tmp_path / "a", tmp_path / "b"
    config_a, config_b = make_job(a, games=1), make_job(b, games=1)
    full = harness_run(config_a)
    assert full.wait(timeout=300) == 0, full.stderr.read()

    killed = harness_run(config_b)
    db = b / "results" / "rr" / "results.sqlite"
    deadline = time.time() + 120
    while count_games(db) < 6 and time.time() < deadline:
        time.sleep(0.05)
    os.killpg(killed.pid, signal.SIGKILL)  # the coordinator and its pool, mid-run
    killed.wait()
    partial = count_games(db)
    assert 6 <= partial < 40, "the run was not interrupted in the middle"
    # The killed workers' bots die with them (PR_SET_PDEATHSIG); their folders are swept on resume.

    resumed = harness_run(config_b)
    out, err = resumed.communicate(timeout=300)
    assert resumed.returncode == 0, err
    assert f"40 games, {partial} reused, {40 - partial} played" in err
    assert stored(a / "results" / "rr") == stored(b / "results" / "rr")


def test_only_games_of_a_changed_submission_are_replayed(tmp_path: Path) -> None:
    config = make_job(tmp_path, games=1)
    first = harness_run(config)
    assert first.wait(timeout=300) == 0
    # cat changes her code: 4 opponents x 2 settings x 2 seatings = 16 of the 40 games replay.
    player = tmp_path / "submissions" / "cat" / "player.py"
    player.write_bytes(player.read_bytes() + b"\n# a comment changes the sha256\n")
    second = harness_run(config)
    _, err = second.communicate(timeout=300)
    assert "40 games, 24 reused, 16 played" in err, err


def test_a_changed_module_beside_player_py_replays_that_student_s_games(tmp_path: Path) -> None:
    config = make_job(tmp_path, games=1)
    folder = tmp_path / "submissions" / "cat"
    (folder / "player.py").write_bytes(b"from steps import zet_of\n\n\nclass Player:\n    def __init__(self, name):\n"
                                       b"        self.name = name\n\n    def zet(self, spel):\n"
                                       b"        return zet_of(spel)\n")
    (folder / "steps.py").write_bytes(b"def zet_of(spel):\n    for stap in range(1, spel.N + 1):\n"
                                      b"        n = spel.positie + stap\n"
                                      b"        if n > 1 and all(n % i for i in range(2, int(n ** 0.5) + 1)):\n"
                                      b"            return stap\n    return 1\n")
    first = harness_run(config)
    assert first.wait(timeout=300) == 0
    assert all(v == "ok" for logins, verdicts, *_ in stored(tmp_path / "results" / "rr").values()
               for login, v in zip(logins, verdicts) if login == "cat")  # the two-file bot plays
    (folder / "steps.py").write_bytes((folder / "steps.py").read_bytes() + b"# changed\n")
    second = harness_run(config)
    _, err = second.communicate(timeout=300)
    assert "40 games, 24 reused, 16 played" in err, err  # only cat's games: 4 x 2 x 2


def test_two_runs_of_one_job_cannot_overlap(tmp_path: Path) -> None:
    config = make_job(tmp_path)
    job = load_config(config).resolve("rr")[0]
    with ResultsStore(job.results):
        with pytest.raises(StoreError, match="another run of this job is in progress"):
            with ResultsStore(job.results):
                pass
        second = harness_run(config)
        _, err = second.communicate(timeout=60)
        assert second.returncode == 2 and "another run of this job is in progress" in err


class FlakyExecutor(Executor):
    """Plays for real, but the first attempt of every other game is lost (a harness fault)."""

    def __init__(self) -> None:
        self.inner = LocalExecutor(2)
        self.lost: set[str] = set()

    def run(self, tasks: list[Task], work):
        for task, result, fault in self.inner.run(tasks, work):
            if hash(task.key) % 2 and task.key not in self.lost:
                self.lost.add(task.key)
                yield task, None, "a worker process of the harness died"
            else:
                yield task, result, fault


def test_harness_errors_are_retried_and_never_charged(tmp_path: Path) -> None:
    job = load_config(make_job(tmp_path, games=1)).resolve("rr")[0]
    executor = FlakyExecutor()
    summary = run_job(job, executor)
    assert executor.lost and summary.faults == 0 and summary.played == summary.total == 40
    with ResultsStore(job.results, lock=False) as store:
        records = [r for _, r in store.records()]
    assert not any(r.harness_fault for r in records)
    assert sum(1 for r in records if any(p.verdict.value == "bad_answer" for p in r.players)) == 16  # dan's games


def test_leaderboard_and_exports_from_the_store(tmp_path: Path) -> None:
    config = make_job(tmp_path, games=1)
    assert harness_run(config).wait(timeout=300) == 0

    def cli(*args: str) -> str:
        run = subprocess.run([sys.executable, "-m", "harness", *args, "rr", "--config", str(config)],
                             cwd=REPO, capture_output=True, text=True, timeout=60)
        assert run.returncode == 0, run.stderr
        return run.stdout

    board = json.loads(cli("leaderboard", "--format", "json"))
    assert board["complete"] is True and board["games"] == board["total"] == 40
    rows = board["rows"]
    by_login = {r["login"]: r for r in rows}
    assert set(by_login) == {"ann", "ben", "cat", "dan", "basis"}
    assert by_login["dan"]["disqualified"] and by_login["dan"]["rank"] is None and by_login["dan"]["points"] == 0
    assert "bad_answer" in by_login["dan"]["reason"]
    assert [r["login"] for r in rows][-1] == "dan"
    for r in rows:  # rank 1 -> 3 points, rank 2 -> 1 point, students only (reference players get none)
        expected = {1: 3, 2: 1}.get(r["rank"], 0) if r["login"] != "basis" else 0
        assert r["points"] == expected, r
    assert all(r["games"] == 16 for r in rows)
    assert "| rank" in cli("leaderboard", "--format", "markdown")
    csv_lines = cli("export", "--format", "csv").splitlines()
    assert csv_lines[0] == "login,points,rank,disqualified,reason" and len(csv_lines) == 5  # students only
    grades = json.loads(cli("export", "--format", "gradescope"))
    assert set(grades) == {"ann", "ben", "cat", "dan"}
    assert grades["dan"]["score"] == 0 and grades["dan"]["tests"][0]["max_score"] == 3
    assert {"score", "output", "leaderboard", "tests"} <= set(grades["ann"]) and "max_score" not in grades["ann"]
    assert "bad_answer" in grades["dan"]["tests"][0]["output"] and "games/" not in grades["dan"]["tests"][0]["output"]
    site = tmp_path / "site"
    cli("report", "--out", str(site))
    index = (site / "index.html").read_text()
    assert all(login in index for login in ("ann", "ben", "cat", "dan", "basis"))
    with ResultsStore(tmp_path / "results" / "rr", lock=False) as store:
        keys = [key for key, _ in store.records()]
    assert {p.stem for p in (site / "games").glob("*.html")} == set(keys)  # one replay per stored game


def test_a_loaded_machine_is_no_reason_to_refuse_a_run(tmp_path: Path) -> None:
    """Real load, made by the test: three busy processes per core.

    The clocks judge a bot's own time (its wait for a CPU is measured and not charged), so the
    self-check passes under both policies with the job's default backstop, and the job plays.
    Each hog gets its own session, like other users' work (Linux's autogroup scheduler gives
    every session a fair share).
    """
    config = make_job(tmp_path, games=1, settings="[{N: 5}]")
    text = config.read_text()
    hogs = [subprocess.Popen([sys.executable, "-c", "while True: pass"], start_new_session=True)
            for _ in range(3 * (os.cpu_count() or 1))]
    try:
        time.sleep(0.5)
        for policy in ("wall", "cpu"):
            config.write_text(text + f"    limits: {{policy: {policy}}}\n")
            run = harness_run(config, check=True)
            _, err = run.communicate(timeout=600)
            assert run.returncode == 0 and "refusing" not in err, err
            assert "rr: 20 games, 0 reused, 20 played" in err, err  # the limits are part of a game's identity
    finally:
        for hog in hogs:
            hog.kill()
            hog.wait()
    assert count_games(tmp_path / "results" / "rr" / "results.sqlite") == 40  # 20 games under each policy


def test_a_refused_job_exits_1_and_names_the_way_out(tmp_path: Path) -> None:
    """What the self-check cannot time (here: a calibration bot cannot even start in 1 µs)."""
    config = make_job(tmp_path, games=1)
    config.write_text(config.read_text() + "    limits: {load: 0.000001}\n")
    run = harness_run(config, check=True)
    _, err = run.communicate(timeout=300)
    assert run.returncode == 1, err
    line = err.strip().splitlines()[-2]
    assert line.startswith("harness run: rr: refusing to start: cannot time bots fairly now:"), err
    assert line.endswith("To play anyway: harness run --no-self-check"), err
    assert count_games(tmp_path / "results" / "rr" / "results.sqlite") == 0
