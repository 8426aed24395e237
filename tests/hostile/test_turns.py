"""Between its turns a bot is stopped: a thread it keeps running makes no progress on its opponent's time."""

from __future__ import annotations

import statistics
from dataclasses import replace

import pytest

from harness.match import play_match
from harness.record import Verdict
from tests.hostile.conftest import HOSTILE, Arena
from tests.hostile.test_hostile import GAME, LIMITS, MODES

SLOW = (HOSTILE.parent / "opponents" / "slow_basis.py").read_bytes()


def progress_between_turns(mode: str, pause: bool) -> list[float]:
    """For each gap between two moves of the bot: the share of the gap its thread ran at full speed."""
    limits = replace(LIMITS, **MODES[mode], pause=pause)
    record = play_match(GAME, [(HOSTILE / "threads_between_turns.py").read_bytes(), SLOW], seed=1, limits=limits)
    assert [p.verdict for p in record.players] == [Verdict.OK, Verdict.OK], record.players[0].reason
    shares = []
    for line in record.players[0].stdout.splitlines():
        _, count, gap, rate = line.split()
        shares.append(int(count) / (float(rate) * float(gap)))
    assert len(shares) >= 3
    return shares


@pytest.mark.parametrize("mode", ["auto", "plain", "bare"])
def test_a_bot_does_not_compute_on_its_opponents_time(mode: str, arena: Arena, no_leftovers: None) -> None:
    # Each gap holds the opponent's 0.4 s move. Stopped, the thread only runs while the bot's own
    # call hands the interpreter around (a few ms of each gap, more on a loaded machine).
    assert max(progress_between_turns(mode, pause=True)) < 0.2


def test_without_stopping_it_would(arena: Arena, no_leftovers: None) -> None:
    """The control: the measure above does see a thread that runs between turns."""
    assert statistics.median(progress_between_turns("auto", pause=False)) > 0.5
