"""Fixtures of the sandbox's unit tests: the process-table guard, a fully loaded machine."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.hostile.leftovers import bot_cgroups, bot_dirs, bot_processes

SANDBOX_BOTS = Path(__file__).resolve().parent / "bots"


@pytest.fixture
def no_survivors() -> Iterator[None]:
    """Fail the test if any process, cgroup or folder of its bots outlives it."""
    if not sys.platform.startswith("linux"):
        pytest.skip("the process-table check reads /proc")
    before = bot_dirs()
    yield
    assert bot_processes() == {}, "a process of a bot survived"
    assert bot_cgroups() == [], "a bot's cgroup was not removed"
    assert bot_dirs() - before == set(), "a bot's temporary folder was not deleted"


@pytest.fixture
def cores_loaded() -> Iterator[int]:
    """Every core of the machine busy with another process (a busy loop each) for the test."""
    n = os.cpu_count() or 2
    # Each in its own session, like another game's bot (autogroup scheduling shares one session's CPU).
    hogs = [subprocess.Popen([sys.executable, "-c", "while True: pass"], start_new_session=True) for _ in range(n)]
    try:
        yield n
    finally:
        for hog in hogs:
            hog.kill()
        for hog in hogs:
            hog.wait()
