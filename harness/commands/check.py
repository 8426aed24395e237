"""``harness check GAME player.py``: would the grader accept this bot? Exit code 0 only if so."""

from __future__ import annotations

import argparse
import json
import textwrap
from pathlib import Path
from typing import Any

from harness.check import (DEFAULT_GAMES, NEAR_LIMIT, CheckReport, GameResult, explain, opponent_name,
                           play_games, reference_players, sandbox_notes, static_checks)
from harness.cli import UsageError, parse_sets, read_bot
from harness.games import get_game
from harness.games.base import GameSpec
from harness.record import Verdict
from harness.report.html import seconds
from harness.sandbox.process import Limits

MARKS = {True: "ok  ", False: "FAIL", None: "skip"}


def game_line(g: GameResult, width: int) -> str:
    """One line per game: number, opponent, seat, seed, verdict, result, plies, slowest move."""
    slowest = max((w for w, _ in g.move_walls()), default=None)
    line = (f"  game {g.number:>3}  vs {g.opponent:<{width}}  seat {g.seat}  seed {g.record.seed:<4} "
            f"{g.verdict.value:<13} {g.result:<9} {g.record.plies:>4} plies  slowest move {seconds(slowest)}")
    if g.reason:
        line += "\n" + textwrap.shorten(g.reason, 100, placeholder="...").join(["        ", ""])
    return line


def error_text(report: CheckReport) -> str:
    """The first error: what, where, the answer, the position, the traceback, the replay file."""
    err = report.first_error
    if err is None:
        return ""
    g = err.game
    where = f"game {g.number} vs {g.opponent} (seat {g.seat}, seed {g.record.seed}), after {err.ply} plies"
    lines = [f"First error: {where}: {g.verdict.value}", textwrap.indent(g.reason, "  ")]
    if g.verdict is Verdict.HARNESS_ERROR:
        lines.append("  (the harness failed, not your bot: please report this)")
    if err.answer:
        lines.append(f"  answer: {err.answer}")
    lines += ["  position:", textwrap.indent(err.position, "    ")]
    tb = g.record.players[g.seat].traceback.strip()
    if tb:
        lines += ["  traceback:", textwrap.indent("\n".join(tb.splitlines()[-12:]), "    ")]
    if err.replay is not None:
        lines.append(f"  replay: {err.replay}  (open it in a browser)")
    elif err.replay_problem:
        lines.append(f"  replay: not written ({err.replay_problem})")
    return "\n".join(lines)


def verdict_text(report: CheckReport) -> str:
    """The last line: PASS or FAIL, and why."""
    if not report.static_ok:
        failed = next(c for c in report.static if c.ok is False)
        return f"FAIL: {failed.name}: {failed.detail}"
    bad = [g for g in report.games if g.verdict is not Verdict.OK]
    if not bad:
        return f"PASS: all {len(report.games)} games ok: the grader would accept this bot."
    return f"FAIL: {len(bad)} of {len(report.games)} games end with a verdict against your bot."


def slowest_text(report: CheckReport, limit: float) -> list[str]:
    """The slowest answers, and a warning when one comes near the limit."""
    slow = report.slowest_moves()
    if not slow:
        return []
    lines = ["Slowest moves: " + ", ".join(f"{seconds(w)} (game {n}, ply {p})" for w, n, p in slow)
             + f"; the limit is {limit:g} s per move"]
    if slow[0][0] > NEAR_LIMIT * limit:
        lines.append(f"  warning: {slow[0][0] / limit:.0%} of the limit; a busy grading machine can be "
                     "1.5x slower: keep a margin")
    return lines


def _references(game: GameSpec, against: list[str]) -> list[Path]:
    """The game's reference players, or the ones ``--against`` names, in its order."""
    references = reference_players(game)
    if not references:
        raise UsageError(f"no reference players for {game.name} in {game.reference_dir}")
    if not against:
        return references
    known = {r.stem: r for r in references}
    unknown = [name for name in against if name not in known]
    if unknown:
        raise UsageError(f"--against {unknown[0]}: no such reference player (known: {', '.join(known)})")
    return [known[name] for name in dict.fromkeys(against)]


def cmd_check(args: argparse.Namespace) -> int:
    game = get_game(args.game)
    login, source = read_bot(args.player)
    if args.games < 1:
        raise UsageError(f"--games {args.games}: must be at least 1")
    settings = parse_sets(args.set or [])
    game.rules.parse_settings(dict(settings))  # a bad setting is a usage error, before any process
    references = _references(game, args.against or [])
    quiet = args.json
    limits = Limits(policy=args.policy).with_game(game)

    report = CheckReport(game, args.player, [], sandbox_notes())
    say = (lambda text: None) if quiet else (lambda text: print(text, flush=True))
    say(f"Checking {args.player} for {game.title} ({game.name})")
    report.static = static_checks(game, source, login=login, settings=settings, seed=args.seed, limits=limits)
    say("Static checks")
    for c in report.static:
        say(f"  {MARKS[c.ok]}  {c.name}" + (f"  ({c.detail})" if c.detail else ""))
    for note in report.notes:
        say(f"  note: {note}")
    if report.static_ok:
        names = [opponent_name(r, login) for r in references]
        say(f"Games: {args.games} against each of {', '.join(names)} (seats alternate; limits: "
            f"constructor {limits.init:g} s, move {limits.move:g} s)")
        width = max(len(n) for n in names)
        for result in play_games(game, source, login=login, references=references, games=args.games,
                                 seed=args.seed, settings=settings, limits=limits):
            report.games.append(result)
            say(game_line(result, width))
        first = next((g for g in report.games if g.verdict is not Verdict.OK), None)
        if first is not None:
            report.first_error = explain(first, game, Path(args.out))
    else:
        say("Games: not played: fix the static checks first (the grader would fail every game).")
    if quiet:
        print(json.dumps(report.to_json(), indent=2))
    else:
        for line in slowest_text(report, limits.move):
            say(line)
        if report.first_error is not None:
            say(error_text(report))
        say(verdict_text(report))
    return 0 if report.passed else 1


def register(sub: Any) -> None:
    """Add ``harness check``."""
    check = sub.add_parser("check", help="check a bot as the grader would, before submitting it",
                           description="Static checks, then seeded games against every reference player "
                                       "under the real limits. Exit code 0 only if every game is ok.")
    check.add_argument("game", help="the game (e.g. streky, quoridor, priemspel)")
    check.add_argument("player", metavar="player.py", help="the bot to check")
    check.add_argument("--games", type=int, default=DEFAULT_GAMES,
                       help=f"games against each reference player (default {DEFAULT_GAMES})")
    check.add_argument("--seed", type=int, default=0, help="the first game's seed (default 0)")
    check.add_argument("--against", action="append", metavar="NAME",
                       help="play only this reference player (repeatable; default: all of the game's)")
    check.add_argument("--set", action="append", metavar="KEY=VALUE", help="a game setting (YAML value)")
    check.add_argument("--out", default=".", metavar="DIR",
                       help="where to write the replay of the first error (default: here)")
    check.add_argument("--json", action="store_true", help="print the findings as one JSON object")
    check.add_argument("--policy", choices=["cpu", "wall"], default="cpu",
                       help="which clock judges a call: cpu (as grading jobs do by default) or wall")
    check.set_defaults(func=cmd_check)
