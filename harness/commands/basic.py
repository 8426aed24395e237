"""``harness basic quoridor PLAYER.py``: the seed's SemBasic grading (interface + 2 points)."""

from __future__ import annotations

import argparse
from typing import Any

from harness.cli import UsageError

GRADERS = {"quoridor": "harness.games.quoridor.sembasic"}


def cmd_basic(args: argparse.Namespace) -> int:
    if args.game not in GRADERS:
        raise UsageError(f"no basic grading for {args.game!r} (available: {', '.join(sorted(GRADERS))})")
    from importlib import import_module

    grader = import_module(GRADERS[args.game])
    extra = {} if args.seed is None else {"seed": args.seed}
    return int(grader.run_cli(args.player, as_json=args.json, **extra))


def register(sub: Any) -> None:
    """Add ``harness basic``."""
    basic = sub.add_parser("basic", help="SemBasic grading: the interface, expand_player, expand_obstacles")
    basic.add_argument("game", help="the game (quoridor)")
    basic.add_argument("player", metavar="PLAYER.py", help="the student's bot")
    basic.add_argument("--seed", type=int, help="the battery's seed (default: the graded battery's)")
    basic.add_argument("--json", action="store_true", help="print the result as one JSON object")
    basic.set_defaults(func=cmd_basic)
