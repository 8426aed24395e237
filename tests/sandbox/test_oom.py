"""Kills the harness did not send: a bot's cap is the bot's; a SIGKILL without evidence is its crash.

Only the bot's own evidence counts (its own cgroup's OOM counters). The host's OOM killer
firing for real, the OOM alibi and the replay rule are in ``tests/hostile/test_oom_evidence.py``;
here a real SIGKILL from outside kills the bot mid-call, and the bot's own memory cap is
exercised for real.
"""

from __future__ import annotations

import os
import signal
import threading
import time
from pathlib import Path

import pytest

from harness.games import get_game
from harness.games.base import Call, WireObject
from harness.record import Verdict
from harness.sandbox import BotProcess, Limits, bubblewrap, cgroup, procfs
from harness.match import play_match
from harness.sandbox.limits import CallResult
from harness.tournament.store import ResultsStore
from tests.conftest import REPO

GAME = get_game("priemspel")
VIEW = WireObject("Spel", {"_N": 5, "_positie": 0, "_eind": 23})
BASIS = (REPO / "reference_players/priemspel/basis.py").read_bytes()
SLEEPER = b"import time\n\nclass Player:\n    def __init__(self, name):\n        pass\n\n" \
          b"    def zet(self, spel):\n        time.sleep(30)\n        return 2\n"
LIMITS = Limits(init=5.0, move=60.0)


def killed_mid_call(bot: BotProcess) -> CallResult:
    """``zet`` on a bot that sleeps; a SIGKILL from outside the harness arrives while it runs."""
    assert bot.load().ok and bot.call(Call("__init__", ("x",), "init")).ok
    pid = bot.worker_pid
    assert pid is not None

    def kill() -> None:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and procfs.is_stopped(pid):  # wait until its call is on
            time.sleep(0.01)
        time.sleep(0.3)
        os.kill(pid, signal.SIGKILL)

    killer = threading.Thread(target=kill)
    killer.start()
    try:
        return bot.call(Call("zet", (VIEW,), "move"))
    finally:
        killer.join()


@pytest.mark.parametrize("isolation", ["auto", "plain"])
def test_a_kill_without_the_bot_s_own_evidence_is_a_crash(isolation: str, no_leftovers: None) -> None:
    """Whatever else happens on the machine: no OOM kill in the bot's own cgroup, no excuse."""
    with BotProcess(GAME, SLEEPER, limits=Limits(init=5.0, move=60.0, isolation=isolation)) as bot:
        result = killed_mid_call(bot)
        assert bot.cgroup is None or bot.cgroup.oom_evidence() is None
    assert result.verdict is Verdict.CRASH, result.reason
    assert result.reason == "the bot's process was killed by SIGKILL during zet()" and not result.cause


def test_a_record_keeps_the_cause_and_the_replays_only_when_there_are_some(tmp_path: Path) -> None:
    """Old records (and their exports) are unchanged; new fields round-trip through the store."""
    record = play_match(GAME, [BASIS, BASIS], seed=1, limits=LIMITS)
    data = record.to_json()
    assert "replays" not in data and all("cause" not in p for p in data["players"])
    record.players[0].verdict, record.players[0].cause = Verdict.HARNESS_ERROR, "host_oom"
    record.replays = [{"login": "player1", "cause": "host_oom", "reason": "killed"}]
    with ResultsStore(tmp_path) as store:
        store.put("k", "job", record)
        assert "k" not in store.done_keys()
        back = store.fault("k")
    assert back is not None and back.players[0].cause == "host_oom" and back.replays == record.replays


MEMORY_HOG = (b"class Player:\n    def __init__(self, name):\n        pass\n\n"
              b"    def zet(self, spel):\n"
              b"        chunk = b'x' * (15 << 20)\n"  # files in its tmpfs: memory of its cgroup, not of its address space
              b"        for i in range(40):\n"
              b"            with open(f'f{i}', 'wb') as f:\n"
              b"                f.write(chunk)\n"
              b"        return 2\n")


@pytest.mark.skipif(not bubblewrap.support().available or not cgroup.support().available,
                    reason="the bot's tmpfs and memory cgroup need bubblewrap and writable cgroups")
def test_a_bot_over_its_own_memory_cap_stays_memory(no_leftovers: None) -> None:
    """Killed by the OOM killer of its own cgroup (at its cap): its own evidence says "cap".

    The cgroup's cap leaves room for the bot's address space (RLIMIT_AS) and its tmpfs, so a bot
    cannot reach it unaided: the test lowers it below what the bot's tmpfs will hold, and the
    kernel really kills the bot at it.
    """
    limits = Limits(init=5.0, move=60.0, work_bytes=1 << 30, isolation="bwrap")
    with BotProcess(GAME, MEMORY_HOG, limits=limits) as bot:
        assert bot.load().ok and bot.call(Call("__init__", ("x",), "init")).ok
        assert bot.cgroup is not None and "memory" in bot.cgroup.dirs
        bot.cgroup.set_limits(limits.max_tasks, 160 << 20)
        result = bot.call(Call("zet", (VIEW,), "move"))
        assert bot.cgroup is not None and bot.cgroup.oom_evidence() == "cap"
    assert result.verdict is Verdict.MEMORY, result.reason
    assert result.reason == "the bot's process was killed at the memory cap (1 GiB) during zet()"
