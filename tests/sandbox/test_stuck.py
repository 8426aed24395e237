"""A timeout always says where the bot was stuck, whichever clock stopped it (issue 27).

The worker's clock names the line when it fires first. When the parent kills first (its clock
is the authority; on a loaded machine the worker's clock thread may not get the CPU or the GIL
in time, and it is silent while the bot runs threads of its own), the parent asks the worker
for the bot thread's place before the kill (:meth:`BotProcess._stuck`). What comes back is a
clause of the parent's reason at most: a forged one changes neither the verdict nor, unless it
is a plain place, the text.
"""

from __future__ import annotations

import re

import pytest

from harness.games import get_game
from harness.match import play_match
from harness.record import Verdict
from harness.sandbox import Limits
from tests.conftest import REPO
from tests.sandbox.conftest import SANDBOX_BOTS

GAME = get_game("priemspel")
BASIS = (REPO / "reference_players/priemspel/basis.py").read_bytes()


def first_move(bot: str, limits: Limits, seed: int = 1) -> tuple[Verdict, str, Verdict]:
    """The verdict and reason of ``bot`` (seat 0) and its opponent's verdict, in one game."""
    record = play_match(GAME, [(SANDBOX_BOTS / bot).read_bytes(), BASIS], seed=seed, logins=["bot", "basis"],
                        limits=limits)
    return record.players[0].verdict, record.players[0].reason, record.players[1].verdict


@pytest.mark.slow
@pytest.mark.parametrize("policy", ["cpu", "wall"])
def test_a_bot_stuck_in_a_nested_loop_is_named_in_3_of_3_games(policy: str, cores_loaded: int,
                                                                no_leftovers: None) -> None:
    """With every core busy, under a job's limits: each game's reason names the loop's line."""
    for seed in (1, 2, 3):
        verdict, reason, other = first_move("nested_loop.py", Limits.default(GAME, policy), seed)
        assert (verdict, other) == (Verdict.TIMEOUT, Verdict.OK), reason
        assert re.search(r"\(stuck at player\.py line 1[012] in search\)", reason), reason


def test_the_parent_asks_where_the_bot_was_before_it_kills(no_leftovers: None) -> None:
    """The bot runs a thread of its own, so only the parent's wall clock judges it."""
    verdict, reason, other = first_move("nested_loop_threaded.py", Limits.default(GAME, "wall"))
    assert (verdict, other) == (Verdict.TIMEOUT, Verdict.OK), reason
    assert re.fullmatch(r"zet\(\) did not return within 1 s; killed after \d+\.\d\d s, having used \d\.\d\d s of CPU "
                        r"time( \(\d+\.\d\d s of it waiting for a CPU, not counted\))? "
                        r"\(stuck at player\.py line 1[789] in search\)", reason), reason


def test_a_forged_place_changes_neither_the_verdict_nor_the_text(no_leftovers: None) -> None:
    """The bot answers the parent's question itself, with a place that is not plain text."""
    verdict, reason, other = first_move("forges_its_place.py", Limits.default(GAME, "wall"))
    assert (verdict, other) == (Verdict.TIMEOUT, Verdict.OK), reason
    assert reason.startswith("zet() did not return within 1 s; killed after "), reason
    assert "innocent" not in reason and "stuck" not in reason and "\x1b" not in reason
