"""Every mistake of the user is one line on stderr and exit code 2; never a traceback.

A walk through the command line's bad inputs, each run as a real ``python -m harness``
subprocess in a folder of its own (``harness/cli.py``: "every mistake of the user ... is one
line on stderr, ``harness COMMAND: problem``, and exit code 2"). Where a command documents
another code it is checked: ``harness validate`` of a file with a broken job and ``harness
export`` of an incomplete job exit 1, still with one line.
"""

from __future__ import annotations

import socket
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import pytest

from tests.conftest import REPO

BASIS = REPO / "reference_players/priemspel/basis.py"
STRATEGIE = REPO / "reference_players/priemspel/strategie.py"

GOOD = """\
  good:
    game: priemspel
    format: round_robin
    submissions: submissions
    settings: [{{N: 5}}]
    games: {games}
    workers: 1
"""
BAD = """\
  bad:
    game: priemspel
    format: round_robin
    submissions: submissions
    games: 0
"""


def harness(*args: str, cwd: Path, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "harness", *args], cwd=cwd, capture_output=True, text=True,
                          timeout=timeout)


def one_line(run: subprocess.CompletedProcess[str], code: int, *needles: str, prefix: bool = True) -> str:
    """Assert exit ``code``, exactly one line on stderr containing every needle, no traceback;
    with ``prefix``, the line is a usage error's ``harness COMMAND: problem``."""
    shown = f"exit {run.returncode}\nstdout: {run.stdout[-2000:]}\nstderr: {run.stderr[-2000:]}"
    assert "Traceback" not in run.stdout + run.stderr, shown
    assert run.returncode == code, shown
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1, shown
    assert lines[0].startswith("harness") or not prefix, shown
    for needle in needles:
        assert needle in lines[0], shown
    return lines[0]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def course(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder with two submissions and several jobs files over one store:

    ``tournaments.yaml`` (a good job and a broken one), ``clean.yaml`` (the good job alone),
    ``more.yaml`` (the good job with more games than stored: incomplete), ``never.yaml`` (a job
    never run), ``broken/tournaments.yaml`` (not YAML); the good job has been run once
    (through ``tournaments.yaml``: see :func:`test_a_good_job_runs_and_a_broken_one_is_one_warning`).
    """
    root = tmp_path_factory.mktemp("course")
    for login, source in (("ann", BASIS), ("ben", STRATEGIE)):
        (root / "submissions" / login).mkdir(parents=True)
        (root / "submissions" / login / "player.py").write_bytes(source.read_bytes())
    (root / "tournaments.yaml").write_text("jobs:\n" + GOOD.format(games=1) + BAD)
    (root / "clean.yaml").write_text("jobs:\n" + GOOD.format(games=1))
    (root / "more.yaml").write_text("jobs:\n" + GOOD.format(games=2))
    (root / "never.yaml").write_text("jobs:\n" + GOOD.format(games=1).replace("good:", "never:"))
    (root / "broken").mkdir()
    (root / "broken" / "tournaments.yaml").write_text("jobs:\n  good: {game: priemspel\n  bad: [\n")
    (root / "empty").mkdir()  # no tournaments.yaml at all
    (root / "a-file.txt").write_text("not a folder\n")
    (root / "bad.zip").write_bytes(b"this is not a zip file\n")
    with zipfile.ZipFile(root / "traversal.zip", "w") as z:
        z.writestr("../player.py", "class Player:\n    pass\n")
    run = harness("run", "good", "--no-self-check", "--quiet", cwd=root, timeout=300)
    (root / "first-run.txt").write_text(f"{run.returncode}\n{run.stdout}\x00{run.stderr}")
    return root


def test_a_good_job_runs_and_a_broken_one_is_one_warning(course: Path) -> None:
    code, rest = (course / "first-run.txt").read_text().split("\n", 1)
    out, err = rest.split("\x00")
    assert "Traceback" not in out + err, err
    assert code == "0", err
    warnings = [line for line in err.splitlines() if "warning" in line]
    assert len(warnings) == 1 and "jobs.bad.games" in warnings[0] and "got 0" in warnings[0], err
    assert "good: 2 games, 0 reused, 2 played" in err


def test_validate_of_a_file_with_a_broken_job_exits_1(course: Path) -> None:
    run = harness("validate", cwd=course)
    # The command's findings, one line per broken job, as README.md shows them (no "harness" prefix).
    one_line(run, 1, "tournaments.yaml: jobs.bad.games: must be an integer >= 1, got 0", prefix=False)
    assert harness("validate", "--config", "clean.yaml", cwd=course).returncode == 0


def test_export_of_an_incomplete_job_exits_1(course: Path) -> None:
    one_line(harness("export", "good", "--config", "more.yaml", cwd=course), 1,
             "harness export:", "incomplete", "2 of 4 games", "--allow-incomplete")


def test_game_names_in_any_case_work(course: Path) -> None:
    for name in ("PriemSpel", "PRIEMSPEL", "priemspel"):
        run = harness("play", name, str(BASIS), str(STRATEGIE), "--seed", "3", cwd=course)
        assert run.returncode == 0 and run.stderr == "" and "winner:" in run.stdout, (name, run.stderr)


def test_version(course: Path) -> None:
    run = harness("--version", cwd=course)
    assert run.returncode == 0 and run.stderr == ""
    assert run.stdout.startswith("harness (bot-harness) ") and any(c.isdigit() for c in run.stdout)


def test_an_unreachable_scheduler_is_one_line_within_a_bound(course: Path) -> None:
    port = free_port()  # nothing listens there
    started = time.monotonic()
    run = harness("run", "good", "--config", "clean.yaml", "--scheduler", f"tcp://127.0.0.1:{port}",
                  "--scheduler-timeout", "2", "--no-self-check", "--quiet", cwd=course, timeout=60)
    took = time.monotonic() - started
    one_line(run, 2, "harness run:", f"tcp://127.0.0.1:{port}")
    assert took < 30, f"{took:.1f} s to give up on a scheduler with a 2 s timeout"


B, S = str(BASIS), str(STRATEGIE)
# (id, cwd under the course folder, args, exit code, needles in the one line)
CASES = [
    ("unknown command", ".", ["frobnicate"], 2, ["invalid choice: 'frobnicate'"]),
    ("unknown game", ".", ["play", "chess", B, S], 2, ["harness play:", "unknown game 'chess'"]),
    ("unknown game, check", ".", ["check", "chess", B], 2, ["harness check:", "unknown game 'chess'"]),
    ("missing bot file", ".", ["play", "priemspel", B, "missing.py"], 2, ["missing.py", "cannot read the bot"]),
    ("missing bot, check", ".", ["check", "priemspel", "missing.py"], 2, ["missing.py", "cannot read the bot"]),
    ("wrong number of bots", ".", ["play", "priemspel", B], 2, ["played by 2 bots, got 1"]),
    ("--set without =", ".", ["play", "priemspel", B, S, "--set", "N"], 2, ["--set 'N'", "KEY=VALUE"]),
    ("--set bad YAML", ".", ["play", "priemspel", B, S, "--set", "N=[1"], 2, ["--set 'N=[1'", "not valid YAML"]),
    ("--set unknown key", ".", ["play", "priemspel", B, S, "--set", "foo=1"], 2, ["unknown setting 'foo'"]),
    ("--set bad value", ".", ["play", "priemspel", B, S, "--set", "N=1"], 2, ["N: must be at least 2"]),
    ("--seed not a number", ".", ["play", "priemspel", B, S, "--seed", "x"], 2, ["--seed", "'x'"]),
    ("--package not installed", ".", ["play", "priemspel", B, S, "--package", "no_such_pkg"], 2,
     ["--package no_such_pkg", "not installed"]),
    ("--workers 0", ".", ["run", "good", "--workers", "0"], 2, ["harness run:", "--workers", "at least 1, got 0"]),
    ("--workers -3", ".", ["run", "good", "--workers", "-3"], 2, ["harness run:", "--workers", "got -3"]),
    ("--workers x", ".", ["run", "good", "--workers", "x"], 2, ["harness run:", "--workers", "'x'"]),
    ("check --games 0", ".", ["check", "priemspel", B, "--games", "0"], 2, ["--games", "got 0"]),
    ("check --against unknown", ".", ["check", "priemspel", B, "--against", "nobody"], 2,
     ["--against nobody", "no such reference player"]),
    ("missing --config", ".", ["run", "good", "--config", "missing.yaml"], 2, ["missing.yaml", "no such jobs file"]),
    ("no tournaments.yaml here", "empty", ["run", "good"], 2, ["tournaments.yaml", "no such jobs file", "--config"]),
    ("tournaments.yaml not YAML", "broken", ["run", "good"], 2, ["tournaments.yaml", "not valid YAML"]),
    ("validate of a file not YAML", "broken", ["validate"], 2, ["tournaments.yaml", "not valid YAML"]),
    ("--config is a folder", ".", ["run", "good", "--config", "empty"], 2, ["empty", "cannot read"]),
    ("job that does not exist", ".", ["run", "nosuch", "--config", "clean.yaml"], 2, ["no job named 'nosuch'"]),
    ("leaderboard of a job that does not exist", ".", ["leaderboard", "nosuch", "--config", "clean.yaml"], 2,
     ["no job named 'nosuch'"]),
    ("run of the broken job", ".", ["run", "bad", "--no-self-check", "--quiet"], 2,
     ["harness run:", "jobs.bad.games: must be an integer >= 1, got 0"]),
    ("leaderboard of a job never run", ".", ["leaderboard", "never", "--config", "never.yaml"], 2,
     ["harness leaderboard:", "no results yet"]),
    ("export of a job never run", ".", ["export", "never", "--config", "never.yaml"], 2,
     ["harness export:", "no results yet"]),
    ("leaderboard --format unknown", ".", ["leaderboard", "good", "--config", "clean.yaml", "--format", "xml"], 2,
     ["--format", "'xml'"]),
    ("report --out an existing file", ".", ["report", "good", "--config", "clean.yaml", "--out", "a-file.txt"], 2,
     ["harness report:", "--out a-file.txt", "is a file"]),
    ("report --replays not a number", ".", ["report", "good", "--config", "clean.yaml", "--out", "site",
                                            "--replays", "many"], 2, ["harness report:", "--replays many"]),
    ("export --out in a missing folder", ".",
     ["export", "good", "--config", "clean.yaml", "--out", "missing/dir/file.csv"], 2,
     ["harness export:", "missing/dir/file.csv", "does not exist"]),
    ("export --out a folder", ".", ["export", "good", "--config", "clean.yaml", "--out", "empty"], 2,
     ["harness export:", "--out empty", "is a folder"]),
    ("check of a bad zip (the bot's problem: 1)", ".", ["check", "priemspel", "bad.zip"], 1,
     ["harness check:", "bad.zip", "not a valid zip"]),
    ("check of a zip with ../", ".", ["check", "priemspel", "traversal.zip"], 1,
     ["harness check:", "traversal.zip", "outside the zip"]),
    ("basic of a game without it", ".", ["basic", "priemspel", B], 2, ["harness basic:", "priemspel"]),
]


@pytest.mark.parametrize(("where", "args", "code", "needles"),
                         [pytest.param(*c[1:], id=c[0]) for c in CASES])
def test_a_bad_input_is_one_line(course: Path, where: str, args: list[str], code: int, needles: list[str]) -> None:
    one_line(harness(*args, cwd=course / where), code, *needles)


def test_a_negative_scheduler_timeout_is_refused_as_an_argument(course: Path) -> None:
    run = harness("run", "good", "--config", "clean.yaml", "--scheduler", f"tcp://127.0.0.1:{free_port()}",
                  "--scheduler-timeout", "-1", "--no-self-check", "--quiet", cwd=course, timeout=60)
    one_line(run, 2, "--scheduler-timeout")


def test_a_damaged_store_is_a_one_line_usage_error(tmp_path: Path) -> None:
    for login, source in (("ann", BASIS), ("ben", STRATEGIE)):
        (tmp_path / "submissions" / login).mkdir(parents=True)
        (tmp_path / "submissions" / login / "player.py").write_bytes(source.read_bytes())
    (tmp_path / "tournaments.yaml").write_text("jobs:\n" + GOOD.format(games=1))
    (tmp_path / "results" / "good").mkdir(parents=True)
    (tmp_path / "results" / "good" / "results.sqlite").write_bytes(b"not a database, just some bytes" * 100)
    one_line(harness("leaderboard", "good", cwd=tmp_path), 2, "results.sqlite")
