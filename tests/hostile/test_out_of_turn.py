"""A bot's processes never compute on its opponent's time (issue 19, item 4).

``timing_out_of_turn`` disarms the guard (possible: the guard is a tripwire, the kernel is the
boundary) and forks CPU burners in new sessions, out of the worker's process group. Stopping
only the worker left them running through the opponent's turns: a legal opponent computing
0.25 s of CPU a move was timed out at 1.02 s of wall-clock time. Now the bot's whole cgroup is
frozen between its turns from the moment it holds a process besides the worker.

Pinned: both verdicts (the opponent is ``ok``), the burners' share of a CPU while the opponent
computes (none to speak of), the burners' CPU charged to the bot, and nothing of the bot survives.
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


def burners_share_in_opponent_turns(hostile_stdout: str, opponent_stdout: str) -> list[float]:
    """For each of the opponent's moves: the burners' CPU while it computed, in CPUs (1.0 = a core).

    The opponent stamps each move's start and end; between them the cheat is stopped, whatever
    the machine's load. (Measured against the cheat's own calls instead, a loaded machine blurs
    the edges: a thawed burner runs before the worker is scheduled to stamp its call.)
    """
    burnt = [float(line.split()[1]) for line in hostile_stdout.splitlines() if line.startswith("burnt ")]
    turns = [tuple(map(float, line.split()[1:3])) for line in opponent_stdout.splitlines()
             if line.startswith("turn ")]
    # The burners start in the cheat's first call: count the opponent's moves from then on.
    first = min((float(line.split()[1]) for line in hostile_stdout.splitlines() if line.startswith("call ")),
                default=float("inf"))
    shares = []
    for begin, end in turns:
        if begin < first:
            continue
        # A burner reports once per 50 ms of its CPU: a report inside the window proves it ran there.
        inside = sum(1 for t in burnt if begin < t < end)
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
    shares = burners_share_in_opponent_turns(me.stdout, other.stdout)
    assert len(shares) >= 3, (me.stdout[:500], other.stdout[:500])
    # Unfrozen, two burners take about a CPU of every opponent move (the control test below sees it).
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
    me, other = record.players
    assert statistics.median(burners_share_in_opponent_turns(me.stdout, other.stdout)) > 0.3
