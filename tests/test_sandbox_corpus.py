"""The broken-bot corpus: each bot fails in one way and gets exactly its pinned verdict.

Every game runs real subprocesses. The broken bot plays against the seed's basic strategy,
which must come out ``ok``; no process or temporary directory may survive the game.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from harness.games import get_game
from harness.match import play_match
from harness.record import Verdict
from harness.sandbox import reaper
from tests.conftest import BOTS, REPO

GAME = get_game("priemspel")
BASIS = (REPO / "reference_players/priemspel/basis.py").read_bytes()

# bot file -> (verdict, a regular expression the reason must match)
CORPUS: dict[str, tuple[Verdict, str]] = {
    "syntax_error.py": (Verdict.EXCEPTION, "SyntaxError"),
    "import_error.py": (Verdict.EXCEPTION, "ModuleNotFoundError"),
    "missing_class.py": (Verdict.EXCEPTION, "defines no class Player"),
    "missing_method.py": (Verdict.EXCEPTION, r"has no method zet\(\)"),
    "init_raises.py": (Verdict.EXCEPTION, "ValueError: no board for"),
    "init_slow.py": (Verdict.TIMEOUT, r"Player\(\.\.\.\) did not return within 1 s"),
    "move_slow.py": (Verdict.TIMEOUT, r"zet\(\) did not return within 1 s"),
    "infinite_loop.py": (Verdict.TIMEOUT, r"stuck at player\.py line [78] in zet"),
    "sleeps.py": (Verdict.TIMEOUT, r"stuck at player\.py line 9 in zet"),
    "exception_midgame.py": (Verdict.EXCEPTION, "IndexError: list index out of range at player.py line 10"),
    "wrong_type.py": (Verdict.BAD_ANSWER, r"must return an int number of squares, got '2' \(str\)"),
    "huge_answer.py": (Verdict.BAD_ANSWER, "answer too large"),
    "prints_a_lot.py": (Verdict.OK, ""),
    "calls_sys_exit.py": (Verdict.CRASH, r"called sys\.exit\(3\)"),
    "calls_os_exit.py": (Verdict.CRASH, "exited with code 3"),
    "allocates_4gib.py": (Verdict.MEMORY, "MemoryError"),
    "forks.py": (Verdict.FORBIDDEN, r"os\.fork is not allowed \(player\.py line 9 in zet\)"),
    "subprocess_shell.py": (Verdict.FORBIDDEN, r"subprocess\.Popen is not allowed"),
}


# Each bot in both seats, except the slow ones: a timeout costs a second, and the seat does
# not change the timing code path.
CASES = [(name, seat) for name in sorted(CORPUS) for seat in (0, 1)
         if seat == 0 or CORPUS[name][0] is not Verdict.TIMEOUT]


@pytest.mark.parametrize(("name", "seat"), CASES)
def test_broken_bot_gets_its_verdict(name: str, seat: int, no_leftovers: None) -> None:
    verdict, words = CORPUS[name]
    broken = (BOTS / "priemspel" / name).read_bytes()
    sources = [broken, BASIS] if seat == 0 else [BASIS, broken]
    record = play_match(GAME, sources, seed=1, logins=["broken", "basis"][:: 1 if seat == 0 else -1])
    me, other = record.players[seat], record.players[1 - seat]
    assert (me.verdict, other.verdict) == (verdict, Verdict.OK), me.reason
    assert re.search(words, me.reason), me.reason
    if verdict is not Verdict.OK:
        assert record.winner == 1 - seat
        assert record.end == "verdict"


def test_timeout_costs_about_one_limit(no_leftovers: None) -> None:
    """A bot that hangs in C code (time.sleep) is cut off near the limit, not after its sleep."""
    record = play_match(GAME, [(BOTS / "priemspel" / "sleeps.py").read_bytes(), BASIS], seed=1)
    assert record.players[0].verdict is Verdict.TIMEOUT
    assert record.duration < 3.0  # the bot sleeps 30 s; the game ends about 1 s in


def test_output_is_captured_and_capped(no_leftovers: None) -> None:
    record = play_match(GAME, [(BOTS / "priemspel" / "prints_a_lot.py").read_bytes(), BASIS], seed=1)
    out, err = record.players[0].stdout, record.players[0].stderr
    assert out.startswith("hello from the constructor\nxxx")
    assert "more bytes dropped" in out and "more bytes dropped" in err
    assert len(out) < 70_000 and len(err) < 70_000
    assert record.players[1].stdout == ""  # never mixed with the opponent's


def test_close_to_the_limit_is_never_flagged_and_over_it_always_is(no_leftovers: None) -> None:
    """0.9 s per call (constructor and every move) passes; 1.1 s on a move fails."""
    busy = (BOTS / "priemspel" / "busy_0_9.py").read_bytes()
    record = play_match(GAME, [busy, BASIS], seed=1)
    assert [p.verdict for p in record.players] == [Verdict.OK, Verdict.OK], record.players[0].reason
    assert record.players[0].max_wall > 0.85
    over = play_match(GAME, [(BOTS / "priemspel" / "busy_1_1.py").read_bytes(), BASIS], seed=1)
    assert over.players[0].verdict is Verdict.TIMEOUT


def test_bot_runs_in_its_own_temporary_directory_with_scrubbed_environment(tmp_path: Path,
                                                                          no_leftovers: None) -> None:
    spy = b'''
import os, sys, json
class Player:
    def __init__(self, name):
        print(json.dumps({"cwd": os.getcwd(), "files": os.listdir("."), "env": dict(os.environ),
                          "stdin": sys.stdin.read()}))
    def zet(self, spel):
        return 2
'''
    os.environ["HARNESS_TEST_SECRET"] = "s3cret"
    try:
        record = play_match(GAME, [spy, BASIS], seed=1)
    finally:
        del os.environ["HARNESS_TEST_SECRET"]
    import json

    seen = json.loads(record.players[0].stdout)
    assert seen["files"] == ["player.py"] and "harness-bot-" in seen["cwd"]  # its own files only
    assert "HARNESS_TEST_SECRET" not in seen["env"] and seen["stdin"] == ""
    assert reaper.settle() and not Path(seen["cwd"]).exists()  # deleted in the background after the game
