"""The process-table check itself: it sees a bot's processes however they look, and can fail."""

from __future__ import annotations

import subprocess
import sys
import time

import pytest

from harness.games import get_game
from harness.sandbox import BotProcess, Limits, launcher, reaper
from tests.hostile.leftovers import bot_cgroups, bot_dir_prefix, bot_processes

GAME = get_game("priemspel")

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")


@pytest.mark.parametrize("isolation", ["auto", "plain"])
def test_a_running_bot_is_seen_and_a_closed_one_is_gone(isolation: str) -> None:
    with BotProcess(GAME, b"class Player:\n    pass\n", limits=Limits(isolation=isolation)) as bot:
        assert bot.load().ok
        seen = bot_processes()
        assert bot.worker_pid in seen and bot.pid in seen, seen
    assert reaper.settle()  # its cgroup and folder, deleted in the background
    # What is left is bubblewrap started ahead for the next bots (not a game's): drained, nothing.
    deadline = time.monotonic() + 30
    while isolation == "auto" and len(launcher.idle()) < launcher.AHEAD and time.monotonic() < deadline:
        time.sleep(0.01)  # the pool is full: none is being made while we look
    assert set(bot_processes()) <= {x.proc.pid for x in launcher.idle()}
    launcher.drain()
    assert bot_processes() == {} and bot_cgroups() == []


def test_a_stray_process_with_a_bot_s_environment_is_seen() -> None:
    """What a daemonised grandchild that left every group would look like: it is still found."""
    stray = subprocess.Popen(["sleep", "30"], env={"TMPDIR": bot_dir_prefix() + "stray/work"},
                             start_new_session=True)
    try:
        assert bot_processes().get(stray.pid) == "has a bot's environment"
    finally:
        stray.kill()
        stray.wait()
    assert stray.pid not in bot_processes()
