"""Kills the harness did not send: the host's OOM killer is the harness's fault, the bot's cap is the bot's.

The host's OOM killer cannot be fired here without hurting the machine, so its counter (the
``oom_kill`` line of /proc/vmstat, :func:`harness.sandbox.procfs.oom_kills`) is the seam: the
test says what it read, and a real SIGKILL from outside kills the bot mid-call. The bot's own
memory cap is exercised for real.
"""

from __future__ import annotations

import os
import signal
import threading
import time
from collections.abc import Iterator
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


@pytest.fixture
def host_oom(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """The host's OOM-killer count as the harness reads it: the test appends a kill."""
    count = [7]
    monkeypatch.setattr(procfs, "oom_kills", lambda: count[0])
    yield count


def killed_mid_call(bot: BotProcess, during: list[int] | None = None) -> CallResult:
    """``zet`` on a bot that sleeps; a SIGKILL from outside the harness arrives while it runs
    (and, if ``during`` is given, the host's OOM-killer count rises just before)."""
    assert bot.load().ok and bot.call(Call("__init__", ("x",), "init")).ok
    pid = bot.worker_pid
    assert pid is not None

    def kill() -> None:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and procfs.is_stopped(pid):  # wait until its call is on
            time.sleep(0.01)
        time.sleep(0.3)
        if during is not None:
            during[0] += 1
        os.kill(pid, signal.SIGKILL)

    killer = threading.Thread(target=kill)
    killer.start()
    try:
        return bot.call(Call("zet", (VIEW,), "move"))
    finally:
        killer.join()


def test_a_kill_while_the_host_s_oom_killer_fires_is_the_harness_s_fault(host_oom: list[int],
                                                                          no_leftovers: None) -> None:
    with BotProcess(GAME, SLEEPER, limits=LIMITS) as bot:
        result = killed_mid_call(bot, host_oom)
    assert result.verdict is Verdict.HARNESS_ERROR and not result.verdict.charged, result.reason
    assert result.reason.startswith("the bot's process was killed by SIGKILL during zet() while the machine's "
                                    "OOM killer was killing processes"), result.reason


def test_the_same_kill_without_the_oom_killer_is_a_crash(host_oom: list[int], no_leftovers: None) -> None:
    with BotProcess(GAME, SLEEPER, limits=LIMITS) as bot:
        result = killed_mid_call(bot)
    assert result.verdict is Verdict.CRASH, result.reason
    assert result.reason == "the bot's process was killed by SIGKILL during zet()"


def test_such_a_game_charges_no_one_and_is_played_again(host_oom: list[int], monkeypatch: pytest.MonkeyPatch,
                                                         tmp_path: Path, no_leftovers: None) -> None:
    """A whole game: the host's OOM killer kills one bot mid-game. No one is charged, and the
    store keeps the game only until it is played again (as every harness_error game)."""
    call = BotProcess.call

    def kill_during_the_first_move(bot: BotProcess, c: Call, **how: bool) -> CallResult:
        if bot.label == "victim" and c.method == "zet" and bot.worker_pid is not None:
            threading.Timer(0.3, lambda pid=bot.worker_pid: (host_oom.__setitem__(0, host_oom[0] + 1),
                                                              os.kill(pid, signal.SIGKILL))).start()
        return call(bot, c, **how)

    monkeypatch.setattr(BotProcess, "call", kill_during_the_first_move)
    record = play_match(GAME, [SLEEPER, BASIS], seed=1, logins=["victim", "basis"], limits=LIMITS)
    assert [p.verdict for p in record.players] == [Verdict.HARNESS_ERROR, Verdict.OK], record.players[0].reason
    assert record.harness_fault and record.winner is None
    with ResultsStore(tmp_path) as store:
        store.put("k", "job", record)
        assert "k" not in store.done_keys()


MEMORY_HOG = (b"class Player:\n    def __init__(self, name):\n        pass\n\n"
              b"    def zet(self, spel):\n"
              b"        chunk = b'x' * (15 << 20)\n"  # files in its tmpfs: memory of its cgroup, not of its address space
              b"        for i in range(40):\n"
              b"            with open(f'f{i}', 'wb') as f:\n"
              b"                f.write(chunk)\n"
              b"        return 2\n")


@pytest.mark.skipif(not bubblewrap.support().available or not cgroup.support().available,
                    reason="the bot's tmpfs and memory cgroup need bubblewrap and writable cgroups")
def test_a_bot_over_its_own_memory_cap_stays_memory(host_oom: list[int], no_leftovers: None) -> None:
    """Killed by the OOM killer of its own cgroup (at its cap), even while the host's count rose too.

    The cgroup's cap leaves room for the bot's address space (RLIMIT_AS) and its tmpfs, so a bot
    cannot reach it unaided: the test lowers it below what the bot's tmpfs will hold, and the
    kernel really kills the bot at it.
    """
    limits = Limits(init=5.0, move=60.0, work_bytes=1 << 30, isolation="bwrap")
    with BotProcess(GAME, MEMORY_HOG, limits=limits) as bot:
        assert bot.load().ok and bot.call(Call("__init__", ("x",), "init")).ok
        assert bot.cgroup is not None and "memory" in bot.cgroup.dirs
        bot.cgroup.set_limits(limits.max_tasks, 160 << 20)
        host_oom[0] += 1  # a kill elsewhere on the machine meanwhile does not excuse the bot
        result = bot.call(Call("zet", (VIEW,), "move"))
    assert result.verdict is Verdict.MEMORY, result.reason
    assert result.reason == "the bot's process was killed at the memory cap (1 GiB) during zet()"
