"""The timing rule (sandbox/bot/deadline.py), as tables: figures in, a decision and its text out.

The end-to-end timing tests (real bots, real load) are in test_timing.py and test_stuck.py;
here every branch of the rule is pinned without a process or a clock.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from harness.games import get_game
from harness.sandbox.bot import deadline
from harness.sandbox.bot.deadline import Allowance
from harness.sandbox.limits import Limits

WALL = Allowance(1.0, "wall", 3.0, 0.25)
CPU = Allowance(1.0, "cpu", 1.5, 0.25)


def test_an_allowance_states_each_bound() -> None:
    assert (WALL.own, WALL.cpu, WALL.kill_own, WALL.kill_cpu, WALL.ceiling) == (1.0, None, 1.25, None, 30.25)
    assert (CPU.own, CPU.cpu, CPU.kill_own, CPU.kill_cpu, CPU.ceiling) == (1.5, 1.0, 1.75, 1.25, 30.25)
    # A long grace never makes the ceiling come before the kill.
    assert Allowance(1.0, "cpu", 40.0, 0.25).ceiling == 40.25
    # What a bot's process might send is clamped, never trusted as a verdict.
    assert (Allowance(1.0, "cosmic", 0.1).policy, Allowance(1.0, "cpu", 0.1).backstop) == ("wall", 1.0)


@pytest.mark.parametrize(("wall", "wait", "cpu", "cores", "own"), [
    (1.0, 0.0, None, 1, 1.0),  # nobody waited: all of it is the bot's
    (2.0, 1.2, None, 1, 0.8),  # the wait for a CPU is not the bot's
    (11.6, 64.64, None, 1, 0.0),  # waits summed over threads exceed the call: capped at its wall time
    (11.6, 64.64, 0.9, 1, 0.9),  # ... and never below the CPU time it used
    (2.0, 1.5, 1.2, 2, 0.6),  # two threads: CPU time spread over the cores
    (2.0, -1.0, None, 1, 2.0),  # a wait that went backwards (a thread ended) credits nothing
    (0.0, 1.0, 1.0, 1, 0.0),  # no time, no own time
])
def test_own_time(wall: float, wait: float, cpu: float | None, cores: int, own: float) -> None:
    assert deadline.own_time(wall, wait, cpu, cores) == pytest.approx(own)
    assert 0.0 <= deadline.credited(wall, own) <= max(wall, 0.0)


@pytest.mark.parametrize(("allow", "own", "cpu", "clock"), [
    (WALL, 0.99, 5.0, None),  # the wall policy does not judge CPU time
    (WALL, 1.01, 0.1, "wall"),
    (CPU, 1.4, 0.99, None),  # within the backstop and the CPU limit
    (CPU, 1.4, 1.01, "cpu"),
    (CPU, 1.6, 0.5, "wall"),  # a bot that sleeps is stopped by the backstop
    (CPU, 1.6, 1.2, "cpu"),  # both: the CPU clock is named
    (CPU, 1.4, None, None),  # no CPU figure: only the backstop judges
])
def test_an_answer_that_came_back(allow: Allowance, own: float, cpu: float | None, clock: str | None) -> None:
    assert deadline.late(allow, own, cpu) == clock


@pytest.mark.parametrize(("allow", "wall", "own", "cpu", "clock"), [
    (WALL, 1.2, 1.2, None, None),  # within the grace
    (WALL, 1.3, 1.3, None, "wall"),
    (WALL, 5.0, 0.5, None, None),  # waited 4.5 s for a CPU: not its time
    (WALL, 30.3, 0.5, None, "ceiling"),  # ... but never past the ceiling
    (CPU, 1.3, 1.3, 1.2, None),
    (CPU, 1.3, 1.3, 1.3, "cpu"),
    (CPU, 1.8, 1.8, 0.1, "wall"),  # the backstop, with the grace
    (CPU, 1.8, 1.8, 1.3, "wall"),  # both: the wall clock, as the parent always said
])
def test_a_call_still_running(allow: Allowance, wall: float, own: float, cpu: float | None, clock: str | None) -> None:
    assert deadline.running_over(allow, wall, own, cpu) == clock


@pytest.mark.parametrize(("allow", "own", "cpu", "cores", "known", "verdict"), [
    (WALL, 1.0, 0.0, 2, True, "wall"),
    (WALL, 1.0, 0.0, 2, False, 0.05),  # threads of the bot's own: the parent's wall clock judges
    (WALL, 0.5, 0.0, 2, True, 0.5),  # sleep until it could be over
    (CPU, 0.5, 0.6, 2, True, 0.2),  # CPU grows at most twice as fast on two cores
    (CPU, 0.5, 1.0, 2, True, "cpu"),
    (CPU, 1.5, 0.2, 2, True, "wall"),
    (CPU, 0.5, 0.999, 1, True, 0.002),  # never a busy wait
])
def test_the_worker_s_clock(allow: Allowance, own: float, cpu: float, cores: int, known: bool,
                            verdict: str | float) -> None:
    got = deadline.worker_over(allow, own, cpu, cores, known)
    assert got == pytest.approx(verdict) if isinstance(verdict, float) else got == verdict


@pytest.mark.parametrize(("allow", "clock", "wall", "own", "cpu", "reason"), [
    (WALL, "wall", 1.5, 1.2, 0.4, "zet() took 1.200 s of wall-clock time, over the 1 s limit "
                                  "(0.30 s of it waiting for a CPU, not counted)"),
    (WALL, "wall", 1.2, 1.2, 0.4, "zet() took 1.200 s of wall-clock time, over the 1 s limit"),
    (CPU, "cpu", 1.5, 1.5, 1.1, "zet() took 1.100 s of CPU time, over the 1 s limit (1.500 s of wall-clock time)"),
    (CPU, "wall", 2.0, 1.6, 0.1, "zet() took 1.600 s of wall-clock time, over the 1.5 s backstop of the "
                                 "CPU-time policy (0.40 s of it waiting for a CPU, not counted)"),
])
def test_late_reasons(allow: Allowance, clock: str, wall: float, own: float, cpu: float, reason: str) -> None:
    assert deadline.late_reason(allow, "zet()", clock, wall, own, cpu) == reason


@pytest.mark.parametrize(("allow", "clock", "wall", "own", "cpu", "stuck", "stopped", "reason"), [
    (WALL, "wall", 1.63, 1.3, 1.2, "", False,
     "zet() did not return within 1 s; killed after 1.63 s, having used 1.20 s of CPU time "
     "(0.33 s of it waiting for a CPU, not counted)"),
    (WALL, "wall", 1.63, 1.3, 1.2, " at player.py line 7 in zet", False,
     "zet() did not return within 1 s; killed after 1.63 s, having used 1.20 s of CPU time "
     "(0.33 s of it waiting for a CPU, not counted) (stuck at player.py line 7 in zet)"),
    # Issue 26: an 11.6 s call never reports more waiting than its wall time (here: all but its CPU).
    (WALL, "wall", 11.6, deadline.own_time(11.6, 64.64, 0.9), 0.9, "", False,
     "zet() did not return within 1 s; killed after 11.60 s, having used 0.90 s of CPU time "
     "(10.70 s of it waiting for a CPU, not counted)"),
    (WALL, "wall", 1.3, 1.3, None, "", True,
     "zet() did not return within 1 s; killed after 1.30 s (its process was stopped: it sent itself SIGSTOP?)"),
    (CPU, "cpu", 1.4, 1.4, 1.26, "", False,
     "zet() used more than 1 s of CPU time (1.26 s when killed after 1.40 s of wall-clock time)"),
    (CPU, "wall", 1.8, 1.8, 0.0, "", False,
     "zet() did not return within the wall-clock backstop of 1.5 s (1.5x the 1 s CPU-time limit); "
     "killed after 1.80 s, having used 0.00 s of CPU time"),
    (WALL, "ceiling", 30.3, 0.5, 0.2, "", False,
     "zet() did not return within 30x its 1 s limit of wall-clock time, however long it waited for a CPU; "
     "killed after 30.30 s, having used 0.20 s of CPU time"),
])
def test_killed_reasons(allow: Allowance, clock: str, wall: float, own: float, cpu: float | None, stuck: str,
                        stopped: bool, reason: str) -> None:
    assert deadline.killed_reason(allow, "zet()", clock, wall, own, cpu, stuck, stopped) == reason


@pytest.mark.parametrize(("allow", "clock", "where", "reason"), [
    (WALL, "wall", " at player.py line 7 in zet", "zet() did not return within 1 s (stuck at player.py line 7 in zet)"),
    (CPU, "cpu", "", "zet() used more than 1 s of CPU time"),
    (CPU, "wall", "", "zet() did not return within the wall-clock backstop of 1.5 s"),
])
def test_worker_reasons(allow: Allowance, clock: str, where: str, reason: str) -> None:
    assert deadline.worker_reason(allow, "zet()", clock, where) == reason
    assert deadline.stuck_at(reason) == where


@pytest.mark.parametrize(("reason", "stuck"), [
    ("x (stuck at player.py line 12 in play)", " at player.py line 12 in play"),
    ("x (stuck at helper_2.py line 3 in <listcomp>); 1.0 s", " at helper_2.py line 3 in <listcomp>"),
    ("x (stuck at player.py line 12 in play", ""),  # cut short
    ("x (stuck at player.py line 12 in play) and more", " at player.py line 12 in play"),
    ("x (stuck at pla\x1b[2Jyer.py line 1 in f)", ""),  # a terminal escape
    ("x (stuck at player.py line 1 in f; killed)", ""),
    ("x (stuck at player.py line ١٢ in f)", ""),  # digits, but not ASCII
    ("x (stuck at /etc/passwd line 1 in f)", ""),  # a path, not a file name
    ("x (stuck at player.py line 1 in " + "f" * 200 + ")", ""),  # capped
    ("x (stuck at player.py line 1 in f g)", ""),
    ("no place", ""),
])
def test_only_a_plain_place_is_taken_from_a_bot_s_process(reason: str, stuck: str) -> None:
    assert deadline.stuck_at(reason) == stuck


def test_the_module_is_pure() -> None:
    """No imports at all: it runs in the bot's process too, where every import costs each start."""
    tree = ast.parse(Path(deadline.__file__).read_text())
    assert not [n for n in ast.walk(tree) if isinstance(n, (ast.Import, ast.ImportFrom))]


def test_one_way_to_build_a_game_s_default_limits() -> None:
    game = get_game("priemspel")
    limits = Limits.default(game)
    assert (limits.policy, limits.backstop, limits.move, limits.init) == (
        deadline.DEFAULT_POLICY, deadline.DEFAULT_BACKSTOP, game.move_limit, game.init_limit)
    assert Limits.default(game, "wall").policy == "wall"
    assert Limits.default(policy=None) == Limits(policy="cpu", backstop=deadline.DEFAULT_BACKSTOP)
