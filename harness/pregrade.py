"""``harness check``: what the grader would say about one bot, before it is submitted.

It takes the grader's own code path and plays what the grader plays: the grading job of the
game (from the tournaments.yaml in force, else the shipped one), its settings, seeds, limits,
opponent and bot environment. First the static rules of every file of the submission
(:func:`harness.sandbox.checks.static.findings`), the bot imported and constructed in a real sandboxed
process (:class:`BotProcess`), then the job's games for this one bot, exactly as the job
schedules them. The first error is explained with the position (as text, and as an HTML
replay file). ``--against NAME`` plays practice games against reference players instead.
"""

from __future__ import annotations

import dataclasses
import importlib.util
import json
import random
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from harness.config import Job
from harness.games.base import GameSpec
from harness.match import bot_seed
from harness.record import GameRecord, MoveRecord, Verdict
from harness.report.replay import move_text, replay_positions, write_replay
from harness.sandbox.process import BotProcess, Limits
from harness.sandbox.checks.static import environment, findings
from harness.submission import MAIN, Submission
from harness.tournament.formats import make_tasks
from harness.tournament.schedule import Entrant, Roll, Task, load_entrants

DEFAULT_GAMES = 10

OnGame = Callable[[int, int, GameRecord], None]  # (games done, games in all, the record just ended)
NEAR_LIMIT = 0.5  # a move slower than this share of its limit is worth a warning


@dataclass(frozen=True)
class StaticCheck:
    """One check made before any game: passed (``True``), failed, or not run (``None``)."""

    name: str
    ok: bool | None
    detail: str = ""


@dataclass
class GameResult:
    """One checked game, from the checked bot's side."""

    number: int  # 1-based, in the order played
    opponent: str
    seat: int
    record: GameRecord

    @property
    def verdict(self) -> Verdict:
        return self.record.players[self.seat].verdict

    @property
    def reason(self) -> str:
        return self.record.players[self.seat].reason

    @property
    def result(self) -> str:
        """``win``, ``loss``, ``draw`` or ``no result`` (the harness failed)."""
        r = self.record
        if r.harness_fault:
            return "no result"
        if r.winner is None:
            return "loss" if self.verdict.charged else "draw"
        return "win" if r.winner == self.seat else "loss"

    @property
    def own_moves(self) -> int:
        """The bot's accepted answers in this game (its passes included)."""
        return sum(1 for m in self.record.moves if m.player == self.seat and m.accepted)

    def move_walls(self) -> list[tuple[float, int]]:
        """(own seconds, ply) of each of the bot's answers in this game: wall-clock time less its
        waits for a CPU, the time the wall clocks judge (a busy machine's wait is not the bot's)."""
        return [(m.own_time, ply) for ply, m in enumerate(self.record.moves, start=1) if m.player == self.seat]

    def to_json(self) -> dict[str, Any]:
        walls = self.move_walls()
        return {"number": self.number, "opponent": self.opponent, "seat": self.seat, "seed": self.record.seed,
                "verdict": self.verdict.value, "reason": self.reason, "result": self.result,
                "plies": self.record.plies, "own_moves": self.own_moves,
                "slowest_move": max((w for w, _ in walls), default=None)}


@dataclass
class FirstError:
    """The first game that ended with a verdict against the bot, explained."""

    game: GameResult
    ply: int  # accepted moves before the failing answer
    move: MoveRecord | None  # the rejected answer; None when the call itself failed
    position: str  # the position as text
    replay: Path | None = None
    replay_problem: str = ""  # why the replay file could not be written

    @property
    def answer(self) -> str:
        """The rejected answer as short JSON text, ``""`` if there was none."""
        return "" if self.move is None else move_text(self.move.answer)

    def to_json(self) -> dict[str, Any]:
        g = self.game
        return {"game": g.number, "opponent": g.opponent, "seat": g.seat, "seed": g.record.seed,
                "verdict": g.verdict.value, "reason": g.reason, "ply": self.ply,
                "answer": None if self.move is None else self.move.answer,
                "position": self.position, "traceback": g.record.players[g.seat].traceback,
                "replay": None if self.replay is None else str(self.replay), "replay_problem": self.replay_problem}


@dataclass
class CheckReport:
    """Everything ``harness check`` found; ``job`` is the grading job it played (None: practice)."""

    game: GameSpec
    file: str
    static: list[StaticCheck]
    notes: list[str]
    games: list[GameResult] = field(default_factory=list)
    first_error: FirstError | None = None
    job: Job | None = None
    job_games: int = 0  # how many games of this bot the grading job has
    files: list[str] = field(default_factory=list)
    modified: bool = False  # the job's settings were replaced (--set): not what the grader plays
    code_rules: list[Any] = field(default_factory=list)  # the seed's code rules (harness.coderules.RuleResult)
    battery: Any = None  # the game's grading battery's result (a BatteryResult), when the game has one

    @property
    def static_ok(self) -> bool:
        return all(c.ok is not False for c in self.static)

    @property
    def battery_short(self) -> bool:
        """True if the game's grading battery (Quoridor's SemBasic) awards fewer points than it has:
        the seed requires all of them ("Z teto casti musite ziskat 2 body")."""
        return self.battery is not None and self.battery.points < self.battery.battery.points

    @property
    def passed(self) -> bool:
        """True only if the grader would accept the bot: static checks pass, every game ``ok``, and
        the game's grading battery (if it has one) awards all its points."""
        return (self.static_ok and bool(self.games) and all(g.verdict is Verdict.OK for g in self.games)
                and not self.battery_short)

    def slowest_moves(self, count: int = 3) -> list[tuple[float, int, int]]:
        """The bot's slowest answers over all games: (own seconds, game number, ply)."""
        walls = [(w, g.number, ply) for g in self.games for w, ply in g.move_walls()]
        return sorted(walls, key=lambda t: -t[0])[:count]

    def judged_by(self) -> list[dict[str, Any]]:
        """The interpreters (with tier and host) that ran the checked bot in its games, each once."""
        seen: dict[str, dict[str, Any]] = {}
        for g in self.games:
            player = g.record.players[g.seat]
            if player.interpreter:
                info = {**player.interpreter, "host": g.record.host.rsplit(":", 1)[0]}
                seen.setdefault(json.dumps(info, sort_keys=True), info)
        return list(seen.values())

    @property
    def sample(self) -> bool:
        """True if fewer games were played than the grading job has."""
        return self.job is not None and len(self.games) < self.job_games

    def to_json(self) -> dict[str, Any]:
        job = None if self.job is None else {
            "name": self.job.name, "config": str(self.job.config_file), "games": self.job_games,
            "opponent": None if self.job.opponent is None else self.job.opponent.stem,
            "settings": list(self.job.settings), "limits": dataclasses.asdict(self.job.limits)}
        return {"game": self.game.name, "file": self.file, "files": self.files, "passed": self.passed,
                "job": job, "sample": self.sample,
                "static": [dataclasses.asdict(c) for c in self.static], "notes": self.notes,
                "games": [g.to_json() for g in self.games], "own_moves": sum(g.own_moves for g in self.games),
                "slowest_moves": [{"own": w, "game": n, "ply": p} for w, n, p in self.slowest_moves()],
                "move_limit": self.game.move_limit,
                "first_error": None if self.first_error is None else self.first_error.to_json(),
                "code_rules": [r.to_json() for r in self.code_rules],
                "battery": None if self.battery is None else self.battery.to_json(),
                "judged_by": self.judged_by()}


def sandbox_notes() -> list[str]:
    """One line per sandbox feature this machine lacks (the checks still run without it)."""
    notes = []
    if importlib.util.find_spec("resource") is None:
        notes.append(f"no resource limits on this platform ({sys.platform}): the 1 GiB memory cap "
                     "is not enforced here, but the grader enforces it")
    try:
        from harness.sandbox.cgroup import PidsCgroup

        cgroups = PidsCgroup.available()
    except Exception:  # noqa: BLE001 - a probe must not stop the checks
        cgroups = False
    if not cgroups:
        notes.append("no pids cgroup here (needs Linux with cgroups writable, e.g. as root): starting "
                     "processes is still refused by the sandbox's audit hook, as when grading")
    return notes


def static_checks(game: GameSpec, source: bytes | Submission, *, login: str, settings: Mapping[str, Any],
                  seed: int = 0, limits: Limits | None = None) -> list[StaticCheck]:
    """The checks before any game: source rules of every file, import in the sandbox, methods, constructor."""
    limits = limits or Limits().with_game(game)
    sub, cls, required = game.submission, game.interface.student_class, game.interface.required_methods
    source = Submission.of(source)
    found = findings(game, source, limits.packages)
    checks: list[StaticCheck] = []
    files = len(source.python_files())
    if sub.ascii_only:
        bad = [f.reason for f in found if f.rule == "ascii"]
        checks.append(StaticCheck("source is ASCII-only", not bad, "; ".join(bad) or
                                  (f"{files} files" if files > 1 else "")))
    bad = [f.reason for f in found if f.rule in ("forbidden", "unapproved", "size")]
    allowed = ["the standard library", *game.botapi_modules, *sorted(environment(game, limits.packages))]
    detail = "; ".join(bad) or f"allowed: {', '.join(allowed)}" + (
        f"; not allowed: {', '.join(sorted(sub.forbidden_imports))}" if sub.forbidden_imports else "")
    checks.append(StaticCheck("imports allowed", not bad, detail))
    if not sub.several_files:
        files_bad = [f.reason for f in found if f.rule == "files"]
        checks.append(StaticCheck(f"one file ({MAIN})", not files_bad, "; ".join(files_bad)))
    with BotProcess(game, source, label=login, seed=bot_seed(seed, 0), limits=limits) as bot:
        loaded = bot.load()
        if not loaded.ok:
            checks.append(StaticCheck("imports in the sandbox", False, _verdict_text(loaded.verdict, loaded.reason)))
            checks.append(StaticCheck(f"class {cls} with the required methods", None, "not checked"))
            checks.append(StaticCheck(f"{cls}(...) constructs", None, "not checked"))
            return checks
        methods = [str(m) for m in loaded.value] if isinstance(loaded.value, list) else []
        missing = [m for m in required if m not in methods]
        have = ", ".join(methods) or "none"
        adopted = loaded.info.get("adopted")
        checks.append(StaticCheck("imports in the sandbox", True, f"class {cls} found" if not adopted else
                                  f"no class {cls}: class {adopted} played in the shape its assignment asks for"))
        checks.append(StaticCheck(
            f"class {cls} with the required methods", not missing,
            f"missing: {', '.join(m + '()' for m in missing)} (it has: {have})" if missing
            else ", ".join(m + "()" for m in required) or f"methods: {have}"))
        state = game.rules.initial(game.rules.parse_settings(dict(settings)), random.Random(seed))
        calls = game.setup_calls(state, 0, login, False, limits.move)
        others = [c.method + "()" for c in calls[1:] if c.method != "setattr"]  # setattr is the harness's own
        name = f"{cls}(...) constructs" + (f" and {', '.join(others)} returns" if others else "")
        for call in calls:
            result = bot.call(call)
            if not result.ok:
                checks.append(StaticCheck(name, False, _verdict_text(result.verdict, result.reason)))
                break
        else:
            shown = ", ".join(repr(a) for a in calls[0].args) if calls else ""
            checks.append(StaticCheck(name, True, f"as {cls}({shown[:60]}{'...' if len(shown) > 60 else ''})"))
    return checks


def _verdict_text(verdict: Verdict | None, reason: str) -> str:
    return f"{verdict.value if verdict else 'error'}: {reason}"


def reference_players(game: GameSpec) -> list[Path]:
    """The game's reference players (``reference_players/<game>/*.py``), sorted by name."""
    folder = game.reference_dir
    return sorted(p for p in folder.glob("*.py") if not p.name.startswith("_")) if folder.is_dir() else []


def opponent_name(reference: Path, login: str) -> str:
    """The login a reference player plays under: its file's stem, unless the checked bot has it."""
    return reference.stem if reference.stem != login else f"reference-{reference.stem}"


def play_games(game: GameSpec, source: bytes | Submission, *, login: str, references: Sequence[Path],
               games: int, seed: int = 0, settings: Mapping[str, Any] | None = None,
               limits: Limits | None = None, workers: int = 1, on_game: OnGame | None = None,
               ) -> Iterator[GameResult]:
    """Practice: ``games`` games against each reference player (``harness check --against``).

    The bot's seat rotates and each seed is played from every seat (game ``g`` has seat
    ``g % players`` and seed ``seed + g // players``); the other seats are the reference player's.
    The games run on ``workers`` processes (see :func:`play_grading`); results come in order.
    """
    limits = limits or Limits().with_game(game)
    submission = Submission.of(source)
    n = game.players
    tasks: list[Task] = []
    opponents: list[str] = []
    for ref in references:
        opponent = opponent_name(ref, login)
        ref_source = Submission.of(ref.read_bytes())
        others = [opponent] if n == 2 else [f"{opponent}#{k}" for k in range(1, n)]
        for g in range(games):
            seat = g % n
            logins = others[:seat] + [login] + others[seat:]
            seated = [Entrant(name, "", submission if i == seat else ref_source) for i, name in enumerate(logins)]
            tasks.append(Task(f"practice/{len(tasks)}", "practice", game.name, dict(settings or {}), seed + g // n,
                              tuple(seated), False, dataclasses.asdict(limits)))
            opponents.append(opponent)
    for number, task, record in play_grading(tasks, workers, on_game):
        yield GameResult(number, opponents[number - 1], seat_of(task, login), record)


def grading_tasks(job: Job, login: str, submission: Submission) -> list[Task]:
    """The games the grading job plays with this one bot, in the job's own order."""
    opponent = load_entrants(_without_submissions(job)).opponent
    if opponent is not None and opponent.login == login:  # checking the opponent itself: keep the bot's name
        opponent = dataclasses.replace(opponent, login=f"reference-{opponent.login}")
    return make_tasks(job, Roll([Entrant(login, "", submission)], opponent))


def _without_submissions(job: Job) -> Job:
    return dataclasses.replace(job, submissions=(), roster=None)


def play_grading(tasks: Sequence[Task], workers: int, on_game: OnGame | None = None, retries: int = 3,
                 ) -> Iterator[tuple[int, Task, GameRecord]]:
    """Play ``tasks`` on a pool of ``workers`` processes; yields (number, task, record) in order.

    The games run at once, up to ``workers`` of them; ``on_game(done, total, record)`` is called
    as each one ends (in the order they end: a progress bar's hook), before the in-order yield.
    A game that ends in ``harness_error`` (the harness's fault, e.g. a bot process that did not
    start on a loaded machine) is played again up to ``retries`` times, as a job's run does.
    """
    from harness.tournament.execute import LocalExecutor, fault_record, play_task

    from harness.tournament.replays import Replays

    order = {t.key: n for n, t in enumerate(tasks, start=1)}
    attempts = {t.key: 0 for t in tasks}
    replays = Replays()  # a game replayed for a bot's process is not replayed again for it
    ready: dict[int, tuple[Task, GameRecord]] = {}
    nxt = 1
    done = 0
    todo = list(tasks)
    executor = LocalExecutor(max(1, min(workers, len(tasks))))
    try:
        while todo:
            again: list[Task] = []
            for task, result, fault in executor.run(todo, play_task):
                record = fault_record(task, fault) if result is None else GameRecord.from_json(result)
                record = replays.judge(task.key, record)
                attempts[task.key] += 1
                if record.harness_fault and attempts[task.key] <= retries:
                    again.append(task)
                    continue
                done += 1
                if on_game is not None:
                    on_game(done, len(tasks), record)
                ready[order[task.key]] = (task, record)
                while nxt in ready:
                    yield (nxt, *ready.pop(nxt))
                    nxt += 1
            todo = again
    finally:
        executor.close()


def seat_of(task: Task, login: str) -> int:
    return next(i for i, e in enumerate(task.entrants) if e.login == login)


def explain(result: GameResult, game: GameSpec, out_dir: Path | None) -> FirstError:
    """The failing answer, the position it was given (as text) and, if asked, a replay file."""
    record = result.record
    replay = replay_positions(record, game)
    last = replay.positions[-1] if replay.positions else None
    position = replay.problem or "(no position: the game did not start)"
    if last is not None:
        position = position_text(game, last.state, last.highlight, [p.login for p in record.players])
    rejected = None if last is None or last.move is None or last.move.accepted else last.move
    error = FirstError(result, 0 if last is None else last.ply, rejected, position)
    if out_dir is not None:
        try:
            error.replay = write_replay(record, Path(out_dir) / f"harness-check-{game.name}-{result.number}.html")
        except OSError as exc:
            error.replay_problem = f"{out_dir}: {exc.strerror}"
    return error


def position_text(game: GameSpec, state: Any, highlight: Any, logins: Sequence[str]) -> str:
    """The position for a terminal: the game's text drawing, else its one-line description."""
    if game.render_text is not None:
        for marked in (highlight, None):  # a highlight it cannot draw (a rejected move): try without
            try:
                return game.render_text(state, marked)
            except Exception:  # noqa: BLE001
                continue
    if game.describe is not None:
        try:
            return game.describe(state, list(logins))
        except Exception:  # noqa: BLE001
            pass
    try:
        return "the game is over" if game.rules.is_over(state) else f"{logins[game.rules.to_move(state)]} to move"
    except Exception:  # noqa: BLE001
        return "(this game cannot draw its positions as text)"


def limits_text(limits: Limits, game: GameSpec) -> str:
    """The limits in words that match how a call is judged."""
    if limits.policy == "cpu":
        clock = (f"constructor {limits.init:g} s and each move {limits.move:g} s of CPU time; any call is stopped "
                 f"after {limits.move * limits.backstop:g} s of wall-clock time")
    else:
        clock = f"constructor {limits.init:g} s and each move {limits.move:g} s of wall-clock time"
    clock += " (time spent waiting for a busy machine's CPU is not counted)"
    packages = sorted({*game.submission.packages, *limits.packages})
    return (f"{clock}; memory {limits.memory_bytes >> 20} MiB"
            + (f"; bots may import {', '.join(packages)} besides the standard library" if packages else ""))
