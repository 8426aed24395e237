"""``harness basic GAME PLAYER``: the game's grading battery for one bot (Quoridor's SemBasic)."""

from __future__ import annotations

import argparse
import json
from typing import Any

from harness.cli import UsageError, read_bot
from harness.games import game_names, get_game
from harness.text import block


def cmd_basic(args: argparse.Namespace) -> int:
    game = get_game(args.game)
    if game.battery is None:
        available = [n for n in game_names() if get_game(n).battery is not None]
        raise UsageError(f"no basic grading for {args.game!r} (available: {', '.join(available)})")
    from harness.tournament.battery import grade

    login, submission = read_bot(args.player, game)
    result = grade(game, submission, seed=args.seed, login=login)
    print(json.dumps(result.to_json()) if args.json else block(result.text()))  # it quotes the bot's errors
    return 0 if result.points == game.battery.points else 1


def register(sub: Any) -> None:
    """Add ``harness basic``."""
    basic = sub.add_parser("basic", help="a game's grading battery, e.g. Quoridor's SemBasic: the interface, "
                                         "expand_player, expand_obstacles")
    basic.add_argument("game", help="the game (quoridor)")
    basic.add_argument("player", metavar="PLAYER", help="the student's bot: player.py, a folder or player.zip")
    basic.add_argument("--seed", type=int, help="the battery's seed (default: the graded battery's)")
    basic.add_argument("--json", action="store_true", help="print the result as one JSON object")
    basic.set_defaults(func=cmd_basic)
