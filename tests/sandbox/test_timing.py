"""Timing: the two policies, which clock fired, the tree's CPU time, and stopping between turns.

The margin test (issue 7): with every core loaded by other processes, a bot computing 0.9 s of
CPU time per move is never flagged under the ``cpu`` policy, and one computing 1.1 s always is.
The precise false-positive/negative rates over many moves are in ``bench/bench_timing.py``.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from dataclasses import replace

import pytest

from harness.games import get_game
from harness.games.base import Call, WireObject
from harness.match import play_match
from harness.record import Verdict
from harness.sandbox import BotProcess, Limits
from harness.sandbox.timing import CpuMeter, ProcMeter, WaitMeter
from tests.conftest import BOTS, REPO
from tests.sandbox.conftest import SANDBOX_BOTS

GAME = get_game("priemspel")
BASIS = (REPO / "reference_players/priemspel/basis.py").read_bytes()
VIEW = WireObject("Spel", {"_N": 5, "_positie": 0, "_eind": 23})
CPU = Limits(policy="cpu")


def moves(source: bytes, limits: Limits, n: int) -> list:
    """``n`` calls of ``zet`` (stopping at the first failure)."""
    results = []
    with BotProcess(GAME, source, limits=limits) as bot:
        assert bot.load().ok and bot.call(Call("__init__", ("x",), "init")).ok
        for _ in range(n):
            results.append(bot.call(Call("zet", (VIEW,), "move")))
            if not results[-1].ok:
                break
    return results


def test_cpu_policy_on_a_loaded_machine(cores_loaded: int, no_leftovers: None) -> None:
    """0.9 s of CPU per move passes and 1.1 s fails, whatever the other processes do."""
    under = moves((SANDBOX_BOTS / "cpu_0_9.py").read_bytes(), CPU, 3)
    assert [r.ok for r in under] == [True] * 3, under[-1].reason
    assert all(0.88 < r.cpu < 1.0 for r in under), [r.cpu for r in under]
    over = moves((SANDBOX_BOTS / "cpu_1_1.py").read_bytes(), CPU, 3)
    assert len(over) == 1 and over[0].verdict is Verdict.TIMEOUT and over[0].clock == "cpu", over[0].reason
    assert re.search(r"(used more than 1 s of CPU time|took 1\.\d+ s of CPU time, over the 1 s limit)", over[0].reason)


@pytest.mark.parametrize("policy", ["wall", "cpu"])
def test_a_loaded_machine_costs_no_bot_its_game(policy: str, cores_loaded: int, no_leftovers: None) -> None:
    """Both policies judge the bot's own time: 0.9 s of work a move always passes, 1.1 s never does.

    Each core runs a busy loop in another session, so the bot waits for a CPU on every move:
    its wall-clock time is well over 1 s (the wait is measured, not charged), yet the clocks
    still see a bot over the limit.
    """
    limits = Limits(policy=policy)
    under = moves((SANDBOX_BOTS / "cpu_0_9.py").read_bytes(), limits, 3)
    assert [r.ok for r in under] == [True] * 3, under[-1].reason
    assert all(r.wall - r.waited < 1.0 for r in under), [(r.wall, r.waited) for r in under]
    over = moves((SANDBOX_BOTS / "cpu_1_1.py").read_bytes(), limits, 3)
    assert len(over) == 1 and over[0].verdict is Verdict.TIMEOUT, over[0].reason
    assert over[0].clock == policy, over[0].reason
    if policy == "wall":
        assert re.search(r"(did not return within 1 s|took 1\.\d+ s of wall-clock time, over the 1 s limit)",
                         over[0].reason), over[0].reason


def test_the_load_really_delayed_the_bot(cores_loaded: int, no_leftovers: None) -> None:
    """The control for the test above: under this load a 0.9 s move does wait for a CPU."""
    (r,) = moves((SANDBOX_BOTS / "cpu_0_9.py").read_bytes(), Limits(), 1)
    assert r.ok and r.waited > 0.1 and r.wall > 1.0, (r.wall, r.waited)


def test_the_backstop_stops_a_bot_that_does_not_compute(no_leftovers: None) -> None:
    """Under the cpu policy a sleeping bot uses no CPU: the wall-clock backstop (3x) ends its call."""
    start = time.perf_counter()
    results = moves((BOTS / "priemspel" / "sleeps.py").read_bytes(), replace(CPU, move=0.3), 1)
    assert time.perf_counter() - start < 5
    (r,) = results
    assert r.verdict is Verdict.TIMEOUT and r.clock == "wall", r.reason
    assert "did not return within the wall-clock backstop of 0.9 s" in r.reason


def test_the_record_says_which_clock_fired(no_leftovers: None) -> None:
    record = play_match(GAME, [(SANDBOX_BOTS / "cpu_1_1.py").read_bytes(), BASIS], seed=1, limits=CPU)
    assert record.players[0].verdict is Verdict.TIMEOUT
    assert "of CPU time" in record.players[0].reason
    record = play_match(GAME, [(BOTS / "priemspel" / "busy_1_1.py").read_bytes(), BASIS], seed=1)
    assert record.players[0].verdict is Verdict.TIMEOUT
    assert re.search(r"did not return within 1 s|of wall-clock time", record.players[0].reason)


def test_cpu_time_covers_every_thread(no_leftovers: None) -> None:
    """A thread the bot started computes while zet() waits for it: its CPU time is charged to the call."""
    source = b'''
import threading, time
def burn():
    start = time.thread_time()
    while time.thread_time() - start < 0.3:
        pass
class Player:
    def __init__(self, name):
        pass
    def zet(self, spel):
        t = threading.Thread(target=burn)
        t.start()
        t.join()
        return 2
'''
    # The cpu policy: a thread that lives only within one call takes its wait for a CPU with it
    # (the wall clocks cannot credit it), so on a loaded machine the wall policy could charge it.
    (r,) = moves(source, CPU, 1)
    assert r.ok and r.cpu is not None and r.cpu > 0.29, (r.cpu, r.wall)  # the thread's 0.3 s, on any load


def test_stopping_between_turns_does_not_delay_the_next_call(no_leftovers: None) -> None:
    """A bot stopped during its opponent's turns answers its next call at once (SIGCONT first)."""
    trivial = b"class Player:\n    def __init__(self, n):\n        pass\n    def zet(self, spel):\n        return 2\n"
    with BotProcess(GAME, trivial) as a, BotProcess(GAME, trivial) as b:
        for bot in (a, b):
            assert bot.load().ok and bot.call(Call("__init__", ("x",), "init")).ok
        walls = []
        for _ in range(5):
            assert a.call(Call("zet", (VIEW,), "move")).ok
            assert b.call(Call("zet", (VIEW,), "move")).ok  # a is stopped now
            assert a._paused
            time.sleep(0.05)
            r = a.call(Call("zet", (VIEW,), "move"))
            assert r.ok
            walls.append(r.wall)
    assert min(walls) < 0.01, walls


def test_proc_meter_trusts_a_report_that_agrees_and_overrides_one_that_lies() -> None:
    meter = ProcMeter.__new__(ProcMeter)
    meter.fd = None
    assert meter.judge(0.50, 0.503) == 0.503  # finer than /proc's 10 ms ticks: the report
    assert meter.judge(0.50, 0.49) == 0.49  # within two ticks
    assert meter.judge(1.20, 0.0) == 1.20  # a worker patched to report nothing: /proc counts
    assert meter.judge(None, 0.3) == 0.3  # /proc unreadable: the report is all there is
    assert CpuMeter().judge(None, 0.7) == 0.7


@pytest.mark.parametrize("isolation", ["auto", "plain"])
def test_measured_cpu_time_is_accurate(isolation: str, no_leftovers: None) -> None:
    """The parent's figure for 0.9 s of the bot's CPU is within 20 ms of it."""
    (r,) = moves((SANDBOX_BOTS / "cpu_0_9.py").read_bytes(), Limits(isolation=isolation, policy="cpu"), 1)
    assert r.ok and abs(r.cpu - 0.9) < 0.02, r.cpu


@pytest.mark.skipif(not hasattr(os, "SCHED_IDLE"), reason="Linux scheduling classes")
def test_a_bot_that_lowers_its_priority_gets_no_credit_for_waiting() -> None:
    """Its wait for a CPU would be its own choice: WaitMeter.lowered tells (real processes)."""
    code = "import os, sys, time\nif sys.argv[1] == 'idle':\n    os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))\n" \
           "print('ready', flush=True)\ntime.sleep(60)\n"
    procs = {how: subprocess.Popen([sys.executable, "-c", code, how], stdout=subprocess.PIPE) for how in ("idle", "normal")}
    try:
        for proc in procs.values():
            assert proc.stdout is not None and proc.stdout.readline() == b"ready\n"
        meters = {how: WaitMeter(proc.pid) for how, proc in procs.items()}
        assert meters["idle"].lowered() and not meters["normal"].lowered()
        for meter in meters.values():
            meter.close()
    finally:
        for proc in procs.values():
            proc.kill()
            proc.wait()
