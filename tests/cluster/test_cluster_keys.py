"""A job's ``cluster:`` block, the coordinator's judgement of workers, the Slurm flags, and the
adaptive waves pipelined on a Dask cluster (a real ``LocalCluster``)."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from harness.config import load_config
from harness.keys import ConfigError
from harness.tournament.clusterconf import ClusterSettings, SlurmSettings
from harness.tournament.workers import judge_workers, speed_probe
from tests.cluster.conftest import make_job

REPO = Path(__file__).resolve().parents[2]


def job_with(tmp_path: Path, block: str) -> Any:
    config = make_job(tmp_path, extra=f"    cluster: {block}\n")
    return load_config(config).resolve("rr")[0]


def test_a_cluster_block_is_read_and_defaults_without_one(tmp_path: Path) -> None:
    job = job_with(tmp_path / "a", '{speed_factor: 2, speed: 0.05, slurm: {partition: gpu, jobs: 3, cores: 8, '
                                   'memory: 16GB, walltime: "1-00:00:00"}}')
    assert job.cluster == ClusterSettings(2.0, 0.05, SlurmSettings("gpu", 3, 8, "16GB", "1-00:00:00"))
    plain = load_config(make_job(tmp_path / "b")).resolve("rr")[0]
    assert plain.cluster == ClusterSettings() and plain.cluster.speed_factor == 1.5 and plain.cluster.slurm is None


@pytest.mark.parametrize("block, problem", [
    ("{speed_factor: 1}", "jobs.rr.cluster.speed_factor: must be a number > 1"),
    ("{speed_factor: fast}", "jobs.rr.cluster.speed_factor: must be a number > 1"),
    ("{speed: -1}", "jobs.rr.cluster.speed: must be a number > 0"),
    ("{nodes: 4}", "jobs.rr.cluster.nodes: unknown key (known: slurm, speed, speed_factor)"),
    ("{slurm: {memory: lots}}", "jobs.rr.cluster.slurm.memory: must be an amount like 4GB or 512MB, got 'lots'"),
    ("{slurm: {jobs: 0}}", "jobs.rr.cluster.slurm.jobs: must be an integer >= 1, got 0"),
    ("{slurm: {walltime: soon}}", "jobs.rr.cluster.slurm.walltime: must be a Slurm time like 02:00:00"),
    ("{slurm: {qos: high}}", "jobs.rr.cluster.slurm.qos: unknown key"),
    ("{slurm: 4}", "jobs.rr.cluster.slurm: must be a mapping"),
    ("fast", "jobs.rr.cluster: must be a mapping"),
])
def test_a_bad_cluster_key_is_one_line_naming_it(tmp_path: Path, block: str, problem: str) -> None:
    with pytest.raises(ConfigError) as exc:
        job_with(tmp_path, block)
    assert problem in str(exc.value) and "\n" not in str(exc.value), str(exc.value)


def report(fair: bool = True, tier: str = "bubblewrap", speed: float = 0.1, why: str = "fair") -> dict[str, Any]:
    return {"fair": fair, "why": why, "tier": tier, "speed": speed, "host": "node", "python": "py", "pid": 1}


def test_workers_are_judged_by_fairness_tier_and_speed() -> None:
    reports = {"tcp://w1": report(), "tcp://w2": report(tier="container"), "tcp://w3": report(speed=0.16),
               "tcp://w4": report(speed=0.06), "tcp://w5": report(fair=False, why="no bot starts"),
               "tcp://w6": report(speed=0.14)}
    names = {a: a[-2:] for a in reports}
    verdicts = {v.name: v for v in judge_workers("rr", reports, names, reference=0.1, factor=1.5)}
    assert {n for n, v in verdicts.items() if v.fit} == {"w1", "w6"}
    assert verdicts["w2"].why == ("rr: worker w2 (node) refused: its bots would run in the container tier, the "
                                  "others' in bubblewrap: every game of a job is played behind the same walls")
    assert "runs 1.6x slower than the job's reference (160 ms against 100 ms" in verdicts["w3"].why
    assert "runs 1.7x faster" in verdicts["w4"].why and "allowed 1.5x: cluster.speed_factor" in verdicts["w4"].why
    assert verdicts["w5"].why.endswith("refused: cannot time bots fairly: no bot starts")
    # All in the container tier: none is weaker than another, all play.
    same = {a: report(tier="container") for a in ("tcp://x", "tcp://y")}
    assert all(v.fit for v in judge_workers("rr", same, {}, reference=0.1, factor=1.5))


def test_the_speed_probe_measures_the_bots_interpreter() -> None:
    """The probe runs on the interpreter the bots run on, not in the harness's process: a job on
    another interpreter is timed on that one, and one that cannot run the probe is an error."""
    from harness.sandbox import interpreter
    from harness.sandbox.interpreter import InterpreterError

    first, second = speed_probe(), speed_probe(sys.executable)
    assert 0.0005 < first < 5 and 0.0005 < second < 5
    assert max(first, second) / min(first, second) < 3  # the best of 5: steady on a busy machine too
    with pytest.raises(InterpreterError, match="/bin/false does not run the speed probe"):
        speed_probe("/bin/false")
    assert interpreter.chosen() != "/bin/false"  # a probe chooses nothing


def harness(*argv: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "harness", *argv], capture_output=True, text=True, cwd=cwd,
                          timeout=120)


def test_slurm_flags_without_slurm_and_slurm_with_a_scheduler_are_one_line(tmp_path: Path) -> None:
    config = make_job(tmp_path)
    out = harness("run", "rr", "--config", str(config), "--cores", "4", cwd=tmp_path)
    assert (out.returncode, out.stderr) == (2, "harness run: --cores: only with --slurm (or a job with a cluster: "
                                                "{slurm: ...} block)\n")
    out = harness("run", "rr", "--config", str(config), "--slurm", "--scheduler", "tcp://127.0.0.1:1", cwd=tmp_path)
    assert out.returncode == 2 and len(out.stderr.splitlines()) == 1 and "not both" in out.stderr, out.stderr


def test_slurm_where_there_is_no_slurm_is_one_line(tmp_path: Path) -> None:
    config = make_job(tmp_path)
    env = {**os.environ, "PATH": str(tmp_path / "nothing")}  # no sbatch on this "machine"
    out = subprocess.run([sys.executable, "-m", "harness", "run", "rr", "--config", str(config), "--slurm"],
                         capture_output=True, text=True, cwd=tmp_path, env=env, timeout=120)
    assert out.returncode == 2, out.stderr
    assert out.stderr == "harness run: --slurm: no sbatch on this machine: run the harness on a Slurm login node\n"


distributed = pytest.importorskip("distributed") if not os.environ.get("CI") else __import__("distributed")


def test_an_adaptive_job_on_a_dask_cluster_plays_every_wave_from_one_live_queue(tmp_path: Path) -> None:
    """The next wave joins the executor's queue while the last one plays (no worker waits for a
    wave's last game or the fit): one call of the executor for the whole job, and the same games
    as a local run's."""
    from harness.tournament.cluster import DaskExecutor
    from harness.tournament.execute import LocalExecutor, Work, run_job
    from harness.tournament.store import ResultsStore
    from tests.tournament.test_adaptive import make_job as adaptive_job

    class Counting(DaskExecutor):
        calls = 0

        def run(self, tasks: Sequence[Any], work: Work) -> Iterator[tuple[Any, dict[str, Any] | None, str]]:
            Counting.calls += 1
            yield from super().run(tasks, work)

    stores = []
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as c:
        for name in ("dask", "local"):
            job = load_config(adaptive_job(tmp_path / name, bots=6, budget="60%")).jobs["ad"]
            executor = Counting(c.scheduler_address, self_check=False) if name == "dask" else LocalExecutor(2)
            run_job(job, executor)
            with ResultsStore(job.results, lock=False) as store:
                stores.append({k: ([p.login for p in r.players], r.winner) for k, r in store.records(light=True)})
    assert Counting.calls == 1, "the waves went through one live queue"
    assert stores[0] and stores[0] == stores[1]
