"""Stopping ``harness run`` with a signal: prompt, nothing lost, nothing left running, resumable.

Real runs: ``harness run`` as a subprocess (a coordinator, its pool of worker processes, their
bots under the real sandbox), a real SQLite store. SIGTERM, SIGHUP and SIGINT go to the
coordinator alone, mid-run; ``kill -9`` of the coordinator alone must take its pool and their
bots with it (parent-death signal). Every wait has a deadline and no step assumes timing, so
the tests hold on a busy machine.

A process belongs to a run if its parent chain, its process group or its session leads to the
coordinator (every such process is also remembered with its start time while the run lives,
since an orphan's parent chain is gone), or if the ``tests/hostile/leftovers`` markers (cgroup,
environment, folder; tagged with the owner's pid) tie it to a bot of one of the run's processes.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from unittest import mock

import pytest

from harness.tournament.store import ResultsStore
from tests.hostile import leftovers
from harness.tournament.execute import LocalExecutor
from tests.tournament.test_run import count_games, harness_run, make_job, stored

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads the process table in /proc")

TOTAL = 40  # games of make_job(games=1): 5 bots, 2 seatings, 2 settings, 1 seed
STOP_BOUND = 30.0  # seconds an interrupted run may take to stop (generous: a busy machine)


# ---- the process table -------------------------------------------------------------------
def _stat(pid: int) -> tuple[str, int, int, int, int] | None:
    """(state, ppid, process group, session, start time) of ``pid``, or None if it is gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None
    return fields[0], int(fields[1]), int(fields[2]), int(fields[3]), int(fields[19])


def _table() -> dict[int, tuple[str, int, int, int, int]]:
    table = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit() and (st := _stat(int(entry))) is not None:
            table[int(entry)] = st
    return table


def _cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


def kill(pids: Iterable[int]) -> None:
    """SIGKILL what a failed test would otherwise leave running for the rest of the suite."""
    for pid in pids:
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass


@contextmanager
def _as_owner(pid: int) -> Iterator[None]:
    """The leftovers helpers look for the bots of ``pid`` instead of this process's."""
    with mock.patch.object(leftovers.os, "getpid", return_value=pid):
        yield


class RunProcesses:
    """The processes of one ``harness run``, found from its coordinator's pid."""

    def __init__(self, coordinator: int) -> None:
        self.root = coordinator
        self.seen: dict[int, int] = {}  # pid -> start time, of every process of the run seen alive
        self.owners: set[int] = {coordinator}  # the coordinator and its children: may own bots

    def _leads_to_root(self, pid: int, table: dict[int, tuple[str, int, int, int, int]]) -> bool:
        steps = 0
        while pid in table and steps < 100:
            if pid == self.root:
                return True
            _, ppid, pgrp, sid, _ = table[pid]
            if self.root in (pgrp, sid):
                return True
            pid, steps = ppid, steps + 1
        return False

    def snapshot(self) -> None:
        """Remember every live process of the run (while the coordinator lives)."""
        table = _table()
        for pid, (state, ppid, _, _, start) in table.items():
            if state != "Z" and self._leads_to_root(pid, table):
                self.seen[pid] = start
                if ppid == self.root:
                    self.owners.add(pid)

    def bots(self) -> dict[int, str]:
        """Live processes that the leftovers markers tie to a bot of one of the run's processes."""
        found: dict[int, str] = {}
        for owner in sorted(self.owners):
            with _as_owner(owner):
                found.update({pid: f"{why} (of {owner})" for pid, why in leftovers.bot_processes().items()})
        return found

    def alive(self) -> dict[int, str]:
        """Every live (non-zombie) process of the run, and why it counts."""
        found: dict[int, str] = {}
        table = _table()
        for pid, (state, _, _, _, start) in table.items():
            if state == "Z" or pid == os.getpid():
                continue
            if self.seen.get(pid) == start:
                found[pid] = "seen during the run"
            elif self._leads_to_root(pid, table):
                found[pid] = "descends from the coordinator, or in its group or session"
        found.update(self.bots())
        # A process that ended while the table was read is not left over.
        return {pid: f"{why}: {_cmdline(pid)[:200]}" for pid, why in found.items()
                if (st := _stat(pid)) is not None and st[0] != "Z"}

    def leftover_files(self) -> dict[str, list[str]]:
        """Cgroups and bot folders of the run's processes that still exist."""
        out: dict[str, list[str]] = {}
        for owner in sorted(self.owners):
            with _as_owner(owner):
                cgroups, dirs = leftovers.bot_cgroups(), leftovers.bot_dirs()
            if cgroups or dirs:
                out[str(owner)] = [*map(str, cgroups), *sorted(dirs)]
        return out

    def wait_until_gone(self, timeout: float) -> dict[int, str]:
        """Poll until no process of the run is left (or the deadline passes); what is left."""
        deadline = time.monotonic() + timeout
        while (left := self.alive()) and time.monotonic() < deadline:
            time.sleep(0.1)
        return left


def _as_foreground_job() -> None:
    """In the child before exec: Ctrl-C as a terminal's foreground job gets it. A test process
    started in the background (``cmd &`` in a script) has SIGINT ignored, and a child inherits that:
    Python then never turns SIGINT into KeyboardInterrupt, rightly."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def start_and_watch(config: Path, db: Path, at_least: int = 4) -> tuple[subprocess.Popen, RunProcesses, int]:
    """Start ``harness run``; return once ``at_least`` games are stored, the run is still playing
    and its pool and a bot were seen in the process table. Returns the games stored by then."""
    run = harness_run(config, preexec_fn=_as_foreground_job)
    watch = RunProcesses(run.pid)
    try:
        deadline = time.monotonic() + 240
        bot_seen = False
        while True:
            assert run.poll() is None, f"the run ended before it could be interrupted: {run.communicate()}"
            assert time.monotonic() < deadline, "no games were stored in time"
            watch.snapshot()
            if not bot_seen and count_games(db) >= at_least:
                bot_seen = bool(watch.bots())  # the markers do see this run's bots (the check can fail)
            if bot_seen and count_games(db) >= at_least:
                break
            time.sleep(0.05)
        watch.snapshot()
        workers = [p for p in watch.owners  # live pool workers (not the resource tracker)
                   if "multiprocessing.spawn" in _cmdline(p) and _stat(p) is not None]
        assert len(workers) >= 2, f"no pool seen: {[_cmdline(p) for p in watch.owners]}"
        assert {run.pid, *workers} <= set(watch.alive()), "the check does not see the live run"
    except BaseException:
        kill(watch.alive())
        run.communicate()
        raise
    return run, watch, count_games(db)


@pytest.fixture(scope="module")
def uninterrupted(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple]:
    """The store of an uninterrupted run of the job."""
    folder = tmp_path_factory.mktemp("uninterrupted")
    run = harness_run(make_job(folder, games=1))
    out, err = run.communicate(timeout=600)
    assert run.returncode == 0, err
    assert f"{TOTAL} games, 0 reused, {TOTAL} played" in err
    return stored(folder / "results" / "rr")


def resume_and_compare(config: Path, folder: Path, partial: int, uninterrupted: dict[str, tuple]) -> None:
    resumed = harness_run(config)
    out, err = resumed.communicate(timeout=600)
    assert resumed.returncode == 0, err
    assert f"{TOTAL} games, {partial} reused, {TOTAL - partial} played" in err, err
    assert "Traceback" not in out + err
    assert stored(folder / "results" / "rr") == uninterrupted


@pytest.mark.slow
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP, signal.SIGINT], ids=lambda s: s.name)
def test_a_signal_stops_the_run_promptly_keeps_its_games_and_leaves_nothing(
        tmp_path: Path, sig: signal.Signals, uninterrupted: dict[str, tuple], no_leftovers: None) -> None:
    config = make_job(tmp_path, games=1)
    results = tmp_path / "results" / "rr"
    db = results / "results.sqlite"
    run, watch, before = start_and_watch(config, db)

    os.kill(run.pid, sig)  # the coordinator alone, as systemd, a closed terminal or Ctrl-C would
    sent = time.monotonic()
    try:
        out, err = run.communicate(timeout=STOP_BOUND)
    except subprocess.TimeoutExpired:
        kill(watch.alive())
        run.communicate()
        pytest.fail(f"the run did not stop within {STOP_BOUND} s of {sig.name}")
    took = time.monotonic() - sent
    assert run.returncode != 0, (f"an interrupted run exited 0 ({sig.name} sent with {before} of {TOTAL} "
                                 f"games stored, {count_games(db)} stored at the end): {err}")
    assert run.returncode == 130, (run.returncode, err)  # as for Ctrl-C (harness/cli.py)
    assert "Traceback" not in out + err, err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "finished games are kept" in lines[0], err
    if sig != signal.SIGINT:
        assert sig.name in lines[0], err  # "stopped by SIGTERM"

    # Every finished game kept, none charged to the harness by the interruption.
    partial = count_games(db)
    assert before <= partial < TOTAL, (before, partial)
    with ResultsStore(results, lock=False) as store:
        runs = store.runs()
        assert not any(r.harness_fault for _, r in store.records()), "the interruption was recorded as a fault"
    assert [r["status"] for r in runs] == ["interrupted"], runs
    assert runs[0]["ended"] is not None and runs[0]["games"] == TOTAL
    assert partial - 1 <= runs[0]["played"] <= partial, (runs[0]["played"], partial)

    # Nothing of the run is left: coordinator, pool workers, resource tracker, bots.
    left = watch.wait_until_gone(timeout=30)
    kill(left)
    assert left == {}, f"processes of the run outlived it ({sig.name}, stopped in {took:.1f} s): {left}"

    # The same command again resumes, sweeps what the killed workers' bots left, and ends with
    # the store of an uninterrupted run.
    resume_and_compare(config, tmp_path, partial, uninterrupted)
    with ResultsStore(results, lock=False) as store:
        assert [r["status"] for r in store.runs()] == ["interrupted", "complete"]
    assert watch.leftover_files() == {}, "cgroups or folders of the interrupted run's bots were not swept"


@pytest.mark.slow
def test_kill_9_of_the_coordinator_alone_takes_its_pool_and_bots_with_it(
        tmp_path: Path, uninterrupted: dict[str, tuple], no_leftovers: None) -> None:
    config = make_job(tmp_path, games=1)
    results = tmp_path / "results" / "rr"
    db = results / "results.sqlite"
    run, watch, before = start_and_watch(config, db)
    os.kill(run.pid, signal.SIGKILL)  # not its process group: the workers must follow by themselves
    run.communicate(timeout=60)
    assert run.returncode == -signal.SIGKILL

    left = watch.wait_until_gone(timeout=60)
    kill(left)
    assert left == {}, f"processes of the run outlived its coordinator's kill -9: {left}"

    partial = count_games(db)
    assert before <= partial < TOTAL
    with ResultsStore(results, lock=False) as store:
        assert [r["status"] for r in store.runs()] == ["running"]  # killed: it could record nothing
    resume_and_compare(config, tmp_path, partial, uninterrupted)
    assert watch.leftover_files() == {}, "cgroups or folders of the killed run's bots were not swept"


def test_a_signal_held_while_the_run_writes_its_record_is_delivered_after_it_not_lost() -> None:
    from harness.tournament.execute import HeldSignals, Interrupted

    def stop(signum: int, _frame: object) -> None:
        raise Interrupted(signal.Signals(signum).name)

    before = signal.signal(signal.SIGTERM, stop)
    # Ctrl-C as Python sets it up (a test run started in the background has it ignored).
    sigint = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        held = HeldSignals()
        os.kill(os.getpid(), signal.SIGTERM)
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(0.01)  # the handler runs in this thread, between bytecodes: nothing is raised
        assert held.caught == [signal.SIGTERM, signal.SIGINT]
        with pytest.raises(Interrupted, match="SIGTERM"):
            held.release(deliver=True)  # a run that had finished stops now, by the first signal
        assert signal.getsignal(signal.SIGTERM) is stop

        dropped = HeldSignals()
        os.kill(os.getpid(), signal.SIGTERM)
        time.sleep(0.01)
        dropped.release(deliver=False)  # a run already stopping: a second signal changes nothing
        assert dropped.caught == [signal.SIGTERM]
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    finally:
        signal.signal(signal.SIGTERM, before)
        signal.signal(signal.SIGINT, sigint)


def test_a_signal_ignored_when_the_run_starts_stays_ignored() -> None:
    """``nohup harness run course &``: closing the terminal (SIGHUP) must not stop the run."""
    from harness.tournament.execute import HeldSignals, interrupt_on_signals

    saved = {s: signal.getsignal(s) for s in (signal.SIGTERM, signal.SIGHUP)}
    signal.signal(signal.SIGHUP, signal.SIG_IGN)
    try:
        interrupt_on_signals()
        assert signal.getsignal(signal.SIGHUP) is signal.SIG_IGN
        assert callable(signal.getsignal(signal.SIGTERM))  # not ignored: it stops the run
        held = HeldSignals()
        os.kill(os.getpid(), signal.SIGHUP)
        time.sleep(0.01)
        held.release(deliver=True)  # nothing to deliver: the ignored signal was never held
        assert held.caught == [] and signal.getsignal(signal.SIGHUP) is signal.SIG_IGN
    finally:
        for sig, handler in saved.items():
            signal.signal(sig, handler)


def test_a_signal_as_the_last_game_ends_stops_the_run_after_its_record_is_complete(tmp_path: Path) -> None:
    from harness.config import load_config
    from harness.tournament.execute import Interrupted, interrupt_on_signals, run_job

    def standings_met_by_sigterm(job: object) -> list[dict[str, str]]:
        # A real SIGTERM while the finished run writes its record, as when systemd stops it just
        # as its last game ends.
        os.kill(os.getpid(), signal.SIGTERM)
        time.sleep(0.05)  # the handler runs here if it is not held
        return [{"login": "ann"}]

    job = load_config(make_job(tmp_path, games=1)).resolve("rr")[0]
    saved = {s: signal.getsignal(s) for s in (signal.SIGTERM, signal.SIGHUP)}
    interrupt_on_signals()
    try:
        with pytest.raises(Interrupted, match="SIGTERM"):
            run_job(job, LocalExecutor(2), standings_of=standings_met_by_sigterm)
    finally:
        for sig, handler in saved.items():
            signal.signal(sig, handler)
    with ResultsStore(job.results, lock=False) as store:
        runs = store.runs()
    assert count_games(job.results / "results.sqlite") == 40
    assert [r["status"] for r in runs] == ["complete"] and runs[0]["played"] == 40
    assert runs[0]["standings"] == [{"login": "ann"}]  # the record was written before the signal acted


def _sleeps(task: bytes) -> dict[str, object]:
    """A game that outlasts the test (a pool worker's work)."""
    time.sleep(60)
    return {}


def test_closing_a_pool_whose_queued_games_fill_its_pipe_returns_at_once() -> None:
    """Real courses' games carry their bots' code (tens of KiB each): the pool's queue of games
    not yet taken fills the pipe to its workers. Killing the workers then left the queue's feeder
    blocked on that pipe, and the pool's shutdown (and the interpreter's exit) joined it: a run
    stopped by Ctrl-C or SIGTERM, or one that lost a worker, hung for good."""
    executor = LocalExecutor(2)
    games = executor.run([b"x" * (1 << 20) for _ in range(8)], _sleeps)  # 4 queued: 4 MiB for a 64 KiB pipe
    first = threading.Thread(target=lambda: next(games, None), daemon=True)
    first.start()
    deadline = time.monotonic() + 60
    while len(getattr(executor.pool, "_processes", None) or {}) < 2 and time.monotonic() < deadline:
        time.sleep(0.05)  # both workers started: the queue's feeder is writing to them
    time.sleep(1.0)
    closer = threading.Thread(target=executor.close, daemon=True)
    closer.start()
    closer.join(30)
    assert not closer.is_alive(), "closing the pool hung on its queue's feeder"


@pytest.mark.slow
def test_sigterm_stops_a_run_of_the_streky_reference_players(tmp_path: Path, no_leftovers: None) -> None:
    """The run that hung on SIGTERM before the fix above: the Štreky reference players (their code
    is the largest of the shipped bots), two games at once."""
    from tests.sandbox.loadgen import JOBS, REPO

    (tmp_path / "tournaments.yaml").write_text(JOBS.format(repo=REPO, workers=2, results=tmp_path / "results"))
    run = subprocess.Popen([sys.executable, "-m", "harness", "run", "load", "--config", str(tmp_path / "tournaments.yaml"),
                            "--no-self-check"], cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    db = tmp_path / "results" / "results.sqlite"
    deadline = time.monotonic() + 180
    while (not db.exists() or count_games(db) < 4) and run.poll() is None and time.monotonic() < deadline:
        time.sleep(0.1)
    assert run.poll() is None, "the run ended before the signal"
    os.kill(run.pid, signal.SIGTERM)
    try:
        _, err = run.communicate(timeout=STOP_BOUND)
    except subprocess.TimeoutExpired:
        run.kill()
        run.communicate()
        pytest.fail(f"the run did not stop within {STOP_BOUND} s of SIGTERM")
    assert run.returncode == 130 and "stopped by SIGTERM; finished games are kept" in err, err
