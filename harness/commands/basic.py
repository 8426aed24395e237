"""``harness basic quoridor PLAYER``: the seed's SemBasic grading (interface + 2 points) of one bot."""

from __future__ import annotations

import argparse
import json
from typing import Any

from harness.cli import UsageError, read_bot
from harness.games import get_game
from harness.text import block

GAMES = ("quoridor",)


def cmd_basic(args: argparse.Namespace) -> int:
    game = get_game(args.game)
    if game.name not in GAMES:
        raise UsageError(f"no basic grading for {args.game!r} (available: {', '.join(GAMES)})")
    from harness.tournament.sembasic import DEFAULT_SEED, grade

    login, submission = read_bot(args.player, game)
    result = grade(submission, seed=DEFAULT_SEED if args.seed is None else args.seed, login=login)
    print(json.dumps(result.to_json()) if args.json else block(result.text()))  # it quotes the bot's errors
    return 0 if result.points == 2 else 1


def register(sub: Any) -> None:
    """Add ``harness basic``."""
    basic = sub.add_parser("basic", help="SemBasic grading: the interface, expand_player, expand_obstacles")
    basic.add_argument("game", help="the game (quoridor)")
    basic.add_argument("player", metavar="PLAYER", help="the student's bot: player.py, a folder or player.zip")
    basic.add_argument("--seed", type=int, help="the battery's seed (default: the graded battery's)")
    basic.add_argument("--json", action="store_true", help="print the result as one JSON object")
    basic.set_defaults(func=cmd_basic)
