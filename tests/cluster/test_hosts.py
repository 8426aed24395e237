"""Multi-host Dask as it really is: the scheduler and every worker a process of its own on a host
of its own (a network namespace and host name, its own temporary folder, home and environment),
reached over TCP; the coordinator (``harness run --scheduler``) in this namespace.

Faults, for real: a worker SIGKILLed in mid-game (its nanny starts it again), the scheduler
SIGKILLed and started again mid-run (the workers, supervised as a service manager would, join
the new one), workers whose sandbox tier differs, whose self-check fails, or whose interpreter is
slower than the job's reference. Every game is stored exactly once, no bot is charged for the
cluster's faults, the records name the hosts that played them, and the store and leaderboard
equal a local run's.
"""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import time
from pathlib import Path

import pytest

from harness.tournament.store import ResultsStore
from tests.cluster.conftest import GAMES, hosts_of, leaderboard, make_job, rows
from tests.cluster.hosts import Hosts, wait_for_workers
from tests.tournament.test_run import count_games, harness_run, stored




def test_a_worker_killed_mid_game_and_a_restarted_scheduler_lose_nothing_and_charge_nobody(
        tmp_path: Path, hosts: Hosts, local_run: tuple[Path, Path]) -> None:
    sched, a, b = hosts.add("sched"), hosts.add("a"), hosts.add("b")
    scheduler = hosts.scheduler(sched)
    address = f"tcp://{sched.address}:8786"
    hosts.worker(a, address)
    hosts.worker(b, address)
    pids = wait_for_workers(address, {"a", "b"})
    config = make_job(tmp_path)
    db = tmp_path / "results" / "rr" / "results.sqlite"
    run = harness_run(config, "--scheduler", address)

    def after(games: int) -> None:
        deadline = time.monotonic() + 180
        while count_games(db) < games and run.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        assert run.poll() is None, "the run ended before the fault: " + run.communicate()[1]

    after(4)
    os.kill(pids["a"], signal.SIGKILL)  # the worker process itself, mid-game: its bots die, its nanny restarts it
    after(count_games(db) + 3)
    sched.kill(scheduler)  # the scheduler, mid-run; it comes back at the same address
    time.sleep(1)
    hosts.scheduler(sched)
    _, err = run.communicate(timeout=600)
    assert run.returncode == 0, err
    assert f"Worker process {pids['a']} was killed by signal 9" in a.log("worker"), "the kill hit the worker"
    assert "lost the Dask scheduler" in err and "in flight are played again" in err, err

    local_config, local_results = local_run
    assert rows(db) == (GAMES, GAMES), "every game stored exactly once"
    assert stored(tmp_path / "results" / "rr") == stored(local_results), "no verdict, winner or move changed"
    assert leaderboard(config) == leaderboard(local_config)
    played_on = {h.rsplit(":", 1)[0] for h in hosts_of(tmp_path / "results" / "rr")}
    assert played_on and played_on <= {named(hosts, "a"), named(hosts, "b")}, played_on  # the workers' own


def named(hosts: Hosts, name: str) -> str:
    """The host name a record of host ``name`` carries (its own in a namespace, else this machine's)."""
    return name if hosts.isolated else socket.gethostname()


def _path_without_bwrap(folder: Path) -> str:
    """A PATH like this machine's, less bubblewrap: a node where it is not installed."""
    folder.mkdir()
    for d in ("/usr/local/bin", "/usr/bin", "/bin", "/usr/sbin", "/sbin"):
        if os.path.isdir(d):
            for name in os.listdir(d):
                if name != "bwrap" and not (folder / name).exists():
                    (folder / name).symlink_to(Path(d) / name)
    return str(folder)


# A debug build of the system's Python (Debian's python3.11-dbg, installed by .ci/run): the same
# bytecode, about 5x slower. Bound over /usr/bin/python3.11 on one host, it makes that host a
# slow machine: its bots (and, where the harness runs on that interpreter too, its harness).
SYSTEM_PYTHON, DEBUG_PYTHON = "/usr/bin/python3.11", "/usr/bin/python3.11d"


@pytest.mark.skipif(not os.path.exists("/usr/bin/bwrap"), reason="needs bubblewrap for the tiers to differ")
def test_workers_of_another_tier_a_failing_self_check_or_another_speed_are_refused_and_their_games_go_elsewhere(
        tmp_path: Path, hosts: Hosts, local_run: tuple[Path, Path]) -> None:
    """Four workers, one fit: ``b`` would run bots in the container tier (bubblewrap turned off
    there), ``c`` requires bubblewrap but has none (its calibration bot cannot start), ``d``'s
    bots would run on a debug build of Python (about 5x slower: the judge's clock on that host is
    not the others') and it joins in mid-run. Each is refused in one line naming why (``d`` when
    it joins); ``a`` plays every game, and the results equal the local run's."""
    sched, a, b, c, d = (hosts.add(n) for n in ("sched", "a", "b", "c", "d"))
    hosts.scheduler(sched)
    address = f"tcp://{sched.address}:8786"
    if not (os.path.exists(DEBUG_PYTHON) and os.path.exists(SYSTEM_PYTHON) and os.geteuid() == 0):
        assert not os.environ.get("CI"), "CI must run the slow host (.ci/run installs python3.11-dbg; root)"
        pytest.skip("a slow host needs root and Debian's python3.11 and python3.11-dbg")
    hosts.worker(a, address)
    hosts.worker(b, address, env={"HARNESS_ISOLATION": "plain"})
    hosts.worker(c, address, env={"HARNESS_ISOLATION": "bwrap", "PATH": _path_without_bwrap(tmp_path / "bin")})
    wait_for_workers(address, {"a", "b", "c"})
    config = make_job(tmp_path / "job", games=4)  # twice the local run's seeds: d joins while games are left
    run = harness_run(config, "--scheduler", address, check=True)
    db = tmp_path / "job" / "results" / "rr" / "results.sqlite"
    deadline = time.monotonic() + 180
    while count_games(db) < 2 and run.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    hosts.worker(d, address, bind=(DEBUG_PYTHON, SYSTEM_PYTHON))  # joins mid-run: checked when it joins
    wait_for_workers(address, {"d"})
    assert run.poll() is None and count_games(db) < 2 * GAMES, "d joined before the last games"
    _, err = run.communicate(timeout=600)
    assert run.returncode == 0, err
    refused = {line.split(" worker ", 1)[1].split(" ", 1)[0]: line for line in err.splitlines() if " refused: " in line}
    assert set(refused) == {"b", "c", "d"}, err
    assert "its bots would run in the container tier, the others' in bubblewrap" in refused["b"], refused["b"]
    assert "cannot time bots fairly: the calibration bot did not start" in refused["c"], refused["c"]
    assert re.search(r"runs [3-9]\.\dx slower than the job's reference .*cluster\.speed_factor", refused["d"]), refused["d"]
    results = tmp_path / "job" / "results" / "rr"
    assert {h.rsplit(":", 1)[0] for h in hosts_of(results)} == {named(hosts, "a")}
    local = stored(local_run[1])
    mine = stored(results)
    assert len(mine) == 2 * GAMES and {k: mine[k] for k in local} == local  # the local run's seeds, unchanged
    with ResultsStore(results, lock=False) as store:
        run_info = store.runs()[-1]
        players = [p.to_json() for _, r in store.records() for p in r.players]
    # The judge's clock, as the worker saw it (``interpreter``, where records carry it): a's tier.
    clocks = [p["interpreter"] for p in players if p.get("interpreter")]
    assert all(c.get("tier") == "bubblewrap" for c in clocks), clocks
    assert sorted(line.split(" worker ", 1)[1][0] for line in run_info["refused"]) == ["b", "c", "d"], json.dumps(run_info)
