"""Fixtures of the sandbox's unit tests: a fully loaded machine."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

SANDBOX_BOTS = Path(__file__).resolve().parent / "bots"


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
