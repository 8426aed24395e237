"""Shared fixtures: the repository's folders, and a guard that nothing of a bot outlives a test;
how many processes run the suite."""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
BOTS = Path(__file__).resolve().parent / "bots"


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``-n auto``: one process more than the cores this process may use, at most 8.

    Most tests wait on real bots in subprocesses, so one more process keeps the cores busy (on
    the 2-core CI machine 3 processes took the suite from 14.5 minutes to 9, every core busy);
    past 8 the memory of bots held at their 1 GiB caps at once would count more than the cores.
    """
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    return min(cores + 1, 8)


@pytest.fixture
def no_leftovers() -> Iterator[None]:
    """Fail the test if a process, cgroup or temporary folder of its bots outlives it.

    A bot's process need not run the worker's command line (under bubblewrap the tree's root is
    ``bwrap``; a grandchild could be anything), so ``tests/hostile/leftovers.py`` finds them by
    cgroup, environment, working directory and command line, all tagged with this process's pid:
    bots of other test runs on the same machine are not counted. The process table is read from
    /proc, so off Linux only the folders are checked.
    """
    from harness.sandbox import launcher, reaper
    from tests.hostile.leftovers import bot_cgroups, bot_dirs, bot_processes

    before = bot_dirs()
    yield
    launcher.drain()  # bubblewrap started ahead for the next bot: the harness's, not a game's
    assert reaper.settle(), "a bot's cgroup or folder was not deleted within 30 s"
    if sys.platform.startswith("linux"):
        # A killed process can take a moment to leave the process table on a loaded machine:
        # wait for it with a deadline; one that is still there after 10 s survived its game.
        deadline = time.monotonic() + 10.0
        while bot_processes() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert bot_processes() == {}, "a process of a bot survived its game"
        assert bot_cgroups() == [], "a bot's cgroup was not removed"
    assert bot_dirs() - before == set(), "a bot's temporary folder was not deleted"


def last_said(stdout: str) -> str:
    """The last thing a command said (``check``'s verdict), its wrapped lines joined again: prose
    is wrapped to ``COLUMNS`` with its continuation lines indented."""
    lines = stdout.rstrip("\n").splitlines()
    start = max(i for i, text in enumerate(lines) if not text.startswith(" "))
    return " ".join(" ".join(lines[start:]).split())
