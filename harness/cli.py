"""The ``harness`` command. Each subcommand lives in ``harness/commands/<name>.py``.

A command module defines ``register(subparsers)``, which adds its parser and sets ``func``
(``args -> exit code``). Modules are discovered, so adding a command touches no other file.
"""

from __future__ import annotations

import argparse
import os
import importlib
import pkgutil
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import yaml

from harness.games import UnknownGame
from harness.games.base import SettingsError


class UsageError(Exception):
    """A bad argument or input file: reported as one line, exit code 2."""


def login_for(path: Path) -> str:
    """A bot's name from its path: the folder of a ``player.py`` (the student's login), else the stem."""
    return path.parent.name if path.name == "player.py" and path.parent.name else path.stem


def parse_sets(items: Sequence[str]) -> dict[str, Any]:
    """``KEY=VALUE`` pairs, each value parsed as a YAML scalar or list."""
    settings: dict[str, Any] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise UsageError(f"--set {item!r}: expected KEY=VALUE")
        try:
            settings[key] = yaml.safe_load(value)
        except yaml.YAMLError as exc:
            raise UsageError(f"--set {item!r}: value is not valid YAML ({getattr(exc, 'problem', exc)})") from None
    return settings


def read_bot(path_text: str) -> tuple[str, bytes]:
    """A bot file's login and source; a missing or unreadable file is a usage error."""
    path = Path(path_text)
    try:
        return login_for(path), path.read_bytes()
    except OSError as exc:
        raise UsageError(f"{path_text}: cannot read the bot ({exc.strerror})") from None


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every discovered command registered."""
    import harness.commands

    parser = argparse.ArgumentParser(prog="harness", description="Tournaments and grading for student game bots.")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for info in sorted(pkgutil.iter_modules(harness.commands.__path__), key=lambda m: m.name):
        importlib.import_module(f"harness.commands.{info.name}").register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``harness`` command; returns its exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.func(args))
    except (UsageError, UnknownGame, SettingsError) as exc:
        print(f"harness {args.command}: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"harness {args.command}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # `harness ... | head`: the reader left; nothing to report
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


if __name__ == "__main__":
    # Run through the package module, so commands and this file share one UsageError class.
    from harness.cli import main as package_main

    sys.exit(package_main())
