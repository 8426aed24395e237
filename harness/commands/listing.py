"""``harness list``: the jobs of the jobs file in force, the installed games and their reference players."""

from __future__ import annotations

import argparse
import ast
from pathlib import Path
from typing import Any

from harness.pregrade import reference_players
from harness.commands._jobs import DEFAULT_CONFIG
from harness.config import Config, ConfigError, load_config
from harness.games import game_names, get_game
from harness.terminal import cut, width

SHIPPED = Path(__file__).resolve().parents[1] / "jobs" / "grading.yaml"


def first_line(path: Path) -> str:
    """The first line of a Python file's docstring, ``""`` if it has none or cannot be read."""
    try:
        doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8")))
    except (OSError, SyntaxError, ValueError, UnicodeDecodeError):
        return ""
    return doc.strip().splitlines()[0] if doc and doc.strip() else ""


def _jobs_file(args: argparse.Namespace) -> tuple[Config | None, str]:
    """The jobs file in force (``--config``, else ./tournaments.yaml, else the shipped grading jobs)."""
    path = Path(args.config or DEFAULT_CONFIG)
    if not path.exists():
        if args.config:
            return None, f"{path}: no such jobs file"
        return load_config(SHIPPED), "the harness's shipped grading jobs (no ./tournaments.yaml here)"
    try:
        return load_config(path), str(path)
    except ConfigError as exc:
        return None, str(exc)


def cmd_list(args: argparse.Namespace) -> int:
    room = width()

    def say(text: str) -> None:
        print(cut(text, room))

    config, source = _jobs_file(args)
    say(f"Jobs (from {source}):" if config is not None else f"Jobs: none ({source})")
    if config is not None:
        names = config.names
        pad = max((len(n) for n in names), default=0)
        for name in names:
            if name in config.problems:
                say(f"  {name:<{pad}}  unusable: {config.problems[name]}")
            elif name in config.groups:
                say(f"  {name:<{pad}}  group: {', '.join(config.groups[name])}")
            else:
                job = config.jobs[name]
                say(f"  {name:<{pad}}  {job.game} {job.format}")
    games = [get_game(n) for n in game_names()]
    say("")
    say("Games (harness play GAME BOT ..., harness check GAME BOT):")
    pad = max(len(g.name) for g in games)
    for g in games:
        say(f"  {g.name:<{pad}}  {g.title}, {g.players} players")
    say("")
    say("Reference players (harness check GAME BOT --against NAME):")
    for g in games:
        players = reference_players(g)
        say(f"  {g.name}:" + ("" if players else " none"))
        pad = max((len(p.stem) for p in players), default=0)
        for p in players:
            say(f"    {p.stem:<{pad}}  {first_line(p)}".rstrip())
    return 0


def register(sub: Any) -> None:
    """Add ``harness list``."""
    listing = sub.add_parser("list", help="list the jobs, the games and their reference players")
    listing.add_argument("--config", help=f"the jobs file (default: {DEFAULT_CONFIG} in the current folder, "
                                          f"else the shipped grading jobs)")
    listing.set_defaults(func=cmd_list)
