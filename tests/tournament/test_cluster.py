"""A job on a Dask cluster (a real ``LocalCluster`` of worker processes): the same results as a local
run, every worker checked for fair timing before it takes games, and a lost worker costs no bot
anything.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from harness.config import load_config
from harness.tournament.execute import LocalExecutor, run_job
from harness.tournament.store import ResultsStore
from tests.tournament.test_run import count_games, harness_run, make_job, stored

distributed = pytest.importorskip("distributed") if not os.environ.get("CI") else __import__("distributed")


def cluster(workers: int = 2):  # type: ignore[no-untyped-def]
    return distributed.LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None)


def test_the_same_job_on_a_dask_local_cluster(tmp_path: Path) -> None:
    local, remote = tmp_path / "local", tmp_path / "dask"
    config_local, config_dask = make_job(local, games=1), make_job(remote, games=1)
    assert run_job(load_config(config_local).resolve("rr")[0], LocalExecutor(2)).played == 40
    with cluster() as c:
        run = harness_run(config_dask, "--scheduler", c.scheduler_address)
        _, err = run.communicate(timeout=300)
        assert run.returncode == 0, err
    assert stored(local / "results" / "rr") == stored(remote / "results" / "rr")


def _pin(pid: int, cpus: set[int]) -> None:
    """Pin every thread of a process (children inherit it from the thread that starts them)."""
    for tid in os.listdir(f"/proc/{pid}/task"):
        os.sched_setaffinity(int(tid), cpus)


@pytest.mark.skipif(not hasattr(os, "sched_setaffinity") or (os.cpu_count() or 1) < 2,
                    reason="needs two CPUs and CPU affinity (Linux)")
def test_a_worker_sharing_its_cpu_with_twenty_busy_processes_still_times_bots_fairly(tmp_path: Path) -> None:
    """One worker shares a CPU with twenty busy processes (each in its own session, so its bots
    get about a 21st of that CPU), the other has a CPU without them. Bots are judged by their own
    time (CPU, or elapsed less the kernel's run-queue wait), so the loaded worker is no reason to
    refuse: both workers pass the self-check and play, and no bot loses a game for the load.
    (Before the own-time judgement the loaded worker was refused.)"""
    config = make_job(tmp_path, games=1, settings="[{N: 5}]")
    config.write_text(config.read_text() + "    limits: {policy: cpu, move: 0.2}\n")
    hogs: list[subprocess.Popen[bytes]] = []
    with cluster() as c, distributed.Client(c) as client:
        pids = client.run(os.getpid)
        slow, fast = sorted(pids)
        _pin(pids[slow], {0})
        _pin(pids[fast], {1})
        hogs = [subprocess.Popen([sys.executable, "-c", "while True: pass"], start_new_session=True,
                                 preexec_fn=lambda: os.sched_setaffinity(0, {0})) for _ in range(20)]
        try:
            run = harness_run(config, "--scheduler", c.scheduler_address, check=True)
            _, err = run.communicate(timeout=900)
        finally:
            for hog in hogs:
                hog.kill()
                hog.wait()
        assert run.returncode == 0, err
        assert "refused" not in err, err
    with ResultsStore(tmp_path / "results" / "rr", lock=False) as store:
        records = [r for _, r in store.records()]
    assert len(records) == 20
    verdicts = {p.verdict.value for r in records for p in r.players}
    assert not verdicts & {"timeout", "harness_error"}, "no bot lost a game to the load"
    assert {r.host.rsplit(":", 1)[1] for r in records} == {str(pids[slow]), str(pids[fast])}, "both workers played"


def test_a_cluster_whose_workers_cannot_time_bots_is_refused_in_one_line(tmp_path: Path) -> None:
    """What a worker's self-check cannot time (a calibration bot cannot start in 1 µs): every
    worker refuses, the run exits 1 with one line naming the refusal, and no game is stored."""
    config = make_job(tmp_path, games=1)
    config.write_text(config.read_text() + "    limits: {load: 0.000001}\n")
    with cluster() as c:
        run = harness_run(config, "--scheduler", c.scheduler_address, check=True)
        _, err = run.communicate(timeout=300)
    assert run.returncode == 1, err
    assert "no Dask worker can time bots fairly now (2 refused" in err, err
    assert err.strip().splitlines()[-2].endswith("To play anyway: harness run --no-self-check"), err
    assert count_games(tmp_path / "results" / "rr" / "results.sqlite") == 0


def test_a_worker_lost_in_mid_game_costs_no_bot_anything(tmp_path: Path) -> None:
    local, remote = tmp_path / "local", tmp_path / "dask"
    config_local, config_dask = make_job(local, games=1), make_job(remote, games=1)
    assert run_job(load_config(config_local).resolve("rr")[0], LocalExecutor(2)).played == 40
    with cluster() as c, distributed.Client(c) as client:
        victim = next(iter(client.run(os.getpid).values()))
        run = harness_run(config_dask, "--scheduler", c.scheduler_address)
        db = remote / "results" / "rr" / "results.sqlite"
        deadline = time.time() + 120
        while count_games(db) < 5 and time.time() < deadline:
            time.sleep(0.05)
        os.kill(victim, signal.SIGKILL)  # its nanny starts a new one; its games are played again
        _, err = run.communicate(timeout=600)
        assert run.returncode == 0, err
    assert stored(local / "results" / "rr") == stored(remote / "results" / "rr")  # no verdict changed


def test_games_go_out_in_batches_with_a_bounded_number_in_flight() -> None:
    """More workers than cores; 6,000 short "games" (``vars`` of a namespace: the work itself is
    nothing, so the scheduler's cost is all there is). Each comes back exactly once, and the
    executor never has more than ``in_flight`` batches per worker outstanding."""
    from types import SimpleNamespace

    from harness.tournament.cluster import DaskExecutor

    workers = (os.cpu_count() or 1) + 1
    tasks = [SimpleNamespace(key=f"{n:06d}") for n in range(6_000)]
    with cluster(workers) as c:
        executor = DaskExecutor(c.scheduler_address, self_check=False, batch=16, in_flight=2)
        try:
            seen = [(task.key, result, fault) for task, result, fault in executor.run(tasks, vars)]
        finally:
            executor.close()
    assert sorted(k for k, _, _ in seen) == [t.key for t in tasks]
    assert all(result == {"key": k} and fault == "" for k, result, fault in seen)
    assert 0 < executor.peak <= 2 * workers


def test_a_failing_game_in_a_batch_fails_alone() -> None:
    from types import SimpleNamespace

    from harness.tournament.cluster import DaskExecutor

    tasks = [SimpleNamespace(key=str(n), spread=[] if n == 3 else [n]) for n in range(8)]
    with cluster(2) as c:
        executor = DaskExecutor(c.scheduler_address, self_check=False, batch=8)
        try:
            out = {t.key: (r, f) for t, r, f in executor.run(tasks, _first)}
        finally:
            executor.close()
    assert out["3"][0] is None and "IndexError" in out["3"][1]
    assert all(out[str(n)] == ({"first": n}, "") for n in range(8) if n != 3)


def _first(task):  # type: ignore[no-untyped-def]
    return {"first": task.spread[0]}
