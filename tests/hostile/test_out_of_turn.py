"""A bot's processes never compute on its opponent's time (issue 19, item 4).

``timing_out_of_turn`` disarms the guard (possible: the guard is a tripwire, the kernel is the
boundary) and forks CPU burners in new sessions, out of the worker's process group. Stopping
only the worker left them running through the opponent's turns: a legal opponent computing
0.25 s of CPU a move was timed out at 1.02 s of wall-clock time. Now the bot's whole cgroup is
frozen between its turns from the moment it holds a process besides the worker.

Pinned: both verdicts (the opponent is ``ok``), the burners' share of a CPU between the bot's
calls (none to speak of), the burners' CPU charged to the bot, and nothing of the bot survives.
"""

from __future__ import annotations

import statistics
from dataclasses import replace

import pytest

from harness.match import play_match
from harness.record import Verdict
from harness.sandbox import Limits
from harness.sandbox.cgroup import support
from tests.hostile.conftest import HOSTILE, Arena
from tests.hostile.test_hostile import GAME, MODES

CPU_BASIS = (HOSTILE.parent / "opponents" / "cpu_basis.py").read_bytes()
BURNT = 0.05  # CPU seconds per line a burner reports

needs_cgroups = pytest.mark.skipif(not support().available, reason="the bot's processes are found through its cgroup")


def burners_share_between_calls(stdout: str) -> list[float]:
    """For each gap between two calls of the bot: the burners' CPU in it, in CPUs (1.0 = a core)."""
    calls: list[float] = []
    burnt: list[float] = []
    for line in stdout.splitlines():
        kind, _, stamp = line.partition(" ")
        if kind == "call":
            calls.append(float(stamp))
        elif kind == "burnt":
            burnt.append(float(stamp))
    shares = []
    # The first gap holds the burners' start; each later gap is one opponent move (0.25 s of CPU).
    for begin, end in zip(calls[1:], calls[2:]):
        # A burner may run on in the bot's own call (up to 20 ms here) before the freeze.
        inside = sum(1 for t in burnt if begin + 0.02 < t < end)
        shares.append(inside * BURNT / (end - begin))
    return shares


@needs_cgroups
@pytest.mark.parametrize("mode", ["auto", "plain"])
@pytest.mark.parametrize("policy", ["wall", "cpu"])
def test_a_bots_processes_do_not_run_in_its_opponents_turn(mode: str, policy: str, arena: Arena,
                                                           no_leftovers: None) -> None:
    limits = replace(Limits(policy=policy), **MODES[mode])
    record = play_match(GAME, [arena.source("timing_out_of_turn"), CPU_BASIS], seed=1,
                        logins=["hostile", "legal"], limits=limits)
    me, other = record.players
    assert (me.verdict, other.verdict) == (Verdict.OK, Verdict.OK), (me.reason, other.reason)
    assert "disarmed: True" in me.stdout
    shares = burners_share_between_calls(me.stdout)
    assert len(shares) >= 3, me.stdout[:500]
    # Unfrozen, two burners take up to 2 CPUs of every gap (the control test below sees it).
    assert max(shares) < 0.2, shares
    arena.assert_intact()


@needs_cgroups
def test_what_the_burners_use_is_charged_to_the_bot(arena: Arena, no_leftovers: None) -> None:
    """During the bot's own calls its burners run, and the cgroup charges their CPU to its moves."""
    record = play_match(GAME, [arena.source("timing_out_of_turn"), CPU_BASIS], seed=1,
                        logins=["hostile", "legal"], limits=Limits(policy="cpu"))
    me, other = record.players
    assert other.verdict is Verdict.OK
    burnt = me.stdout.count("burnt") * BURNT
    assert me.cpu is not None and me.cpu >= burnt * 0.9, (me.cpu, burnt)


@needs_cgroups
def test_without_stopping_the_burners_would_run(arena: Arena, no_leftovers: None) -> None:
    """The control: with stopping between turns switched off, the measure above sees the burners."""
    limits = Limits(policy="cpu", pause=False)
    record = play_match(GAME, [arena.source("timing_out_of_turn"), CPU_BASIS], seed=1,
                        logins=["hostile", "legal"], limits=limits)
    assert statistics.median(burners_share_between_calls(record.players[0].stdout)) > 0.3
