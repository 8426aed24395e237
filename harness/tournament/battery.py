"""Any game's grading battery, run on real bots: one bot (``grade``) or every submission of a job.

The game declares its battery (:class:`harness.games.battery.Battery`, e.g. Quoridor's SemBasic);
this module runs it in the sandbox under the game's time limits: the interface (the bot
imports, has the game's required methods, and its constructor answers), then every part on
every position, a fresh ``Player`` per position, in one process that is restarted (and
reloaded) if a call killed it. A part fails at its first differing position and is not asked
again.

As a job (``format: battery``, or the battery's own name, e.g. ``format: sembasic``) every
submission is graded once per version (its sha256); the result is stored like a game and its
points reach the gradebook.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any

from harness.games import get_game
from harness.games.base import Call, GameSpec
from harness.games.battery import Battery, BatteryResult
from harness.sandbox import BotProcess, CallResult, Limits
from harness.sandbox.checks.static import check_source
from harness.submission import Submission
from harness.tournament.standings import Row

if TYPE_CHECKING:
    from harness.tournament.job import Job
    from harness.tournament.schedule import Roll


def battery_of(game: GameSpec) -> Battery:
    """The game's battery; ``LookupError`` naming the game if it declares none."""
    if game.battery is None:
        raise LookupError(f"{game.title} declares no grading battery")
    return game.battery


class _Session:
    """The bot's process; restarted (and reloaded) if a call killed it."""

    def __init__(self, game: GameSpec, source: Submission, login: str, limits: Limits) -> None:
        self.game, self.source, self.login, self.limits = game, source, login, limits
        self.bot: BotProcess | None = None

    def load(self) -> CallResult:
        self.close()
        self.bot = BotProcess(self.game, self.source, label=self.login, seed=1, limits=self.limits)
        return self.bot.load()

    def call(self, call: Call) -> CallResult:
        if self.bot is None or self.bot.dead is not None:
            loaded = self.load()
            if not loaded.ok:
                return loaded
        assert self.bot is not None
        return self.bot.call(call)

    def close(self) -> None:
        if self.bot is not None:
            self.bot.close()
            self.bot = None


def _call_failure(battery: Battery, part: str, position: Any, result: CallResult, what: str) -> Any:
    verdict = result.verdict.value if result.verdict else "error"
    return battery.failure(part, position, f"{what} failed ({verdict}): {result.reason}")


def grade(game: GameSpec, source: bytes | Submission, *, seed: int | None = None, limits: Limits | None = None,
          login: str = "student", positions: Sequence[Any] | None = None) -> BatteryResult:
    """Grade a bot on ``game``'s battery: the interface, then every part."""
    battery = battery_of(game)
    seed = battery.default_seed if seed is None else seed
    source = Submission.of(source)
    limits = limits or Limits().with_game(game)
    positions = list(battery.positions(seed) if positions is None else positions)
    result = BatteryResult(battery, interface=False, positions=len(positions), seed=seed, login=login)
    static = check_source(game, source, limits.packages)
    if static is not None:
        result.interface_reason = static
        return result
    session = _Session(game, source, login, limits)
    try:
        loaded = session.load()
        if not loaded.ok:
            result.interface_reason = f"player.py cannot be loaded ({loaded.verdict.value if loaded.verdict else 'error'}): {loaded.reason}"
            return result
        methods = set(loaded.value or ())
        missing = [m for m in game.interface.required_methods if m not in methods]
        if missing:
            result.interface_reason = f"class {game.interface.student_class} has no method {', '.join(missing)}"
            return result
        built = session.call(battery.interface(login))
        if not built.ok:
            result.interface_reason = f"{game.interface.student_class}({login!r}) failed: {built.reason}"
            return result
        result.interface = True
        _run(battery, session, positions, login, result)
    finally:
        session.close()
    return result


def _run(battery: Battery, session: _Session, positions: list[Any], login: str, result: BatteryResult) -> None:
    for position in positions:
        alive = [p for p in battery.parts if p not in result.failures]
        if not alive:
            break
        setup_failed = None
        for call in position.setup_calls(login):
            r = session.call(call)
            if not r.ok:
                name = "Player(...)" if call.method == "__init__" else f"{call.method}(...)"
                setup_failed = (r, name)
                break
        for part in alive:
            if setup_failed is not None:
                failure = _call_failure(battery, part, position, *setup_failed)
            else:
                r = session.call(Call(part, (), "move"))
                failure = (_call_failure(battery, part, position, r, f"{part}()") if not r.ok
                           else battery.compare[part](position, r.value))
            if failure is None:
                result.passed[part] += 1
            else:
                failure.login = login
                result.failures[part] = failure
    for part in battery.parts:
        result.points_by_part[part] = 0 if part in result.failures else 1


# ---- a battery as a job format ------------------------------------------------------------
def grade_key(job: Job, login: str, sha: str) -> str:
    """The identity of one grading: the submission (login, sha256), the battery, the limits."""
    battery = battery_of(job.spec)
    blob = json.dumps([battery.name, job.game, login, sha, battery.default_seed, asdict(job.limits)], sort_keys=True)
    return hashlib.sha256(blob.encode()).hexdigest()[:32]


@dataclass(frozen=True)
class GradeTask:
    """One submission to grade; self-contained, so any worker can grade it."""

    key: str
    job: str
    login: str
    submission: Submission
    limits: dict[str, Any]
    game: str


def grade_tasks(job: Job, roll: Roll) -> list[GradeTask]:
    """Every submission of the job, as a grading."""
    return [GradeTask(grade_key(job, e.login, e.sha256), job.name, e.login, e.submission, asdict(job.limits), job.game)
            for e in roll.entrants if not e.reference]


def grade_task(task: GradeTask) -> dict[str, Any]:
    """Grade one submission (in a worker); the result as JSON, with the sha256 it graded."""
    limits = Limits(**task.limits)
    result = grade(get_game(task.game), task.submission, login=task.login, limits=limits).to_json()
    return {**result, "login": task.login, "sha256": task.submission.sha256}


def result_row(battery: Battery, login: str, result: dict[str, Any]) -> Row:
    """A gradebook row from one grading: its points, and why not all of them."""
    row = Row(login, games=1)
    row.points = float(result.get("points", 0))
    if not result.get("interface"):
        row.disqualified, row.reason = True, f"interface: {result.get('interface_reason', '')}"
    else:
        first = result.get("first_failure") or {}
        if first:
            row.reason = f"{first.get('part')}: {first.get('reason')} (position {first.get('position')})"
    row.score = row.points
    row.extra = {"interface": bool(result.get("interface")),
                 **{part: int(result.get(part, 0)) for part in battery.parts},
                 "passed": int(result.get("points", 0)) == battery.points}
    return row


@dataclass
class Gradings:
    """A battery job's stored gradings as standings rows (one per student, absent ones included)."""

    rows: list[Row]
    total: int  # gradings the job has
    done: int  # of which the store holds
    runs: list[dict[str, Any]]


def battery_rows(job: Job, roll: Roll) -> Gradings:
    """The job's stored gradings as standings: one row per student, absent ones included.

    A student's points are the battery's points; ``extra`` holds the parts and whether every
    point is reached. A bot whose interface fails is disqualified (0 points).
    """
    from harness.tournament.standings import competition_ranks
    from harness.tournament.store import open_readonly

    battery = battery_of(job.spec)
    tasks = grade_tasks(job, roll)
    with open_readonly(job.results) as store:
        stored = store.grades([t.key for t in tasks])
        runs = store.runs()
    rows = [result_row(battery, t.login, stored[t.key]) if t.key in stored else Row(t.login, reason="not graded yet")
            for t in tasks]
    graded = [r for r in rows if r.games and not r.disqualified]
    for r, rank in zip(graded, competition_ranks([r.points for r in graded])):
        r.rank = r.rank_all = rank
    rows += [Row(a.login, reason=a.reason, absent=True) for a in roll.absent]
    rows.sort(key=lambda r: (r.absent, r.disqualified, -r.points, r.login))
    return Gradings(rows, len(tasks), len(stored), runs)


__all__ = ["GradeTask", "Gradings", "battery_of", "battery_rows", "grade", "grade_key", "grade_task",
           "grade_tasks", "result_row"]
