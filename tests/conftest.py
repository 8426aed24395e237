"""Shared fixtures: the repository's folders, and a guard that no bot process outlives a test."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from harness.sandbox.process import WORKER

REPO = Path(__file__).resolve().parents[1]
BOTS = Path(__file__).resolve().parent / "bots"


def bot_processes() -> list[int]:
    """Pids of live (non-zombie) processes running the harness's bot worker."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            cmdline = Path(f"/proc/{entry}/cmdline").read_bytes()
            state = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if str(WORKER).encode() in cmdline and state != "Z":
            found.append(int(entry))
    return found


def bot_dirs() -> set[str]:
    """The bots' temporary working directories that exist now."""
    return {p for p in os.listdir(tempfile.gettempdir()) if p.startswith("harness-bot-")}


@pytest.fixture
def no_leftovers() -> Iterator[None]:
    """Fail the test if a bot process or a bot's temporary directory survives it."""
    before_dirs = bot_dirs()
    yield
    assert bot_processes() == [], "a bot process survived its game"
    assert bot_dirs() - before_dirs == set(), "a bot's temporary directory was not deleted"
