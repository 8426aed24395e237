"""Shared fixtures: the repository's folders, and a guard that no bot process outlives a test."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
BOTS = Path(__file__).resolve().parent / "bots"


def bot_processes() -> list[int]:
    """Pids of live (non-zombie) processes of bots started by this test process.

    A bot's process need not run the worker's command line (under bubblewrap the tree's root is
    ``bwrap``; a grandchild could be anything), so the markers are its cgroup, its environment,
    its working directory and command line (see ``tests/hostile/leftovers.py``). They carry this
    process's pid: bots of other test runs on the same machine are not counted.
    """
    from tests.hostile.leftovers import bot_processes as owned

    return sorted(owned())


def bot_dirs() -> set[str]:
    """The bots' temporary working directories that exist now (this process's bots only)."""
    prefix = f"harness-bot-{os.getpid()}-"
    return {p for p in os.listdir(tempfile.gettempdir()) if p.startswith(prefix)}


@pytest.fixture
def no_leftovers() -> Iterator[None]:
    """Fail the test if a bot process or a bot's temporary directory survives it."""
    before_dirs = bot_dirs()
    yield
    assert bot_processes() == [], "a bot process survived its game"
    assert bot_dirs() - before_dirs == set(), "a bot's temporary directory was not deleted"
