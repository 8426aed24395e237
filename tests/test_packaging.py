"""The harness as a user gets it from ``pip install .``: not the checkout, the installed copy.

These run Python with ``-I`` from an empty folder, so the checkout is not on ``sys.path``
and whatever ``pip install`` put in site-packages is what runs (CI installs it first).
"""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import REPO


def installed(code: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-I", "-c", code], cwd=cwd, capture_output=True, text=True, timeout=120)


@pytest.fixture(scope="module")
def installed_harness(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The installed package's folder; the test fails (not skips) if it is missing or stale."""
    cwd = tmp_path_factory.mktemp("elsewhere")
    done = installed("import harness, pathlib; print(pathlib.Path(harness.__file__).parent)", cwd)
    assert done.returncode == 0, f"the harness is not installed: run `pip install .` ({done.stderr.strip()[-200:]})"
    where = Path(done.stdout.strip())
    for rel in ("sandbox/bubblewrap.py", "sandbox/bot/worker.py", "sandbox/process.py", "cli.py"):
        mine, theirs = (hashlib.sha256((root / rel).read_bytes()).hexdigest() for root in (REPO / "harness", where))
        assert mine == theirs, f"the installed harness at {where} is stale ({rel}): run `pip install .`"
    return where


def test_the_installed_harness_plays_a_sandboxed_game(installed_harness: Path, tmp_path: Path) -> None:
    # Installed in site-packages, which the sandbox hides from bots: its bot-side files must
    # still reach the bot's process.
    a, b = (REPO / "reference_players/streky" / n for n in ("brute.py", "random.py"))
    done = subprocess.run([sys.executable, "-I", "-m", "harness", "play", "streky", str(a), str(b), "--seed", "1",
                           "--json"], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    record = json.loads(done.stdout)
    assert [p["verdict"] for p in record["players"]] == ["ok", "ok"], record["players"]


def test_students_import_base_and_obstacle_as_in_the_course(installed_harness: Path, tmp_path: Path) -> None:
    code = ("import base, obstacle\n"
            "from base import BasePlayer\n"
            "from obstacle import *\n"
            "from harness.games.streky.botapi.base import BasePlayer as B\n"
            "from harness.games.quoridor.botapi.obstacle import Obstacle as O\n"
            "assert BasePlayer is B and Obstacle is O\n"
            "class Player(base.BasePlayer):\n"
            "    pass\n"
            "p = Player('xlogin', 19, 23, [[[1, 2], [3, 4]]])\n"
            "print(p.userLogin, p.boardRows, p.tournament, Obstacle(1, 1, 1, 2))\n")
    done = installed(code, tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("xlogin 19 False")
