"""The ``harness`` command. Each subcommand lives in ``harness/commands/<name>.py``.

A command module defines ``register(subparsers)``, which adds its parser and sets ``func``
(``args -> exit code``). Modules are discovered, so adding a command touches no other file.

Every mistake of the user (a bad argument, a file that cannot be read, an unreachable
scheduler) is one line on stderr, ``harness COMMAND: problem``, and exit code 2; never a
traceback. A bot that cannot be used (a corrupt ``player.zip``) is the bot's problem: one line
too, and exit code 1, as a bot the grader would refuse.
"""

from __future__ import annotations

import argparse
import importlib
import os
import pkgutil
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NoReturn

import yaml

from harness import __version__
from harness.games import UnknownGame
from harness.games.base import GameSpec, SettingsError, is_bare_name
from harness.submission import Submission, SubmissionError, read_submission


class UsageError(Exception):
    """A bad argument or input file: reported as one line, exit code 2."""


class BadBot(UsageError):
    """The bot given cannot be used (a corrupt ``player.zip``, a link, no ``player.py``): the
    bot's problem, not the command line's: one line, exit code 1."""


class Parser(argparse.ArgumentParser):
    """argparse, with its usage errors as the one line every other mistake gets."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(message)


def login_for(path: Path) -> str:
    """A bot's name from its path: the folder of a ``player.py``/``player.zip`` (the student's
    login), a folder's name, else the file's stem."""
    if path.is_dir():
        return path.resolve().name
    return path.resolve().parent.name if path.name in ("player.py", "player.zip") and path.parent.name else path.stem


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


def read_bot(path_text: str, game: GameSpec | None = None) -> tuple[str, Submission]:
    """A bot's login and submission (a ``.py`` file, a folder or a ``.zip``); a usage error if unusable."""
    path = Path(path_text)
    if not path.exists() and game is not None and is_bare_name(path_text):
        try:  # a bare name that is no path names the game's shipped reference player
            path = game.reference_player(path_text)
        except LookupError as exc:
            raise UsageError(str(exc)) from None
    if not path.exists():
        raise UsageError(f"{path_text}: cannot read the bot (no such file or folder)")
    try:
        return login_for(path), read_submission(path, game.botapi_modules if game is not None else ())
    except SubmissionError as exc:
        raise BadBot(f"{path_text}: {exc}" if not str(exc).startswith(str(path)) else str(exc)) from None


def positive(text: str) -> int:
    """argparse type: an integer of at least 1."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a whole number, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def seconds(text: str) -> float:
    """argparse type: a duration in seconds, more than 0."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a number of seconds, got {text!r}") from None
    if not value > 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"must be more than 0 seconds, got {text}")
    return value


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every discovered command registered."""
    import harness.commands

    parser = Parser(prog="harness", description="Tournaments and grading for student game bots.")
    parser.add_argument("--version", action="version", version=f"harness (bot-harness) {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND", parser_class=Parser)
    for info in sorted(pkgutil.iter_modules(harness.commands.__path__), key=lambda m: m.name):
        if info.name.startswith("_"):
            continue
        try:
            module = importlib.import_module(f"harness.commands.{info.name}")
        except ImportError as exc:
            # A file an older version left behind (an upgrade over an editable install, say) must
            # not take every command down with it.
            print(f"harness: warning: ignoring the command module {info.name} ({exc}); reinstall the harness "
                  f"if this persists", file=sys.stderr)
            continue
        module.register(sub)
    return parser


def _command_name(argv: Sequence[str]) -> str:
    return next((a for a in argv if not a.startswith("-")), "")


def overview(parser: argparse.ArgumentParser) -> str:
    """What ``harness`` alone prints: every command with its one line of help."""
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    import textwrap

    from harness.terminal import width

    helps = [(c.dest, c.help or "") for c in commands._choices_actions]
    pad = max(len(name) for name, _ in helps)
    room = max(pad + 24, width())  # each command's help wrapped beside its name
    return "\n".join(["usage: harness COMMAND [ARGS ...]   (harness COMMAND --help: its arguments)", "",
                      "Tournaments and grading for student game bots. Commands:",
                      *(textwrap.fill(text, room, initial_indent=f"  {name:<{pad}}  ",
                                      subsequent_indent=" " * (pad + 4)) for name, text in helps)])


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``harness`` command; returns its exit code."""
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser()
    if not argv:
        print(overview(parser))
        return 0
    try:
        args = parser.parse_args(argv)
    except UsageError as exc:
        name = _command_name(argv)
        print(f"harness{' ' + name if name else ''}: {exc}", file=sys.stderr)
        return 2
    try:
        return int(args.func(args))
    except BadBot as exc:  # the bot's problem: exit 1, as a bot the grader would refuse
        print(f"harness {args.command}: {exc}", file=sys.stderr)
        return 1
    except (UsageError, UnknownGame, SettingsError, SubmissionError) as exc:
        print(f"harness {args.command}: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt as exc:
        why = str(exc) or "interrupted"
        print(f"harness {args.command}: {'stopped by ' + why if why != 'interrupted' else why}"
              f"{'; finished games are kept, run it again to resume' if args.command == 'run' else ''}",
              file=sys.stderr)
        return 130
    except BrokenPipeError:  # `harness ... | head`: the reader left; nothing to report
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except Exception as exc:  # noqa: BLE001 - a fault of the harness itself: still one line in a nightly log
        if os.environ.get("HARNESS_DEBUG"):
            raise
        where = exc.__traceback__
        while where is not None and where.tb_next is not None:
            where = where.tb_next
        # Python 3.11 can leave tb_lineno None: the frame's line, else the function's first, never "None".
        line = where and (where.tb_lineno or where.tb_frame.f_lineno or where.tb_frame.f_code.co_firstlineno)
        at = f" at {Path(where.tb_frame.f_code.co_filename).name}:{line}" if where is not None else ""
        print(f"harness {args.command}: internal error: {type(exc).__name__}: {str(exc)[:300]}{at} "
              f"(a fault of the harness, not of your input; HARNESS_DEBUG=1 shows the traceback)", file=sys.stderr)
        return 1


if __name__ == "__main__":
    # Run through the package module, so commands and this file share one UsageError class.
    from harness.cli import main as package_main

    sys.exit(package_main())
