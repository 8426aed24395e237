"""The README's cluster section is what runs: its commands, word for word, on a one-node Slurm and
on a multi-host Dask cluster (hosts in network namespaces), each leaderboard equal to a local run's.

The commands run in a copy of the shipped jobs file and its PriemSpel bots (so the results go
there), with ``.venv`` the interpreter running the tests. ``$SCHEDULER`` is the scheduler host's
address, as an operator would set it.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.cluster.hosts import Hosts, wait_for_port

REPO = Path(__file__).resolve().parents[2]
JOB = "priemspel-tournament"


def section() -> list[list[str]]:
    """The shell blocks of the README's cluster section, as lists of lines."""
    text = (REPO / "README.md").read_text(encoding="utf-8")
    start = text.index("\n## On a cluster")
    body = text[start + 1:text.index("\n## ", start + 1)]
    blocks, current = [], None
    for line in body.splitlines():
        if line == "```sh":
            current = []
        elif line == "```" and current is not None:
            blocks.append(current)
            current = None
        elif current is not None:
            current.append(line)
    return blocks


def checkout(folder: Path) -> Path:
    """The shipped jobs file with PriemSpel's submissions and reference players, and ``.venv``."""
    folder.mkdir(parents=True)
    shutil.copy(REPO / "tournaments.yaml", folder)
    for sub in ("submissions/priemspel", "reference_players/priemspel"):
        shutil.copytree(REPO / sub, folder / sub)
    (folder / ".venv").symlink_to(Path(sys.prefix))
    (folder / ".ci").symlink_to(REPO / ".ci")
    os.chmod(folder, 0o755)
    return folder


def sh(line: str, cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    out = subprocess.run(["bash", "-c", line], cwd=cwd, capture_output=True, text=True, timeout=900,
                         env={**os.environ, **env})
    assert out.returncode == 0, f"{line}\n{out.stderr[-3000:]}"
    return out


@pytest.fixture(scope="module")
def local_board(tmp_path_factory: pytest.TempPathFactory) -> str:
    """The job's leaderboard from a plain local run."""
    folder = checkout(tmp_path_factory.mktemp("readme") / "local")
    sh(f".venv/bin/harness run {JOB} --quiet --no-self-check", folder)
    return sh(f".venv/bin/harness leaderboard {JOB}", folder).stdout


def test_the_install_line_names_the_slurm_extra() -> None:
    install, _, _ = section()
    assert install == [".venv/bin/pip install '.[slurm]'"]
    assert "slurm = [" in (REPO / "pyproject.toml").read_text()


def test_the_slurm_commands_as_written(tmp_path: Path, slurm: None, local_board: str) -> None:
    _, commands, _ = section()
    folder = checkout(tmp_path / "slurm")
    outputs = [sh(line, folder) for line in commands]
    assert "--slurm" in commands[0] and commands[1].startswith(".venv/bin/harness leaderboard")
    assert outputs[-1].stdout == local_board
    assert (folder / "results" / JOB / "slurm").is_dir(), "the workers were Slurm batch jobs"


def test_the_dask_commands_as_written(tmp_path: Path, hosts: Hosts, local_board: str) -> None:
    _, _, (scheduler_line, worker_line, run_line) = section()
    folder = checkout(tmp_path / "dask")
    sched, a, b = hosts.add("sched"), hosts.add("a"), hosts.add("b")
    env = {"SCHEDULER": sched.address}
    scheduler = sched.start(["bash", "-c", scheduler_line], env=env, log="scheduler", cwd=folder)
    wait_for_port(sched, 8786, scheduler)
    for host in (a, b):
        host.start(["bash", "-c", worker_line], env=env, log="worker", cwd=folder)
    nproc = int(subprocess.run(["nproc"], capture_output=True, text=True).stdout)
    address = f"tcp://{sched.address}:8786"
    from distributed import Client

    with Client(address, timeout="30s", set_as_default=False) as client:
        # Every worker of both hosts, waited for with a deadline: on a loaded machine a worker whose
        # event loop stalls may drop out and rejoin between the count and the question.
        deadline = time.monotonic() + 120
        while True:
            client.wait_for_workers(2 * nproc, timeout=max(1.0, deadline - time.monotonic()))
            ran = client.run(__import__("socket").gethostname)
            hostnames = set(ran.values())
            if not hosts.isolated or hostnames == {"a", "b"} or time.monotonic() > deadline:
                break
            time.sleep(1)
    sh(run_line, folder, **env)
    assert sh(f".venv/bin/harness leaderboard {JOB}", folder).stdout == local_board
    if hosts.isolated:
        assert hostnames == {"a", "b"}, (ran, b.log("worker")[-2000:])
