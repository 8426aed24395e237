"""``harness check GAME BOT``: would the grader accept this bot? Exit code 0 only if so.

It plays the grading job of the game (``--job`` picks another) from the jobs file in force
(``--config``, else ``./tournaments.yaml``; the shipped grading jobs when there is none), and
says what it plays before it plays. ``--against NAME`` plays practice games instead.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import sys
import tempfile
import textwrap
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

from harness.checkwords import battery_line, job_lines
from harness.pregrade import (DEFAULT_GAMES, NEAR_LIMIT, CheckReport, GameResult, explain, grading_tasks,
                              limits_text, opponent_name, play_games, play_grading, reference_players,
                              sandbox_notes, seat_of, static_checks)
from harness.cli import UsageError, parse_sets, positive, read_bot
from harness.commands._jobs import packages_of
from harness.config import Config, ConfigError, Job, load_config
from harness.games import get_game
from harness.games.base import GameSpec
from harness.record import GameRecord, Verdict, interpreter_text
from harness.report.html import seconds
from harness.report.position import failed_before_play
from harness.sandbox import interpreter
from harness.sandbox.limits import Limits
from harness.studentkit import KIT_HEADER
from harness.submission import Submission
from harness.terminal import cut, game_label, is_terminal, prose_width, width, wrapped
from harness.text import block, line

MARKS = {True: "ok  ", False: "FAIL", None: "skip"}
SHIPPED = Path(__file__).resolve().parents[1] / "jobs" / "grading.yaml"


def game_line(g: GameResult, width: int) -> str:
    """One line per game (``--verbose``): number, opponent, seat, seed, verdict, result, plies, slowest move."""
    slowest = max((w for w, _ in g.move_walls()), default=None)
    text = (f"  game {g.number:>3}  vs {line(g.opponent):<{width}}  seat {g.seat}  seed {g.record.seed:<6} "
            f"{g.verdict.value:<13} {g.result:<9} {g.record.plies:>4} plies  slowest move {seconds(slowest)}")
    if g.reason:
        text += "\n        " + cut(line(g.reason), 100)
    return text


class GameLines:
    """How ``check`` shows its games: :meth:`on_game` as each ends (games run in parallel, so in
    the order they end), :meth:`game` for each in the job's order.

    ``--verbose``: one line per game, in order. On a terminal: one progress line, rewritten as
    each game ends (``\\r``), that stays as the games' summary. Piped (a log, CI): only that
    summary, once.
    """

    def __init__(self, total: int, pad: int, login: str, *, verbose: bool, out: TextIO | None = None) -> None:
        self.total, self.pad, self.login, self.verbose = total, pad, login, verbose  # pad: opponents' width
        self.out = out or sys.stdout
        self.live = not verbose and is_terminal(self.out)
        self.counts: Counter[str] = Counter()
        self.played = 0
        self.shown = 0  # the length of the progress line on screen

    def summary(self) -> str:
        """``Played 12 of 80: 11 ok, 1 timeout``: how many games ended with each verdict."""
        parts = [f"{n} {'ok' if v == Verdict.OK.value else v}" for v, n in
                 sorted(self.counts.items(), key=lambda kv: (kv[0] != Verdict.OK.value, kv[0]))]
        return f"Played {self.played} of {self.total}: {', '.join(parts) or 'none'}"

    def on_game(self, done: int, total: int, record: GameRecord) -> None:
        """A game ended (the ``on_game`` hook of :func:`harness.pregrade.play_grading`): count it, redraw."""
        self.played = done
        verdict = next((p.verdict for p in record.players if p.login == self.login), Verdict.HARNESS_ERROR)
        self.counts[verdict.value] += 1
        if self.live:
            text = cut(self.summary(), max(20, width(self.out) - 1))
            self.out.write("\r" + text.ljust(self.shown))
            self.shown = len(text)
            self.out.flush()

    def game(self, result: GameResult) -> None:
        """The next game in the job's order: its line, with ``--verbose``."""
        if self.verbose:
            self.out.write(wrapped(game_line(result, self.pad), prose_width(self.out)) + "\n")
            self.out.flush()

    def close(self) -> None:
        """The games are over: end the progress line, or print the summary once."""
        if self.live and self.played:
            self.out.write("\n")
        elif not self.verbose:
            self.out.write(self.summary() + "\n")
        self.out.flush()


def error_text(report: CheckReport) -> str:
    """The first error: what, where, the answer, the position, the traceback, the replay file."""
    err = report.first_error
    if err is None:
        return ""
    g = err.game
    where = f"{game_label(g.number, g.record.seed, g.seat)} vs {line(g.opponent)}, after {err.ply} plies"
    first = "The harness failed" if g.verdict is Verdict.HARNESS_ERROR else "First error"
    room = prose_width()
    lines = [wrapped(f"{first}: {where}: {g.verdict.value}", room),
             wrapped(textwrap.indent(block(g.reason), "  "), room)]
    if g.verdict is Verdict.HARNESS_ERROR:
        lines.append("  (the harness failed, not your bot: please report this)")
    if err.answer:
        lines.append(wrapped(f"  answer: {line(err.answer)}", room))
    if failed_before_play(g.record, g.seat):  # never given a position: an empty board says nothing
        lines.append("  position: none (your bot failed before its first move)")
    else:
        lines += ["  position:", textwrap.indent(block(err.position), "    ")]
    tb = block(g.record.players[g.seat].traceback).strip()
    if tb:
        lines += ["  traceback:", textwrap.indent("\n".join(tb.splitlines()[-12:]), "    ")]
    if err.replay is not None:
        lines.append(wrapped(f"  replay: {err.replay}  (open it in a browser)", room))
    elif err.replay_problem:
        lines.append(wrapped(f"  replay: not written ({err.replay_problem})", room))
    return "\n".join(lines)


def verdict_text(report: CheckReport) -> str:
    """The last line: PASS or FAIL, and why; PASS only for games of the grading job."""
    if not report.static_ok:
        failed = next(c for c in report.static if c.ok is False)
        if failed.detail.startswith(Verdict.HARNESS_ERROR.value):
            return (f"NO VERDICT: the harness failed at \"{failed.name}\" (not your bot's fault: please report "
                    f"it): {line(failed.detail)}")
        return f"FAIL: {failed.name}: {line(failed.detail)}"
    bad = [g for g in report.games if g.verdict.charged]
    faults = [g for g in report.games if g.verdict is Verdict.HARNESS_ERROR]
    n = len(report.games)
    failed = (f"the harness failed in {len(faults)} of {n} games (not your bot's fault: please report it; "
              f"those games say nothing about your bot)") if faults else ""
    if bad:
        return f"FAIL: {len(bad)} of {n} games end with a verdict against your bot" + (
            f"; {failed}." if faults else ".")
    if faults:
        return f"NO VERDICT: {failed}; run the check again."
    if not report.games:
        return "FAIL: no game was played."
    if report.battery_short:  # the games are fine, the battery's points are not: the seed needs them all
        games = f"all {n} games" if not report.sample else f"a sample of {n} games"
        return (f"FAIL: {battery_line(report.battery)}, and the grader needs all {report.battery.battery.points} "
                f"({games} of {report.job.name if report.job else 'the job'} ok).")
    if report.job is None or report.modified:
        return (f"No errors in {n} practice games (not what the grader plays: run without "
                f"{'--set' if report.modified else '--against'} to play the grading job's games)."
                + deductions(report))
    if report.sample:
        return (f"PASS on a sample: {n} of the {report.job_games} games of {report.job.name} ok; the grader plays "
                f"all {report.job_games} (run without --games to play them all)." + deductions(report))
    return f"PASS: the grader would accept this bot: all {n} games of {report.job.name} ok." + deductions(report)


def deductions(report: CheckReport) -> str:
    """`` But ... 20 % of the points off`` when a code rule of the seed costs points."""
    from harness.coderules.grading import style_off

    parts = [f"{r.title} costs {r.share_off * 100:g} % of the points ({len(r.findings)} "
             f"place{'s' if len(r.findings) != 1 else ''}, listed above)" for r in report.code_rules if r.share_off]
    style = style_off(report.job, report.code_rules) if report.job is not None else 0.0
    if style:
        parts.append(f"PEP 8 costs {style:g} points under {report.job.name}'s awards")
    return " But " + "; ".join(parts) + "." if parts else ""


def code_rules_lines(report: CheckReport, game: GameSpec, submission: Submission,
                     waived: Sequence[str] = ()) -> list[str]:
    """The seed's code rules on the bot (checked in a capped child): each with its places.

    They never stop the games: the grader plays the bot and then takes off what a rule costs."""
    if not game.submission.code_rules:
        return []
    from harness.coderules import code_rules_of

    report.code_rules = code_rules_of(game, submission, waived)
    out = ["Code rules (graded on the code; they do not stop the games)"]
    for r in report.code_rules:
        out.append(f"  {'ok  ' if not r.findings and not r.problem else 'warn' if not r.share_off else 'LOSE'}  "
                   f"{line(r.summary())}")
        out += [f"        {line(f)}" for f in r.findings[:40]]
        if len(r.findings) > 40:
            out.append(f"        ... {len(r.findings) - 40} more (--json lists them all)")
    return out


def timed_out(report: CheckReport) -> list[tuple[float, float, int, str]]:
    """Each call stopped for time (it never answered, so it is no move): (its CPU seconds, its
    wall-clock seconds, game number, where). Its CPU time is the bot's total less its answered
    moves' (the constructor's share included: a small over-estimate); its wall-clock time is the
    bot's slowest call, which is the one the harness stopped."""
    out = []
    for g in report.games:
        if g.verdict is not Verdict.TIMEOUT:
            continue
        player = g.record.players[g.seat]
        own = [m for m in g.record.moves if m.player == g.seat]
        cpu = max(0.0, player.cpu - sum(m.cpu or 0.0 for m in own))
        where = ("constructor" if player.reason.startswith(f"{report.game.interface.student_class}(")
                 else f"ply {len(g.record.moves) + 1}")
        out.append((cpu, player.max_wall, g.number, f"{where}: timed out"))
    return out


def slowest_text(report: CheckReport, limits: Limits) -> list[str]:
    """The slowest answers on the clock that judges them, the calls stopped for time first, and a
    warning near the limit."""
    stopped = timed_out(report)
    if limits.policy == "cpu":
        moves = sorted(((m.cpu or 0.0, g.number, f"ply {ply}") for g in report.games
                        for ply, m in enumerate(g.record.moves, start=1) if m.player == g.seat), key=lambda t: -t[0])
        moves = ([(c, n, w) for c, _, n, w in stopped] + moves)[:max(3, len(stopped[:3]))]
        walls = [(w, n, f"ply {p}") for w, n, p in report.slowest_moves(1)]
        walls = sorted([(w, n, where) for _, w, n, where in stopped] + walls, key=lambda t: -t[0])[:1]
        if not moves:
            return []
        lines = ["Slowest moves (CPU time, the clock that judges them): "
                 + ", ".join(f"{seconds(c)} (game {n}, {p})" for c, n, p in moves)
                 + f"; the limit is {limits.move:g} s of CPU time per move"]
        if walls:
            lines.append(f"  slowest in own time (wall-clock time less waits for a CPU): {seconds(walls[0][0])} "
                         f"(game {walls[0][1]}, {walls[0][2]}); any call is stopped after "
                         f"{limits.move * limits.backstop:g} s")
        top = max(moves[0][0] / limits.move, (walls[0][0] / (limits.move * limits.backstop)) if walls else 0)
    else:
        walls = [(w, n, f"ply {p}") for w, n, p in report.slowest_moves()]
        walls = ([(w, n, where) for _, w, n, where in stopped] + walls)[:max(3, len(stopped[:3]))]
        if not walls:
            return []
        lines = ["Slowest moves (own time: wall-clock time less waits for a CPU, the clock that judges them): "
                 + ", ".join(f"{seconds(w)} (game {n}, {p})" for w, n, p in walls)
                 + f"; the limit is {limits.move:g} s per move"]
        top = walls[0][0] / limits.move
    if top > NEAR_LIMIT and not stopped:
        lines.append(f"  warning: {top:.0%} of the limit; a busy grading machine can be slower: keep a margin")
    return lines


def _references(game: GameSpec, against: list[str]) -> list[Path]:
    """The reference players ``--against`` names, in its order."""
    references = reference_players(game)
    if not references:
        raise UsageError(f"no reference players for {game.name} in {game.reference_dir}")
    known = {r.stem: r for r in references}
    unknown = [name for name in against if name not in known]
    if unknown:
        raise UsageError(f"--against {unknown[0]}: no such reference player (known: {', '.join(known)})")
    return [known[name] for name in dict.fromkeys(against)]


def grading_job(args: argparse.Namespace, game: GameSpec) -> tuple[Job, str, list[str]]:
    """The job check plays, where it comes from (the jobs file in force, or the shipped one), and
    what of the job was left out because check needs it not (a missing submissions folder or roster)."""
    chosen = Path(args.config) if args.config else Path("tournaments.yaml")
    config: Config | None = None
    if chosen.exists():
        try:  # a student's copy of the course's file has no submissions folder or roster: check needs neither
            config = load_config(chosen, students=False)
        except ConfigError as exc:
            raise UsageError(str(exc)) from None
    elif args.config:
        raise UsageError(f"--config {args.config}: no such file")
    if args.job:
        if config is None:
            config = load_config(SHIPPED)
        try:
            (job,) = config.resolve(args.job)
        except (ConfigError, ValueError) as exc:
            raise UsageError(f"--job {args.job}: {exc}") from None
        if job.game != game.name:
            raise UsageError(f"--job {args.job}: a job of {job.game}, not of {game.name}")
        return job, str(config.path), config.notes.get(job.name, [])
    if config is not None:
        job = config.grading_job(game.name)
        if job is not None:
            return job, str(config.path), config.notes.get(job.name, [])
        problem = config.problems.get(f"{game.name}-grading")
        if problem:
            raise UsageError(problem)
    shipped = load_config(SHIPPED).grading_job(game.name)
    if shipped is None:
        raise UsageError(f"no grading job for {game.name} (in {chosen if config else 'the shipped jobs'}): "
                         f"name one with --job, or practise with --against NAME")
    kit = SHIPPED.read_text(encoding="utf-8").startswith(KIT_HEADER)  # installed from a course's kit
    return shipped, "the course's kit" if kit else "the harness's shipped grading jobs", []


def run_battery(game: GameSpec, submission: Any, login: str, limits: Limits, say: Any) -> Any:
    """The game's grading battery (Quoridor's SemBasic), as its grading job runs it: the points it
    would award are part of what the grader says. Lost points are stated in the last line; they
    do not change the exit code, which says whether the bot plays by the rules."""
    from harness.tournament.battery import grade

    limits = dataclasses.replace(Limits().with_game(game), packages=limits.packages)
    result = grade(game, submission, login=login, limits=limits)
    # Its boards are narrower than any terminal; its long lines are prose (or a call inside brackets).
    say(block(result.text()))  # it quotes the bot's answers
    return result


def shipped_copy_lines(report: CheckReport, game: GameSpec, submission: Submission) -> list[str]:
    """A note (also in ``--json``'s notes) when the bot is a copy of a shipped reference player:
    ``harness similarity`` reports it to the instructor as one (docs/similarity.md)."""
    from harness.report.similarity import shipped_copies

    out = []
    for pair in shipped_copies(game, submission.python_files()):
        note = (f"copy of reference player `{pair.reference}`, {pair.code:.2f} of its own code: "
                f"`harness similarity` reports it to the instructor")
        report.notes.append(note)
        out.append(f"  note: {note}")
    return out


def cmd_check(args: argparse.Namespace) -> int:
    game = get_game(args.game)
    login, submission = read_bot(args.player, game)
    settings = parse_sets(args.set or [])
    if settings:
        game.rules.parse_settings(dict(settings))  # a bad setting is a usage error, before any process
    quiet = args.json
    room = prose_width()
    # Prose is wrapped to the terminal; drawings (positions, the battery's boards) are printed as they are.
    say = (lambda text: None) if quiet else (lambda text: print(wrapped(text, room), flush=True))
    show = (lambda text: None) if quiet else (lambda text: print(text, flush=True))
    job: Job | None = None
    left_out: list[str] = []
    if args.against:
        references = _references(game, args.against)
        limits = Limits.default(game, args.policy, packages=packages_of(args.package, game))
    else:
        job, source, left_out = grading_job(args, game)
        if settings:  # then this is no longer what the grader plays (said in the last line)
            job = dataclasses.replace(job, settings=(game.rules.parse_settings(dict(settings)),))
            source += "; with the --set settings instead of the job's"
        limits = job.limits
        if args.policy:
            limits = dataclasses.replace(limits, policy=args.policy)
        if args.package:
            limits = dataclasses.replace(limits, packages=tuple(sorted({*limits.packages,
                                                                        *packages_of(args.package, game)})))
        job = dataclasses.replace(job, limits=limits)
        interpreter.use(job.interpreter or None)  # its static checks' bot too (checked when the job was read)
    report = CheckReport(game, args.player, [], sandbox_notes(), job=job, files=submission.names,
                         modified=bool(settings) and job is not None)
    say(f"Checking {args.player} for {game.title} ({game.name})")
    say(f"Files: {', '.join(submission.names)}")
    for note in submission.notes:
        say(f"  note: {note}")
    tasks = []
    if job is not None:
        tasks = grading_tasks(job, login, submission)
        report.job_games = len(tasks)
        for text in job_lines(job, len(tasks), source):
            say(text)
        for note in left_out:
            say(f"  note: {note}")
    else:
        say(f"Practice: {args.games or DEFAULT_GAMES} games against each of {', '.join(r.stem for r in references)} "
            f"(not the grading job)")
    say(f"Limits: {limits_text(limits, game)}")
    first_settings = job.settings[0] if job is not None else settings
    report.static = static_checks(game, submission, login=login, settings=first_settings,
                                  seed=job.seed if job is not None else 0, limits=limits)
    say("Static checks")
    for c in report.static:
        say(f"  {MARKS[c.ok]}  {c.name}" + (f"  ({line(c.detail)})" if c.detail else ""))
    for note in report.notes:
        say(f"  note: {note}")
    for text in code_rules_lines(report, game, submission, job.waive.get(login, ()) if job is not None else ()):
        say(text)
    for text in shipped_copy_lines(report, game, submission):
        say(text)
    workers = args.workers or os.cpu_count() or 1
    if report.static_ok:
        if job is not None:
            picked = tasks[:args.games] if args.games else tasks
            say(f"Games: {len(picked)} of the {len(tasks)} games of {job.name}"
                + (" (a sample: the first ones)" if len(picked) < len(tasks) else ""))
            names = [e.login for t in picked for e in t.entrants if e.login != login] or ["-"]
            shown = GameLines(len(picked), max(len(n) for n in names), login, verbose=args.verbose)
            for number, task, record in play_grading(picked, workers, None if quiet else shown.on_game,
                                                     job.retries):
                seat = seat_of(task, login)
                others = sorted({e.login for e in task.entrants if e.login != login})
                result = GameResult(number, ", ".join(others), seat, record)
                report.games.append(result)
                if not quiet:
                    shown.game(result)
        else:
            names = [opponent_name(r, login) for r in references]
            count = args.games or DEFAULT_GAMES
            shown = GameLines(count * len(references), max(len(n) for n in names), login, verbose=args.verbose)
            for result in play_games(game, submission, login=login, references=references, games=count,
                                     seed=args.seed, settings=settings, limits=limits, workers=workers,
                                     on_game=None if quiet else shown.on_game):
                report.games.append(result)
                if not quiet:
                    shown.game(result)
        if not quiet:
            shown.close()
        # The first game against the bot explains the failure; a harness fault only if there is none.
        first = next((g for g in report.games if g.verdict.charged),
                     next((g for g in report.games if g.verdict is not Verdict.OK), None))
        if first is not None:
            out = Path(args.out) if args.out else Path(tempfile.mkdtemp(prefix="harness-check-"))
            report.first_error = explain(first, game, out)
    else:
        say("Games: not played: fix the static checks first (the grader would fail every game).")
    if job is not None and game.battery is not None and report.static_ok:
        report.battery = run_battery(game, submission, login, limits, say)
    if quiet:
        print(json.dumps(report.to_json(), indent=2))
    else:
        for text in slowest_text(report, limits):
            say(text)
        for info in report.judged_by():  # the judge's clock: a slower build makes every limit tighter
            say(f"Judged by: {interpreter_text(info, info.pop('host') or '?')}")
        if report.first_error is not None:
            show(error_text(report))
        verdict = verdict_text(report)
        if report.battery is not None and battery_line(report.battery) not in verdict:
            verdict += f" {battery_line(report.battery)}."
        say(verdict)
    return 0 if report.passed else 1


def register(sub: Any) -> None:
    """Add ``harness check``."""
    check = sub.add_parser("check", help="check a bot as the grader would, before submitting it",
                           description="Static checks, then the games of the game's grading job (from the jobs "
                                       "file in force, else the shipped one) under its limits. Exit code 0 only "
                                       "if every game is ok.")
    check.add_argument("game", help="the game (e.g. streky, quoridor, priemspel)")
    check.add_argument("player", metavar="BOT", help="the bot to check: player.py, its folder, or player.zip")
    check.add_argument("--config", help="the jobs file whose grading job to play (default: ./tournaments.yaml "
                                        "if there is one, else the shipped grading jobs)")
    check.add_argument("--job", help="the job to play (default: GAME-grading)")
    check.add_argument("--games", type=positive, help="play only the first N of the job's games (a sample); with "
                                                      "--against, games against each reference player (default 10)")
    check.add_argument("--workers", type=positive, help="games at once (default: one per core)")
    check.add_argument("--against", action="append", metavar="NAME",
                       help="practise against this reference player instead of the grading job (repeatable)")
    check.add_argument("--seed", type=int, default=0, help="practice games' first seed (default 0)")
    check.add_argument("--set", action="append", metavar="KEY=VALUE",
                       help="a game setting: replaces the job's settings (then it is not what the grader plays)")
    check.add_argument("--package", action="append", metavar="NAME",
                       help="an installed package the bot may import (as a job's bot_packages)")
    check.add_argument("--out", metavar="DIR",
                       help="where to write the replay of the first error (default: a new temporary folder)")
    check.add_argument("--json", action="store_true", help="print the findings as one JSON object")
    check.add_argument("--verbose", "-v", action="store_true",
                       help="one line per game (default: one progress line on a terminal, a summary when piped)")
    check.add_argument("--policy", choices=["cpu", "wall"],
                       help="which clock judges a call (default: the job's; cpu for practice)")
    check.set_defaults(func=cmd_check)


__all__ = ["cmd_check", "register"]
