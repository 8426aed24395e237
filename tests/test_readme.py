"""The README's commands work when copied: its two set-up commands are the documented ones, every
`harness` command it shows names a real subcommand whose options parse, every job it names is in
the shipped `tournaments.yaml`, every bot it plays exists, every file it links to exists, and its
cron example is what `harness schedule` prints."""

from __future__ import annotations

import argparse
import re
import shlex
import shutil
from pathlib import Path

import pytest

from harness.cli import UsageError, build_parser
from harness.commands import schedule
from harness.config import load_config
from harness.games import get_game
from tests.conftest import REPO

README = (REPO / "README.md").read_text(encoding="utf-8")
SETUP = ["python3 -m venv .venv && .venv/bin/pip install . && .venv/bin/harness run demo",
         "python3 -m venv .venv && .venv/bin/pip install '.[test]' && .venv/bin/python -m pytest"]
JOB_COMMANDS = {"run", "leaderboard", "status", "report", "export", "schedule", "autograder"}


def blocks(language: str) -> list[list[str]]:
    """The lines of every fenced block of ``language`` ("" for a block without one)."""
    found: list[list[str]] = []
    current: list[str] | None = None
    for line in README.splitlines():
        if current is None and line.startswith("```"):
            current = [] if line[3:] == language else None
            if current is None:  # another language's block: skip to its end
                current = ["<other>"]
        elif line == "```" and current is not None:
            if current[:1] != ["<other>"]:
                found.append(current)
            current = None
        elif current is not None:
            current.append(line)
    return found


def harness_commands() -> list[list[str]]:
    """Every `harness ...` command of the README's shell blocks, as argv without `harness`."""
    found = []
    for line in (line for block in blocks("sh") for line in block):
        words = shlex.split(line, comments=True)
        if words[:1] == ["sudo"]:
            words = words[1:]
        if words and words[0] in ("harness", ".venv/bin/harness"):
            found.append(words[1:])
    return found


def test_the_readme_is_short_and_starts_with_the_two_setup_commands() -> None:
    assert len(README.splitlines()) <= 400
    assert blocks("sh")[0] == SETUP
    assert "/usr/local/bin" not in README
    for line in (line for block in blocks("sh") for line in block):
        if line.startswith("python3"):  # every other set-up line starts one of them
            assert any(command.startswith(line) for command in SETUP), line


def test_every_harness_command_parses_and_names_what_exists() -> None:
    commands = harness_commands()
    assert len(commands) >= 20
    parser = build_parser()
    config = load_config(REPO / "tournaments.yaml")
    for argv in commands:
        try:
            args = parser.parse_args(argv)
        except (UsageError, SystemExit) as exc:
            pytest.fail(f"harness {shlex.join(argv)}: {exc}")
        assert isinstance(args, argparse.Namespace)
        if args.command in JOB_COMMANDS and not args.job.isupper():  # JOB is a placeholder
            assert args.job in config.names, f"harness {shlex.join(argv)}: no job {args.job!r}"
        if args.command in ("play", "check", "basic"):
            game = get_game(args.game)
            bots = args.bots if args.command == "play" else []
            for bot in bots:
                assert bot == "human" or (REPO / bot).exists() or game.reference_player(bot).exists(), bot
    assert {"run", "check", "play", "schedule", "export", "autograder"} <= {argv[0] for argv in commands}


def test_every_link_of_the_readme_exists() -> None:
    links = re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", README)
    assert links
    for link in links:
        if not link.startswith("http"):
            assert (REPO / link).exists(), link


def test_the_cron_example_is_what_schedule_prints(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    [example] = [line for block in blocks("") for line in block if "harness schedule:" in line]
    shutil.copy2(REPO / "tournaments.yaml", tmp_path / "tournaments.yaml")
    monkeypatch.setattr(schedule, "harness_argv", lambda: ([str(tmp_path / ".venv/bin/harness")], {}))
    args = argparse.Namespace(job="course", config=str(tmp_path / "tournaments.yaml"), log=None, at="06:00")
    assert schedule.cron_line(schedule.plan_of(args)).replace(str(tmp_path), "/srv/harness") == example
