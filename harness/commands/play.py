"""``harness play GAME A.py B.py``: play one game and print a summary or the record as JSON."""

from __future__ import annotations

import argparse
import json
from typing import Any

from harness.cli import UsageError, parse_sets, read_bot
from harness.games import get_game
from harness.match import play_match
from harness.record import GameRecord
from harness.sandbox.limits import Limits


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
                        seed=args.seed, logins=logins, limits=Limits(policy=args.policy).with_game(game))
    if args.replay:
        from harness.report.replay import write_replay  # imported late: jinja2 only when asked

        try:
            write_replay(record, args.replay)
        except OSError as exc:
            raise UsageError(f"--replay {args.replay}: cannot write the page ({exc.strerror})") from None
    if args.json:
        print(json.dumps(record.to_json()))
    else:
        print(summary(record))
        if args.replay:
            print(f"  replay: {args.replay}")
    return 0


def register(sub: Any) -> None:
    """Add ``harness play``."""
    play = sub.add_parser("play", help="play one game between two bots")
    play.add_argument("game", help="the game (e.g. streky, quoridor, priemspel)")
    play.add_argument("bot_a", metavar="A.py", help="the bot that moves first")
    play.add_argument("bot_b", metavar="B.py", help="the bot that moves second")
    play.add_argument("--seed", type=int, default=0, help="the game's seed (default 0)")
    play.add_argument("--set", action="append", metavar="KEY=VALUE", help="a game setting (YAML value)")
    play.add_argument("--policy", choices=["wall", "cpu"], default="wall",
                      help="which clock judges a call: wall (the course's rule, default) or cpu")
    play.add_argument("--json", action="store_true", help="print the game record as one JSON object")
    play.add_argument("--replay", metavar="FILE.html",
                      help="also write the game's replay viewer (one self-contained HTML page)")
    play.set_defaults(func=cmd_play)
