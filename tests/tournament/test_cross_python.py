"""The leaderboard of a stored job is the same bytes under every Python 3.11 of the machine.

Issue 34: a fresh clone run with pyenv's Python 3.11.7 (built without optimisation) ordered two
bots with equal results differently from Debian's ``/usr/bin/python3.11``, because ties were
decided by the last bits of the rating fit. Here every interpreter the machine has (the test's
own, Debian's, pyenv's) reads the same stores -- the legacy store of ``legacy/`` and a job played
fresh by this test -- and writes every leaderboard and export; their bytes must be identical, and
the legacy store's must be the ones stored under ``legacy/expected/``.

The other interpreters run ``cross_python_exports.py`` with ``PYTHONPATH`` set to the repository
and this venv's site-packages (numpy and the other dependencies, built for CPython 3.11's ABI,
which every 3.11 shares); each says where numpy and the harness came from, so a run that
silently used another copy fails.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
import warnings
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import REPO

HERE = Path(__file__).parent
LEGACY = HERE / "legacy"
HELPER = HERE / "cross_python_exports.py"
LEGACY_JOBS = ("rr", "ad", "sg", "sb", "all")
# Every Python 3.11 this kind of machine may have besides the test's own: Debian's (CI's) and pyenv's.
CANDIDATES = ("/usr/bin/python3.11", "/usr/local/bin/python3.11", "/root/.pyenv/versions/3.11.7/bin/python3")
SITE = [sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]]


def base_of(python: str) -> str:
    """The real interpreter behind ``python`` (a venv's python is its base's)."""
    done = subprocess.run([python, "-s", "-c", "import os, sys; print(os.path.realpath(sys._base_executable))"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, f"{python}: {done.stderr}"
    return done.stdout.strip()


def interpreters() -> list[str]:
    """The test's own interpreter, then every other Python 3.11 present, one per real interpreter."""
    found = {base_of(sys.executable): sys.executable}
    for candidate in CANDIDATES:
        if os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            found.setdefault(base_of(candidate), candidate)
    return list(found.values())


def exports(python: str, config: Path, jobs: tuple[str, ...]) -> dict[str, Any]:
    """What ``python`` writes for every leaderboard and export of ``jobs`` (see the helper)."""
    env = {**os.environ, "COLUMNS": "100", "PYTHONNOUSERSITE": "1",
           "PYTHONPATH": os.pathsep.join([str(REPO), *dict.fromkeys(SITE)])}
    env.pop("PYTHONHOME", None)
    done = subprocess.run([python, "-s", str(HELPER), str(config), *jobs], cwd=REPO, capture_output=True,
                          text=True, timeout=900, env=env)
    assert done.returncode == 0, f"{python}: {done.stderr[-3000:]}"
    data = json.loads(done.stdout)
    about = data["python"]
    # It ran this repository's harness on this venv's numpy, and numpy's compiled core works there.
    assert Path(about["harness_file"]).resolve().is_relative_to(REPO), about
    assert any(Path(about["numpy_file"]).resolve().is_relative_to(Path(s).resolve()) for s in SITE), about
    assert about["version"].startswith("3.11."), about
    return data


def compare(config: Path, jobs: tuple[str, ...]) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Every interpreter's outputs; asserts they are identical to the test's own interpreter's."""
    pythons = interpreters()
    if len(pythons) < 2:  # a machine with one Python 3.11: only that one is checked, and it says so
        warnings.warn(f"only one Python 3.11 on this machine ({pythons[0]}): no other interpreter to compare",
                      stacklevel=2)
    runs = [exports(python, config, jobs) for python in pythons]
    first = runs[0]
    for other in runs[1:]:
        assert sorted(other["outputs"]) == sorted(first["outputs"])
        differ = [name for name in first["outputs"] if other["outputs"][name] != first["outputs"][name]]
        assert differ == [], (f"{other['python']['base']} ({other['python']['version']}) writes other bytes "
                              f"than {first['python']['base']} ({first['python']['version']}) for {differ}")
    return runs, first["outputs"]


def test_every_python_on_the_machine_finds_the_dependencies() -> None:
    """On this kind of machine (and CI) there are two Pythons 3.11; each imports numpy from this
    venv and solves with it to the same bits."""
    pythons = interpreters()
    if Path(CANDIDATES[0]).is_file() and Path(CANDIDATES[2]).is_file():
        assert len(pythons) >= 2, pythons  # both present: both must be compared, not deduplicated away
    env = {**os.environ, "PYTHONNOUSERSITE": "1", "PYTHONPATH": os.pathsep.join([str(REPO), *dict.fromkeys(SITE)])}
    probe = ("import json, sys; sys.path.insert(0, %r); import cross_python_exports as c; "
             "print(json.dumps(c.interpreter()))" % str(HERE))
    solved = set()
    for python in pythons:
        done = subprocess.run([python, "-s", "-c", probe], capture_output=True, text=True, timeout=120, env=env)
        assert done.returncode == 0, f"{python}: {done.stderr[-3000:]}"
        about = json.loads(done.stdout)
        assert about["soabi"] == sysconfig.get_config_var("SOABI"), about
        solved.add(tuple(about["solve"]))
    assert len(solved) == 1, solved


def test_the_legacy_store_reads_the_same_under_every_python(tmp_path: Path) -> None:
    """Every leaderboard and export of the legacy store: the same bytes under each interpreter,
    and the bytes stored as expected (the ties basis/bob of rr and ad among them)."""
    folder = tmp_path / "legacy"
    shutil.copytree(LEGACY, folder)
    _runs, outputs = compare(folder / "tournaments.yaml", LEGACY_JOBS)
    for name, done in outputs.items():
        assert done["code"] == 0, (name, done["stderr"])
        assert done["stdout"] == (LEGACY / "expected" / name).read_text(encoding="utf-8"), name


FRESH = """\
jobs:
  fresh:
    game: priemspel
    format: round_robin
    submissions: submissions/priemspel
    reference: [bots/priemspel/basis.py]
    settings: [{N: 5}]
    games: 1
    workers: 2
    awards: {policy: tiers, tiers: [{rank: 1, points: 3}, {rank: 2, points: 1}]}
"""


def test_a_freshly_played_job_reads_the_same_under_every_python(tmp_path: Path) -> None:
    """A small round robin played now (basis and its copy bob tie again) is stored once and read
    by each interpreter: the same bytes, and the tie ordered by login."""
    shutil.copytree(LEGACY / "submissions" / "priemspel", tmp_path / "submissions" / "priemspel")
    shutil.copytree(LEGACY / "bots" / "priemspel", tmp_path / "bots" / "priemspel")
    config = tmp_path / "tournaments.yaml"
    config.write_text(FRESH, encoding="utf-8")
    played = subprocess.run([sys.executable, "-m", "harness", "run", "fresh", "--quiet", "--no-self-check",
                             "--config", str(config)], cwd=REPO, capture_output=True, text=True, timeout=900)
    assert played.returncode == 0, played.stderr
    assert "fresh: 20 games, 0 reused, 20 played" in played.stderr, played.stderr
    _runs, outputs = compare(config, ("fresh",))
    for name, done in outputs.items():
        assert done["code"] == 0, (name, done["stderr"])
    rows = json.loads(outputs["leaderboard-fresh.json"]["stdout"])["rows"]
    tied = [(r["login"], r["rating"], r["score"]) for r in rows if r["login"] in ("basis", "bob")]
    assert [login for login, *_ in tied] == ["basis", "bob"], tied
    assert tied[0][1:] == tied[1][1:], tied  # the same results, the same printed rating: a real tie
