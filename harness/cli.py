"""The ``harness`` command."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import yaml

from harness.games import UnknownGame, get_game
from harness.games.base import SettingsError
from harness.match import play_match
from harness.record import GameRecord


class UsageError(Exception):
    """A bad argument: reported as one line, exit code 2."""


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
            raise UsageError(f"--set {item!r}: value is not valid YAML ({exc.problem})") from None
    return settings


def read_bot(path_text: str) -> tuple[str, bytes]:
    """A bot file's login and source; a missing or unreadable file is a usage error."""
    path = Path(path_text)
    try:
        return login_for(path), path.read_bytes()
    except OSError as exc:
        raise UsageError(f"{path_text}: cannot read the bot ({exc.strerror})") from None


def summary(record: GameRecord) -> str:
    """A few readable lines about one game."""
    lines = [f"{record.game}, seed {record.seed}, {record.plies} plies, {record.duration:.2f} s"]
    for i, p in enumerate(record.players):
        name = f" ({p.bot_name})" if p.bot_name else ""
        score = f"score {record.scores[i]:g}, " if i < len(record.scores) else ""
        lines.append(f"  [{i}] {p.login}{name}: {score}{p.verdict.value}"
                     f"{': ' + p.reason if p.reason else ''}  (slowest call {p.max_wall:.3f} s)")
    winner = "draw / nobody" if record.winner is None else record.players[record.winner].login
    lines.append(f"  winner: {winner}")
    if record.transcript:
        lines.append("  " + " ".join(record.transcript))
    return "\n".join(lines)


def cmd_play(args: argparse.Namespace) -> int:
    game = get_game(args.game)
    bots = [read_bot(p) for p in (args.bot_a, args.bot_b)]
    logins = [login for login, _ in bots]
    if logins[0] == logins[1]:
        logins = [f"{logins[0]}#1", f"{logins[1]}#2"]
    record = play_match(game, [src for _, src in bots], settings=parse_sets(args.set or []),
                        seed=args.seed, logins=logins)
    if args.json:
        print(json.dumps(record.to_json()))
    else:
        print(summary(record))
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="harness", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    play = sub.add_parser("play", help="play one game between two bots")
    play.add_argument("game", help="the game (e.g. streky, quoridor, priemspel)")
    play.add_argument("bot_a", metavar="A.py", help="the bot that moves first")
    play.add_argument("bot_b", metavar="B.py", help="the bot that moves second")
    play.add_argument("--seed", type=int, default=0, help="the game's seed (default 0)")
    play.add_argument("--set", action="append", metavar="KEY=VALUE", help="a game setting (YAML value)")
    play.add_argument("--json", action="store_true", help="print the game record as one JSON object")
    play.set_defaults(func=cmd_play)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.func(args))
    except (UsageError, UnknownGame, SettingsError) as exc:
        print(f"harness {args.command}: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
