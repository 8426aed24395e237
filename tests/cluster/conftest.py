"""What the cluster tests share: the job they play, the local run it must equal, the hosts of a
multi-host run (:mod:`tests.cluster.hosts`) and a one-node Slurm (``.ci/slurm-up``)."""

from __future__ import annotations

import fcntl
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from harness.config import load_config
from harness.tournament.execute import LocalExecutor, run_job
from tests.cluster.hosts import Hosts

REPO = Path(__file__).resolve().parents[2]
THINKS = (REPO / "tests/bots/priemspel/thinks.py").read_text()
GAMES = 24  # of make_job's round robin: 4 bots, 12 ordered pairs, 2 seeds


def thinker(least: float, most: float) -> str:
    """The real-speed bot, thinking ``least``..``most`` CPU seconds a move."""
    return THINKS.replace("LEAST, MOST = 0.2, 0.5", f"LEAST, MOST = {least}, {most}")


def make_job(folder: Path, extra: str = "", games: int = 2) -> Path:
    """A round robin of two thinking bots, the seed's strategy and the basic player (12 games a seed)."""
    bots = {"ann": thinker(0.02, 0.08), "ben": thinker(0.01, 0.05),
            "cat": (REPO / "reference_players/priemspel/strategie.py").read_text()}
    for login, source in bots.items():
        (folder / "submissions" / login).mkdir(parents=True)
        (folder / "submissions" / login / "player.py").write_text(source)
    config = folder / "tournaments.yaml"
    config.write_text(f"""
jobs:
  rr:
    game: priemspel
    format: round_robin
    submissions: submissions
    reference: [{REPO}/reference_players/priemspel/basis.py]
    settings: [{{N: 5}}]
    games: {games}
    workers: 2
    awards: {{policy: tiers, tiers: [{{rank: 1, points: 3}}, {{rank: 2, points: 1}}]}}
{extra}""")
    return config


def leaderboard(config: Path, job: str = "rr") -> str:
    """``harness leaderboard JOB --format csv``: every column, reference players included."""
    out = subprocess.run([sys.executable, "-m", "harness", "leaderboard", job, "--config", str(config),
                          "--format", "csv"], capture_output=True, text=True, cwd=REPO, timeout=120)
    assert out.returncode == 0, out.stderr
    return out.stdout


def hosts_of(results: Path) -> list[str]:
    """The ``host`` of every stored record ("hostname:pid" of the worker that played it)."""
    from harness.tournament.store import ResultsStore

    with ResultsStore(results, lock=False) as store:
        return [r.host for _, r in store.records()]


def rows(db: Path) -> tuple[int, int]:
    """(rows, distinct keys) of the games table: a game stored twice shows as a difference."""
    import sqlite3

    with sqlite3.connect(db) as con:
        return con.execute("SELECT COUNT(*), COUNT(DISTINCT key) FROM games").fetchone()


@pytest.fixture(scope="session")
def local_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """make_job's job played on this machine's pool: (config, results) that every cluster run must equal."""
    folder = tmp_path_factory.mktemp("local")
    config = make_job(folder)
    assert run_job(load_config(config).resolve("rr")[0], LocalExecutor(2)).played == GAMES
    return config, folder / "results" / "rr"


@pytest.fixture
def hosts() -> Iterator[Hosts]:
    """Hosts of a multi-host run (removed, with every process on them, after the test)."""
    pytest.importorskip("distributed") if not os.environ.get("CI") else None
    h = Hosts()
    print(f"hosts: {'network namespaces on a bridge' if h.isolated else 'loopback addresses (' + h.why + ')'}")
    try:
        yield h
    finally:
        h.close()


@pytest.fixture
def slurm() -> Iterator[None]:
    """A one-node Slurm of this machine (``.ci/slurm-up``), this test's alone while it runs: the
    suite's processes (``pytest -n``) and other runs on the machine take it in turn, under a
    lock, since one node's CPUs serve one test's batch jobs at a time. Where it cannot start, the
    test is skipped with the reason; on CI (the same kind of machine, as root) it must start."""
    if not os.environ.get("CI"):
        pytest.importorskip("dask_jobqueue")
    if os.geteuid() != 0:
        pytest.skip("a one-node Slurm needs root (.ci/slurm-up installs and starts it)")
    with open("/run/harness-tests-slurm.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        out = subprocess.run(["bash", str(REPO / ".ci/slurm-up")], capture_output=True, text=True, timeout=900)
        if out.returncode != 0:
            reason = (out.stderr.strip().splitlines() or [f"exit code {out.returncode}"])[-1]
            if os.environ.get("CI"):
                pytest.fail(f"Slurm must start on CI: {reason}")
            pytest.skip(f"Slurm cannot start on this machine: {reason}")
        yield
