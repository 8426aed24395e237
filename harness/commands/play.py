"""``harness play GAME A B ...``: play one game and print a summary or the record as JSON.

A bot is a ``.py`` file, a submission folder or a ``player.zip``; ``human`` puts a person at this
terminal in that seat (see :mod:`harness.human`).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from harness.cli import UsageError, parse_sets, read_bot
from harness.commands._jobs import packages_of
from harness.games import get_game
from harness.match import play_match
from harness.record import GameRecord
from harness.sandbox.limits import Limits
from harness.text import line

HUMAN = "human"


def summary(record: GameRecord) -> str:
    """A few readable lines about one game."""
    lines = [f"{record.game}, seed {record.seed}, {record.plies} plies, {record.duration:.2f} s"]
    for i, p in enumerate(record.players):  # names and reasons may be a bot's words: one line each
        name = f" ({line(p.bot_name)})" if p.bot_name else ""
        score = f"score {record.scores[i]:g}, " if i < len(record.scores) else ""
        place = f"place {record.places[i]}, " if len(record.places) == len(record.players) and len(record.players) > 2 else ""
        lines.append(f"  [{i}] {line(p.login)}{name}: {place}{score}{p.verdict.value}"
                     f"{': ' + line(p.reason) if p.reason else ''}  (slowest call {p.max_wall:.3f} s)")
    winner = "draw / nobody" if record.winner is None else line(record.players[record.winner].login)
    lines.append(f"  winner: {winner}")
    if len(record.players) > 2 and record.order:
        lines.append(f"  finishing order: {', '.join(map(line, record.order))}")
    if record.transcript:  # the game's own notation; a long one (Človeče's) only its last position
        joined = " ".join(record.transcript)
        lines.append("  " + line(joined if len(joined) <= 400 else record.transcript[-1]))
    return "\n".join(lines)


def cmd_play(args: argparse.Namespace) -> int:
    game = get_game(args.game)
    if len(args.bots) != game.players:
        raise UsageError(f"{game.title} is played by {game.players} bots, got {len(args.bots)}: "
                         f"harness play {game.name} {' '.join(f'BOT{i + 1}' for i in range(game.players))}")
    settings = parse_sets(args.set or [])
    game.rules.parse_settings(dict(settings))  # a bad setting is a usage error, before any process
    limits = Limits.default(game, args.policy, packages=packages_of(args.package, game))
    humans = [i for i, b in enumerate(args.bots) if b == HUMAN]
    seats: list[Any] = []
    logins: list[str] = []
    for i, text in enumerate(args.bots):
        if i in humans:
            logins.append("Human")
            seats.append(None)
        else:
            login, submission = read_bot(text, game)
            logins.append("Computer" if humans and len(args.bots) - len(humans) == 1 else login)
            seats.append(submission)
    if len(set(logins)) < len(logins):
        logins = [f"{login}#{i + 1}" for i, login in enumerate(logins)]
    if humans:
        from harness.human import HumanSeat

        for i in humans:
            seats[i] = HumanSeat(game, sys.stdin, sys.stdout)
    record = play_match(game, seats, settings=settings, seed=args.seed, logins=logins, limits=limits)
    if args.replay:
        from harness.report.replay import write_replay  # imported late: jinja2 only when asked

        try:
            write_replay(record, args.replay)
        except OSError as exc:
            raise UsageError(f"--replay {args.replay}: cannot write the page ({exc.strerror})") from None
    if args.json:
        print(json.dumps(record.to_json()))
    elif not humans:
        print(summary(record))
        if args.replay:
            print(f"  replay: {args.replay}")
    return 0


def register(sub: Any) -> None:
    """Add ``harness play``."""
    play = sub.add_parser("play", help="play one game between bots (or a person: `human`)")
    play.add_argument("game", help="the game (e.g. streky, quoridor, priemspel, clovece, blokovanie)")
    play.add_argument("bots", nargs="+", metavar="BOT",
                      help="one bot per seat, first mover first: a .py file, a folder, a player.zip, or `human`")
    play.add_argument("--seed", type=int, default=0, help="the game's seed (default 0)")
    play.add_argument("--set", action="append", metavar="KEY=VALUE", help="a game setting (YAML value)")
    play.add_argument("--policy", choices=["wall", "cpu"], default="wall",
                      help="which clock judges a call: wall (the course's rule, default) or cpu")
    play.add_argument("--package", action="append", metavar="NAME",
                      help="an installed package the bots may import (like a job's bot_packages; repeatable)")
    play.add_argument("--json", action="store_true", help="print the game record as one JSON object")
    play.add_argument("--replay", metavar="FILE.html",
                      help="also write the game's replay viewer (one self-contained HTML page)")
    play.set_defaults(func=cmd_play)
