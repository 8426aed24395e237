"""The Slurm path for real: a one-node Slurm of this machine (``.ci/slurm-up``: Debian's
slurm-wlm and munge, slurmctld and slurmd), Dask workers submitted as batch jobs through
dask-jobqueue's ``SLURMCluster``, a job played on them, and its store and leaderboard compared
with a local run of the same job.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

from tests.cluster.conftest import GAMES, hosts_of, leaderboard, make_job, rows
from tests.tournament.test_run import count_games, harness_run, stored

BLOCK = """    cluster: {slurm: {jobs: 2, cores: 1, memory: 1GB, walltime: "00:30:00"}}
"""


def harness_jobs() -> list[str]:
    """The harness's batch jobs still in Slurm's queue."""
    out = subprocess.run(["squeue", "-h", "-n", "harness-worker", "-o", "%i"], capture_output=True, text=True,
                         timeout=60)
    return out.stdout.split()


def test_a_job_with_a_slurm_block_plays_on_slurm_workers_and_equals_the_local_run(
        tmp_path: Path, slurm: None, local_run: tuple[Path, Path]) -> None:
    before = set(harness_jobs())
    config = make_job(tmp_path, extra=BLOCK)
    run = harness_run(config, check=True)  # every worker's self-check too
    _, err = run.communicate(timeout=600)
    assert run.returncode == 0, err
    results = tmp_path / "results" / "rr"
    assert rows(results / "results.sqlite") == (GAMES, GAMES)
    assert stored(results) == stored(local_run[1])
    assert leaderboard(config) == leaderboard(local_run[0])
    # Played by the batch jobs' two worker processes, not by the coordinator; their logs are kept.
    pids = {h.rsplit(":", 1)[1] for h in hosts_of(results)}
    assert len(pids) == 2 and str(run.pid) not in pids, pids
    logs = sorted(p.name for p in (results / "slurm").iterdir())
    assert len([n for n in logs if n.endswith(".err")]) == 2, logs
    assert all("Registered to:" in (results / "slurm" / n).read_text() for n in logs if n.endswith(".err"))
    assert set(harness_jobs()) <= before, "the run cancels its batch jobs when it ends"
    # Run again: every game is stored, so no batch job is submitted at all.
    again = harness_run(config, check=True)
    _, err = again.communicate(timeout=300)
    assert again.returncode == 0 and f"{GAMES} reused, 0 played" in err, err
    assert sorted(p.name for p in (results / "slurm").iterdir()) == logs, "nothing was submitted"


def test_a_partition_slurm_does_not_have_is_one_line(tmp_path: Path, slurm: None) -> None:
    config = make_job(tmp_path)
    run = harness_run(config, "--slurm", "--partition", "nosuch")
    _, err = run.communicate(timeout=300)
    assert run.returncode == 2, err
    assert len(err.strip().splitlines()) == 1, err
    assert err.startswith("harness run: --slurm: could not submit the workers: ") and "partition" in err.lower(), err
    assert count_games(tmp_path / "results" / "rr" / "results.sqlite") == 0, "nothing was played"
    assert set(harness_jobs()) <= set(), "no batch job was submitted"
