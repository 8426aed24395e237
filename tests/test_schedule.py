"""``harness schedule``: the cron line really runs the job under cron's bare environment from ``/``;
the systemd units pass ``systemd-analyze verify``; ``--install`` edits a crontab (a fake
``crontab`` on PATH) keeping other lines; ``harness run --log`` makes its folder and appends."""

from __future__ import annotations

import configparser
import os
import pwd
import shlex
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import REPO

BASIS = REPO / "reference_players/priemspel/basis.py"
JOBS = """
jobs:
  nightly:
    game: priemspel
    format: gauntlet
    submissions: subs
    opponent: reference_players/priemspel/strategie.py
    settings: [{N: 5}]
    games: 2
"""


def harness(*args: str, cwd: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "harness", *args], cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=600)


@pytest.fixture()
def course(tmp_path: Path) -> Path:
    """A tiny course: one PriemSpel submission, a two-game job; no results/ folder yet."""
    (tmp_path / "subs" / "ann").mkdir(parents=True)
    shutil.copy2(BASIS, tmp_path / "subs" / "ann" / "player.py")
    (tmp_path / "tournaments.yaml").write_text(JOBS)
    return tmp_path


def test_the_cron_line_runs_the_job_under_crons_environment_from_root(course: Path) -> None:
    elsewhere = course / "elsewhere"
    elsewhere.mkdir()
    done = harness("schedule", "nightly", "--format", "cron", "--at", "4:05", "--config", "../tournaments.yaml",
                   cwd=elsewhere)
    assert done.returncode == 0, done.stderr
    [line] = done.stdout.splitlines()
    minute, hour, day, month, weekday, command = line.split(None, 5)
    assert (minute, hour, day, month, weekday) == ("5", "4", "*", "*", "*")
    assert str(course / "tournaments.yaml") in command and str(course / "results" / "nightly.log") in command
    assert not (course / "results").exists()
    run = subprocess.run(["env", "-i", "PATH=/usr/bin:/bin", f"HOME={os.environ.get('HOME', '/root')}",
                          "sh", "-c", command], cwd="/", capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, (run.stdout, run.stderr, (course / "results" / "nightly.log").read_text())
    assert run.stdout == run.stderr == ""  # everything went to the log the harness opened itself
    log = (course / "results" / "nightly.log").read_text()
    assert "=== harness run nightly, started" in log and "nightly: 2 games, 0 reused, 2 played" in log
    assert "ended" in log and "with exit code 0" in log
    with sqlite3.connect(course / "results" / "nightly" / "results.sqlite") as db:
        assert db.execute("SELECT count(*) FROM games").fetchone() == (2,)
    again = subprocess.run(["env", "-i", "PATH=/usr/bin:/bin", f"HOME={os.environ.get('HOME', '/root')}",
                            "sh", "-c", command], cwd="/", capture_output=True, text=True, timeout=600)
    assert again.returncode == 0
    log = (course / "results" / "nightly.log").read_text()
    assert log.count("=== harness run nightly, started") == 2 and "nightly: 2 games, 2 reused, 0 played" in log


def test_run_log_makes_its_folders_and_reports_a_bad_job_there(course: Path) -> None:
    log = course / "logs" / "deep" / "run.log"
    done = harness("run", "nosuchjob", "--log", str(log), cwd=course)
    assert done.returncode == 2 and done.stderr == ""
    text = log.read_text()
    assert "no job named 'nosuchjob'" in text and text.count("\n") == 3, text  # started, the problem, stopped
    (course / "file").write_text("")
    done = harness("run", "nightly", "--log", str(course / "file" / "run.log"), cwd=course)
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "--log" in done.stderr, done.stderr


def units(text: str) -> dict[str, str]:
    """The files `schedule --format systemd` prints, by name (each after a `# /path` line)."""
    files: dict[str, str] = {}
    name = ""
    for line in text.splitlines(keepends=True):
        if line.startswith("# /"):
            name = line[2:].strip()
            files[name] = ""
        else:
            files[name] += line
    return files


@pytest.mark.parametrize("scope", ["--user", "--system"])
def test_systemd_units_are_valid_and_absolute(course: Path, tmp_path: Path, scope: str) -> None:
    done = harness("schedule", "nightly", "--format", "systemd", scope, "--config", str(course / "tournaments.yaml"),
                   cwd=Path("/"))
    assert done.returncode == 0, done.stderr
    files = units(done.stdout)
    folder = "/etc/systemd/system" if scope == "--system" else str(Path.home() / ".config/systemd/user")
    assert set(files) == {f"{folder}/harness-nightly.service", f"{folder}/harness-nightly.timer"}
    service, timer = (configparser.ConfigParser(interpolation=None) for _ in range(2))
    service.read_string(files[f"{folder}/harness-nightly.service"])
    timer.read_string(files[f"{folder}/harness-nightly.timer"])
    argv = shlex.split(service["Service"]["ExecStart"])
    assert Path(argv[0]).is_absolute() and os.access(argv[0], os.X_OK)
    assert argv[argv.index("--config") + 1] == str(course / "tournaments.yaml")
    assert Path(argv[argv.index("--log") + 1]).is_absolute()
    assert service["Service"]["Type"] == "oneshot"
    assert ("User" in service["Service"]) == (scope == "--system")  # a system unit says whom it runs as
    assert timer["Timer"]["OnCalendar"] == "*-*-* 06:00:00" and timer["Install"]["WantedBy"] == "timers.target"
    assert "daemon-reload" in done.stderr and "enable --now harness-nightly.timer" in done.stderr
    assert f"it runs as {service['Service']['User'] if scope == '--system' else pwd.getpwuid(os.getuid()).pw_name}" \
        in done.stderr
    if shutil.which("systemd-analyze"):
        for name, text in files.items():
            (tmp_path / Path(name).name).write_text(text)
        verify = subprocess.run(["systemd-analyze", "verify", *(str(tmp_path / Path(n).name) for n in files)],
                                capture_output=True, text=True, timeout=120)
        assert verify.returncode == 0 and "harness-nightly" not in verify.stderr, verify.stderr


FAKE_CRONTAB = """#!/bin/sh
# A crontab that keeps the user's table in $CRONTAB_FILE.
if [ "$1" = "-l" ]; then
  [ -f "$CRONTAB_FILE" ] || { echo "no crontab for $(id -un)" >&2; exit 1; }
  cat "$CRONTAB_FILE"
elif [ "$1" = "-" ]; then
  cat > "$CRONTAB_FILE"
else
  exit 2
fi
"""


def test_install_cron_keeps_other_lines_and_replaces_its_own(course: Path, tmp_path: Path) -> None:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "crontab").write_text(FAKE_CRONTAB)
    (bin_dir / "crontab").chmod(0o755)
    table = tmp_path / "table"
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}", "CRONTAB_FILE": str(table)}
    config = str(course / "tournaments.yaml")
    first = harness("schedule", "nightly", "--format", "cron", "--install", "--config", config, cwd=course, env=env)
    assert first.returncode == 0, first.stderr
    [line] = table.read_text().splitlines()  # no crontab before: just its line
    assert line.startswith("0 6 * * * ") and "nightly" in line
    table.write_text("MAILTO=ann@example.org\n30 2 * * * /usr/bin/backup\n" + line + "\n")
    again = harness("schedule", "nightly", "--format", "cron", "--install", "--at", "07:15", "--config", config,
                    cwd=course, env=env)
    assert again.returncode == 0, again.stderr
    assert "replacing its earlier line" in again.stderr
    lines = table.read_text().splitlines()
    assert lines[:2] == ["MAILTO=ann@example.org", "30 2 * * * /usr/bin/backup"]
    assert len(lines) == 3 and lines[2].startswith("15 7 * * * ")
    assert lines[2].split(None, 5)[5] == line.split(None, 5)[5]  # the same command, at the new time


def test_install_systemd_user_writes_the_units(course: Path, tmp_path: Path) -> None:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    calls = tmp_path / "systemctl-calls"
    (bin_dir / "systemctl").write_text(f'#!/bin/sh\necho "$@" >> {calls}\n')  # never the machine's own
    (bin_dir / "systemctl").chmod(0o755)
    home = tmp_path / "home"
    env = {k: v for k, v in os.environ.items() if k != "XDG_CONFIG_HOME"}
    env.update(HOME=str(home), PATH=f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    done = harness("schedule", "nightly", "--format", "systemd", "--install", "--config",
                   str(course / "tournaments.yaml"), cwd=course, env=env)
    assert done.returncode == 0, done.stderr
    folder = home / ".config/systemd/user"
    assert {p.name for p in folder.iterdir()} == {"harness-nightly.service", "harness-nightly.timer"}
    assert "OnCalendar=*-*-* 06:00:00" in (folder / "harness-nightly.timer").read_text()
    if Path("/run/systemd/system").is_dir():  # systemd runs here: the steps were run (by the fake)
        assert calls.read_text().splitlines() == ["--user daemon-reload", "--user enable --now harness-nightly.timer"]
    else:
        assert not calls.exists()
        assert "systemctl --user daemon-reload && systemctl --user enable --now harness-nightly.timer" in done.stderr


@pytest.mark.parametrize("args, message", [
    (["nope", "--format", "cron"], "no job named 'nope'"),
    (["nightly", "--format", "cron", "--at", "6am"], "--at '6am': expected a time of day as HH:MM"),
    (["nightly", "--format", "launchd"], "invalid choice: 'launchd'"),
    (["nightly", "--format", "cron", "--user", "--system"], "not allowed with argument"),
])
def test_bad_arguments_get_one_line(course: Path, args: list[str], message: str) -> None:
    done = harness("schedule", *args, cwd=course)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and message in done.stderr, done.stderr


def test_a_system_cron_file_names_its_user_and_a_broken_job_is_still_scheduled(course: Path) -> None:
    shutil.rmtree(course / "subs")  # a fresh server: no submissions yet
    done = harness("schedule", "nightly", "--format", "cron", "--system", cwd=course)
    assert done.returncode == 0, done.stderr
    assert "warning:" in done.stderr and "subs" in done.stderr
    header, shell, path, line = done.stdout.splitlines()
    assert header == "# /etc/cron.d/harness-nightly" and (shell, path) == ("SHELL=/bin/sh", "PATH=/usr/bin:/bin")
    owner = pwd.getpwuid((course / "tournaments.yaml").stat().st_uid).pw_name
    assert line.split(None, 6)[5] == owner and " run nightly --config " in line


def test_remove_takes_out_the_crontab_line_it_installed_and_nothing_else(course: Path, tmp_path: Path) -> None:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "crontab").write_text(FAKE_CRONTAB)
    (bin_dir / "crontab").chmod(0o755)
    table = tmp_path / "table"
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}", "CRONTAB_FILE": str(table)}
    config = str(course / "tournaments.yaml")
    table.write_text("MAILTO=ann@example.org\n30 2 * * * /usr/bin/backup\n")
    assert harness("schedule", "nightly", "--format", "cron", "--install", "--config", config,
                   cwd=course, env=env).returncode == 0
    other = course / "other.yaml"  # the same job name in another jobs file: another course's line, kept
    other.write_text(JOBS)
    assert harness("schedule", "nightly", "--format", "cron", "--install", "--config", str(other),
                   cwd=course, env=env).returncode == 0
    assert len(table.read_text().splitlines()) == 4
    removed = harness("schedule", "nightly", "--format", "cron", "--remove", "--config", config, cwd=course, env=env)
    assert removed.returncode == 0, removed.stderr
    assert "removed the line of nightly" in removed.stderr
    lines = table.read_text().splitlines()
    assert lines[:2] == ["MAILTO=ann@example.org", "30 2 * * * /usr/bin/backup"]
    assert len(lines) == 3 and lines[2].endswith(f"nightly {other}")
    again = harness("schedule", "nightly", "--format", "cron", "--remove", "--config", config, cwd=course, env=env)
    assert again.returncode == 1 and "nothing removed" in again.stderr and len(table.read_text().splitlines()) == 3


def test_remove_takes_out_the_systemd_units_it_installed(course: Path, tmp_path: Path) -> None:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    calls = tmp_path / "systemctl-calls"
    (bin_dir / "systemctl").write_text(f'#!/bin/sh\necho "$@" >> {calls}\n')  # never the machine's own
    (bin_dir / "systemctl").chmod(0o755)
    home = tmp_path / "home"
    env = {k: v for k, v in os.environ.items() if k != "XDG_CONFIG_HOME"}
    env.update(HOME=str(home), PATH=f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    config = str(course / "tournaments.yaml")
    assert harness("schedule", "nightly", "--format", "systemd", "--install", "--config", config,
                   cwd=course, env=env).returncode == 0
    folder = home / ".config/systemd/user"
    (folder / "unrelated.timer").write_text("[Timer]\n")
    calls.unlink(missing_ok=True)
    removed = harness("schedule", "nightly", "--format", "systemd", "--remove", "--config", config, cwd=course, env=env)
    assert removed.returncode == 0, removed.stderr
    assert {p.name for p in folder.iterdir()} == {"unrelated.timer"}
    if Path("/run/systemd/system").is_dir():
        assert calls.read_text().splitlines() == ["--user disable --now harness-nightly.timer", "--user daemon-reload"]
    else:
        assert not calls.exists() and "systemctl --user disable --now harness-nightly.timer" in removed.stderr
    assert harness("schedule", "nightly", "--format", "systemd", "--remove", "--config", config,
                   cwd=course, env=env).returncode == 1
