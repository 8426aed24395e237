"""Kills judged from the bot's own evidence, in both tiers, for real.

* The OOM alibi: one bot forks children into its own memory cap (the kernel's OOM killer kills
  them; the machine's count of OOM kills rises) and plays on; its opponent kills itself with
  SIGKILL at that moment. The opponent's own cgroup counted no OOM kill: its death is its
  ``crash``, never the harness's fault.
* An honest host OOM: the whole game runs inside a cgroup capped below what the bots need
  together (the host short of memory), so the kernel's OOM killer really kills a bot that is
  under its own cap: ``harness_error``, caused by that bot's process (``host_oom``), replayed
  once, and charged if the same bot's process is killed again in the replay.
"""

from __future__ import annotations

import os
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from harness.config import load_config
from harness.games import get_game
from harness.match import play_match
from harness.record import Verdict
from harness.sandbox import Limits, cgroup, container, launcher, reaper
from harness.sandbox.isolation import use_bwrap
from harness.sandbox.limits import HOST_OOM
from harness.tournament.execute import Executor, run_job
from harness.tournament.store import ResultsStore
from tests.hostile.conftest import HOSTILE, REPO

GAME = get_game("priemspel")
BASIS = (REPO / "reference_players/priemspel/basis.py").read_bytes()
V = Verdict
MODES = {"auto": {}, "plain": {"isolation": "plain"}}  # bubblewrap, and the container tier (root)
# Roomy clocks: the forker's children and the victim's allocation take CPU of their cgroup.
LIMITS = Limits(init=5.0, move=20.0, memory_bytes=256 << 20)
# What both bots may hold together in the honest test: the victim needs 250 MiB under its own
# 512 MiB cap, its opponent (the seed's basic strategy) a few MiB.
HOST_BYTES = 160 << 20

# The bot files this module pins (tests/hostile/test_hostile.py's completeness check).
ALIBI = {"oom_alibi_forker": V.OK, "oom_alibi_self_kill": V.CRASH, "oom_host_victim": V.OK}

needs_memory_cgroup = pytest.mark.skipif("memory" not in cgroup.support().controllers,
                                         reason="the bots' memory caps need a writable memory cgroup")


def machine_oom_kills() -> int:
    """The machine-wide count the harness no longer reads (``oom_kill`` of /proc/vmstat)."""
    for line in Path("/proc/vmstat").read_text().splitlines():
        if line.startswith("oom_kill "):
            return int(line.split()[1])
    return -1


def source(name: str) -> bytes:
    return (HOSTILE / f"{name}.py").read_bytes()


@needs_memory_cgroup
@pytest.mark.parametrize("mode", sorted(MODES))
def test_an_oom_alibi_is_the_bot_s_own_crash(mode: str, no_leftovers: None) -> None:
    before = machine_oom_kills()
    record = play_match(GAME, [source("oom_alibi_forker"), source("oom_alibi_self_kill")], seed=1,
                        logins=["forker", "alibi"], limits=replace(LIMITS, **MODES[mode]))
    forker, alibi = record.players
    # The alibi was real: the kernel killed the forker's children at its cap, the machine's count rose.
    assert "children killed by SIGKILL: " in forker.stdout and not forker.stdout.strip().endswith(": 0"), forker.stdout
    assert machine_oom_kills() > before
    assert (forker.verdict, alibi.verdict) == (V.OK, V.CRASH), alibi.reason
    assert alibi.reason == "the bot's process was killed by SIGKILL during zet()" and not alibi.cause
    assert record.winner == 0 and not record.harness_fault and record.end == "verdict"
    tier = container.tier(use_bwrap(MODES[mode].get("isolation", "auto")))
    assert forker.interpreter["tier"] == alibi.interpreter["tier"] == tier


def test_without_a_cgroup_a_self_kill_is_a_crash(no_leftovers: None) -> None:
    """No cgroup (a laptop): no evidence that the host killed that process, so it is the bot's."""
    record = play_match(GAME, [BASIS, source("oom_alibi_self_kill")], seed=1, logins=["basis", "alibi"],
                        limits=replace(LIMITS, isolation="plain", cgroups=False))
    assert [p.verdict for p in record.players] == [V.OK, V.CRASH], record.players[1].reason
    assert record.players[1].reason == "the bot's process was killed by SIGKILL during zet()"


@contextmanager
def short_host(monkeypatch: pytest.MonkeyPatch, limit: int) -> Iterator[list[Path]]:
    """Every bot cgroup made meanwhile is made inside a cgroup capped at ``limit`` bytes: a host
    that has only that much memory for the game. Yields the capping cgroup(s)."""
    sup = cgroup.support()
    name = f"evidence-host-{os.getpid()}-{uuid.uuid4().hex[:8]}"
    made: list[Path] = []
    launcher.drain()  # bubblewrap started ahead sits in a cgroup outside: made again inside
    if sup.version == 1:
        roots = cgroup._v1_hierarchies()
        parent = roots["memory"] / name
        parent.mkdir()
        made.append(parent)
        (parent / "memory.limit_in_bytes").write_text(str(limit))
        monkeypatch.setattr(cgroup, "_v1_hierarchies", lambda: {**roots, "memory": parent})
    else:
        base, wanted = cgroup._v2_root() or (None, set())
        assert base is not None
        parent = base / name
        parent.mkdir()
        made.append(parent)
        enabled = set((base / "cgroup.subtree_control").read_text().split()) & {"pids", "cpu", "memory"}
        (parent / "cgroup.subtree_control").write_text(" ".join(f"+{c}" for c in sorted(enabled)))
        (parent / "memory.max").write_text(str(limit))
        try:
            (parent / "memory.swap.max").write_text("0")
        except OSError:
            pass
        monkeypatch.setattr(cgroup, "_v2_root", lambda: (parent, wanted))
    try:
        yield made
    finally:
        monkeypatch.undo()
        launcher.drain()
        assert reaper.settle()
        for path in made:
            deadline = time.monotonic() + 30
            while path.exists():
                try:
                    path.rmdir()
                except OSError:
                    if time.monotonic() > deadline:
                        raise
                    time.sleep(0.05)


def loosen(made: list[Path]) -> None:
    """The host has memory again (another job on it ended)."""
    for path in made:
        target = path / ("memory.limit_in_bytes" if cgroup.support().version == 1 else "memory.max")
        target.write_text(str(4 << 30))


@needs_memory_cgroup
@pytest.mark.parametrize("mode", sorted(MODES))
def test_an_honest_host_oom_is_the_harness_s_fault(mode: str, monkeypatch: pytest.MonkeyPatch,
                                                   no_leftovers: None) -> None:
    limits = replace(LIMITS, **MODES[mode], memory_bytes=512 << 20)
    with short_host(monkeypatch, HOST_BYTES):
        record = play_match(GAME, [source("oom_host_victim"), BASIS], seed=1, logins=["victim", "basis"],
                            limits=limits)
    victim, basis = record.players
    assert (victim.verdict, basis.verdict) == (V.HARNESS_ERROR, V.OK), victim.reason
    assert victim.cause == HOST_OOM and not basis.cause
    assert victim.reason == ("the bot's process was killed by SIGKILL during zet() by the kernel's OOM killer while "
                             "under its own memory cap (the machine ran out of memory, not the bot its cap)")
    assert record.harness_fault and record.winner is None
    # The same bot with room: it plays, under its own cap.
    again = play_match(GAME, [source("oom_host_victim"), BASIS], seed=1, logins=["victim", "basis"], limits=limits)
    assert [p.verdict for p in again.players] == [V.OK, V.OK], again.players[0].reason


class InProcess(Executor):
    """Plays each task in this process (so the short host applies), one at a time; ``after`` is
    called with every task's result as it finishes."""

    def __init__(self, after: Any = None) -> None:
        self.after = after
        self.attempts: list[str] = []

    def run(self, tasks: Any, work: Any) -> Iterator[tuple[Any, dict[str, Any] | None, str]]:
        for task in list(tasks):
            result = work(task)
            self.attempts.append(task.key)
            if self.after is not None:
                self.after(result)
            yield task, result, ""


def victim_job(tmp_path: Path, retries: int) -> Any:
    subs = tmp_path / "submissions"
    for login, data in (("victim", source("oom_host_victim")), ("calm", BASIS)):
        (subs / login).mkdir(parents=True)
        (subs / login / "player.py").write_bytes(data)
    config = tmp_path / "tournaments.yaml"
    config.write_text(f"""
jobs:
  rr:
    game: priemspel
    format: round_robin
    submissions: submissions
    settings: [{{N: 5}}]
    games: 1
    workers: 1
    retries: {retries}
    limits: {{init: 5, move: 20, memory_mb: 512}}
""")
    return load_config(config).resolve("rr")[0]


def stored(job: Any) -> list[Any]:
    with ResultsStore(job.results, lock=False) as store:
        return [r for _, r in store.records()]


@needs_memory_cgroup
def test_an_honest_host_oom_is_replayed_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                             no_leftovers: None) -> None:
    """The host runs short once: the game is replayed, plays normally, and says why it was replayed."""
    job = victim_job(tmp_path, retries=3)
    with short_host(monkeypatch, HOST_BYTES) as made:
        executor = InProcess(after=lambda result: loosen(made))
        summary = run_job(job, executor)
    records = stored(job)
    replayed = [r for r in records if r.replays]
    assert summary.faults == 0 and len(replayed) == 1 and len(executor.attempts) == len(records) + 1
    (record,) = replayed
    assert [(r["login"], r["cause"]) for r in record.replays] == [("victim", HOST_OOM)]
    assert all(p.verdict is V.OK for r in records for p in r.players)


@needs_memory_cgroup
def test_the_same_bot_cannot_cause_a_second_replay(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                   no_leftovers: None) -> None:
    """The host stays short: the victim's process is killed again in the replay. That second kill
    is charged to it (``memory``); the game is not replayed again, in this run or the next."""
    job = victim_job(tmp_path, retries=3)
    with short_host(monkeypatch, HOST_BYTES):
        executor = InProcess()
        summary = run_job(job, executor)
    records = stored(job)
    assert summary.faults == 0 and len(executor.attempts) == 2 * len(records) and records
    for record in records:
        victim = next(p for p in record.players if p.login == "victim")
        calm = next(p for p in record.players if p.login == "calm")
        assert (victim.verdict, calm.verdict) == (V.MEMORY, V.OK), victim.reason
        assert "already replayed once because the kernel's OOM killer killed this bot's process" in victim.reason
        assert [(r["login"], r["cause"]) for r in record.replays] == [("victim", HOST_OOM)]
        assert record.players[record.winner].login == "calm" and not record.harness_fault


@needs_memory_cgroup
def test_a_replay_across_runs_counts_too(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                         no_leftovers: None) -> None:
    """With no retries, the first kill is stored as a fault; the next run's replay is the one."""
    job = victim_job(tmp_path, retries=0)
    with short_host(monkeypatch, HOST_BYTES):
        first = run_job(job, InProcess())
        faults = stored(job)
        second = run_job(job, InProcess())
    assert first.faults == len(faults) and all(r.harness_fault for r in faults)
    assert all(p.cause == HOST_OOM for r in faults for p in r.players if p.verdict is V.HARNESS_ERROR)
    records = stored(job)
    assert second.faults == 0 and len(records) == len(faults)
    assert all({p.login: p.verdict for p in r.players} == {"victim": V.MEMORY, "calm": V.OK} for r in records)
