"""SemBasic grading of a Quoridor bot, in the seed's order: interface, expand_player, expand_obstacles.

* interface (0 points, but required): the file imports in the sandbox, defines ``Player`` with
  the five methods, and ``Player(name)`` constructs;
* ``expand_player`` (1 point) and ``expand_obstacles`` (1 point): on every position of the
  seeded :func:`battery <harness.games.quoridor.battery.battery>`, the answer normalised to a
  set (cells; walls with the two ``Obstacle`` s in any order and direction) must equal the
  referee's. A duplicate, an extra or a missing item fails the part; the first failing position
  is reported, drawn, with what was missing and what was extra (and why the referee refuses
  each extra item).

The bot runs in the real sandbox under the game's time limits: one process, a fresh ``Player``
per position (a process that dies is restarted for the remaining positions).

SemBasic is also a job format (``format: sembasic``): every submission of the job is graded once
per version (its sha256), the result is stored like a game, and its points (0..2) reach the
gradebook. ``harness basic quoridor PLAYER`` grades one bot.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any

from harness.games.base import BadAnswer, Call, GameSpec
from harness.games.quoridor.adapter import decode_cell, decode_pair, show
from harness.games.quoridor.battery import DEFAULT_SEED, Position, battery
from harness.games.quoridor.moves import Edge, Step, Wall, edge_text, wall_key
from harness.games.quoridor.render import board_text
from harness.games.quoridor.rules import judge
from harness.tournament.standings import Row
from harness.sandbox import BotProcess, CallResult, Limits
from harness.sandbox.static import check_source
from harness.submission import Submission

if TYPE_CHECKING:
    from harness.config import Job
    from harness.tournament.results import JobResults
    from harness.tournament.schedule import Roll

PARTS = ("expand_player", "expand_obstacles")
SHOWN = 12  # items listed per category in a failure


@dataclass
class Failure:
    """The first position where a part's answer differs from the referee's."""

    part: str
    position: Position
    login: str
    reason: str
    missing: list[Any] = field(default_factory=list)  # cells (x, y) or walls (sorted edge pairs)
    extra: list[Any] = field(default_factory=list)
    duplicates: list[Any] = field(default_factory=list)

    def _item(self, item: Any) -> Any:
        return list(item) if self.part == "expand_player" else [list(e) for e in item]

    def _why_extra(self, item: Any) -> str:
        state = self.position.state
        move = Step(*item) if self.part == "expand_player" else Wall(frozenset(item))
        return judge(state, move) or "?"

    def board(self) -> str:
        """The position drawn; the first missing item as ``o`` and the first extra one as ``x``."""
        state = self.position.state
        labels = ("M", "O") if self.position.seat == 0 else ("O", "M")
        if self.part == "expand_player":
            marks = {tuple(c): "o" for c in self.missing} | {tuple(c): "x" for c in self.extra}
            return board_text(state, labels=labels, marks=marks)
        walls = {}
        for items, char in ((self.missing, "o"), (self.extra, "x")):
            for item in items[:1]:
                key = wall_key(Wall(frozenset(item)), state.sizex, state.sizey)
                if not isinstance(key, str):
                    walls[key] = char
        return board_text(state, labels=labels, extra_walls=walls)

    def to_json(self) -> dict[str, Any]:
        return {"part": self.part, "position": self.position.index, "label": self.position.label,
                "setup": self.position.to_json(), "calls": self.position.describe_calls(self.login),
                "reason": self.reason, "missing": [self._item(i) for i in self.missing],
                "extra": [{"item": self._item(i), "why": self._why_extra(i)} for i in self.extra],
                "duplicates": [self._item(i) for i in self.duplicates], "board": self.board()}

    def text(self) -> str:
        p = self.position
        fmt = (lambda c: f"[{c[0]}, {c[1]}]") if self.part == "expand_player" else (
            lambda w: " + ".join(edge_text(e) for e in w))
        lines = [f"First failure of {self.part}: position {p.index} ({p.label}), {p.sizex}x{p.sizey} board",
                 f"  {self.reason}", "  Reproduce it with:"]
        lines += [f"    {c}" for c in p.describe_calls(self.login)] + [f"    p.{self.part}()", ""]
        lines += ["  " + row for row in self.board().split("\n")]
        lines.append(f"  M = you at {p.me}, heading for row {p.state.goal_row(p.seat)}; O = the opponent at "
                     f"{p.opponent}; o = first missing item, x = first extra item")
        for title, items in (("missing (legal, but not in your list)", self.missing),
                             ("extra (in your list, but not legal)", self.extra),
                             ("duplicates (listed more than once)", self.duplicates)):
            if not items:
                continue
            lines.append(f"  {title}: {len(items)}")
            for item in items[:SHOWN]:
                why = f"  <- {self._why_extra(item)}" if items is self.extra else ""
                lines.append(f"    {fmt(item)}{why}")
            if len(items) > SHOWN:
                lines.append(f"    ... and {len(items) - SHOWN} more")
        return "\n".join(lines)


@dataclass
class SemBasicResult:
    """What :func:`grade` found: the interface verdict, the points, the first failures."""

    interface: bool
    interface_reason: str = ""
    points_by_part: dict[str, int] = field(default_factory=lambda: {p: 0 for p in PARTS})
    passed: dict[str, int] = field(default_factory=lambda: {p: 0 for p in PARTS})
    failures: dict[str, Failure] = field(default_factory=dict)
    positions: int = 0
    seed: int = DEFAULT_SEED
    login: str = ""

    @property
    def points(self) -> int:
        return sum(self.points_by_part.values())

    @property
    def first_failure(self) -> Failure | None:
        return next((self.failures[p] for p in PARTS if p in self.failures), None)

    def to_json(self) -> dict[str, Any]:
        first = self.first_failure
        return {"interface": self.interface, "interface_reason": self.interface_reason,
                "expand_player": self.points_by_part["expand_player"],
                "expand_obstacles": self.points_by_part["expand_obstacles"], "points": self.points,
                "positions": self.positions, "passed": dict(self.passed), "seed": self.seed,
                "first_failure": None if first is None else first.to_json(),
                "failures": {p: f.to_json() for p, f in self.failures.items()}}

    def text(self) -> str:
        lines = [f"SemBasic (Quoridor) for {self.login or 'the bot'}: {self.points} of 2 points"]
        if not self.interface:
            lines.append(f"  interface: FAILED: {self.interface_reason}")
            lines.append("  expand_player and expand_obstacles were not graded (0 points)")
            return "\n".join(lines)
        lines.append("  interface: ok (Player(name) constructs; the five methods exist)")
        for part in PARTS:
            got = self.points_by_part[part]
            done = (f"all {self.positions} positions" if got else
                    f"failed at position {self.failures[part].position.index} after {self.passed[part]} passed")
            lines.append(f"  {part}: {got} point{'s' if got != 1 else ''} ({done})")
        for part in PARTS:
            if part in self.failures:
                lines += ["", self.failures[part].text()]
        return "\n".join(lines)


# ---- comparing one answer ------------------------------------------------------------------
def _as_list(value: Any, what: str) -> list[Any] | str:
    if not isinstance(value, (list, tuple)):
        return f"{what}() must return a list, got {show(value)}"
    return list(value)


def compare_steps(position: Position, answer: Any) -> Failure | None:
    """``expand_player``'s answer against the referee's steps (``None`` if equal as sets)."""
    items = _as_list(answer, "expand_player")
    if isinstance(items, str):
        return Failure("expand_player", position, "", items)
    cells: list[tuple[int, int]] = []
    for n, item in enumerate(items):
        cell = decode_cell(item, f"expand_player()[{n}]")
        if isinstance(cell, BadAnswer):
            return Failure("expand_player", position, "", cell.reason)
        cells.append(cell)
    return _compare("expand_player", position, cells, position.expected_steps)


def compare_walls(position: Position, answer: Any) -> Failure | None:
    """``expand_obstacles``'s answer against the referee's walls (``None`` if equal as sets)."""
    items = _as_list(answer, "expand_obstacles")
    if isinstance(items, str):
        return Failure("expand_obstacles", position, "", items)
    walls: list[frozenset[Edge]] = []
    for n, item in enumerate(items):
        wall = decode_pair(item, f"expand_obstacles()[{n}]")
        if isinstance(wall, BadAnswer):
            return Failure("expand_obstacles", position, "", wall.reason)
        walls.append(wall.edges)
    return _compare("expand_obstacles", position, walls, position.expected_walls)


def _compare(part: str, position: Position, got: list[Any], expected: frozenset[Any]) -> Failure | None:
    counts = Counter(got)
    duplicates = sorted(_sortable(i) for i, c in counts.items() if c > 1)
    missing = sorted(_sortable(i) for i in expected - counts.keys())
    extra = sorted(_sortable(i) for i in counts.keys() - expected)
    if not (duplicates or missing or extra):
        return None
    problems = [f"{len(items)} {name}" for name, items in
                (("missing", missing), ("extra", extra), ("duplicated", duplicates)) if items]
    reason = (f"{part}() returned {_items(len(got))} where the referee has {len(expected)}: "
              f"{', '.join(problems)}")
    return Failure(part, position, "", reason, missing, extra, duplicates)


def _items(n: int) -> str:
    return f"{n} item{'' if n == 1 else 's'}"


def _sortable(item: Any) -> Any:
    return tuple(sorted(item)) if isinstance(item, frozenset) else item


# ---- running the bot -----------------------------------------------------------------------
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


def _call_failure(part: str, position: Position, result: CallResult, what: str) -> Failure:
    verdict = result.verdict.value if result.verdict else "error"
    return Failure(part, position, "", f"{what} failed ({verdict}): {result.reason}")


def grade(source: bytes | Submission, *, seed: int = DEFAULT_SEED, limits: Limits | None = None,
          login: str = "student", positions: Sequence[Position] | None = None,
          game: GameSpec | None = None) -> SemBasicResult:
    """Grade a bot: interface, then ``expand_player`` and ``expand_obstacles``."""
    if game is None:
        from harness.games.quoridor import GAME

        game = GAME
    source = Submission.of(source)
    limits = limits or Limits().with_game(game)
    positions = list(battery(seed) if positions is None else positions)
    result = SemBasicResult(interface=False, positions=len(positions), seed=seed, login=login)
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
        missing = [m for m in game.required_methods if m not in methods]
        if missing:
            result.interface_reason = f"class {game.student_class} has no method {', '.join(missing)}"
            return result
        built = session.call(Call("__init__", (login,), "init"))
        if not built.ok:
            result.interface_reason = f"{game.student_class}({login!r}) failed: {built.reason}"
            return result
        result.interface = True
        _run_battery(session, positions, login, result)
    finally:
        session.close()
    return result


def _run_battery(session: _Session, positions: list[Position], login: str, result: SemBasicResult) -> None:
    checks = {"expand_player": compare_steps, "expand_obstacles": compare_walls}
    for position in positions:
        alive = [p for p in PARTS if p not in result.failures]
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
            failure: Failure | None
            if setup_failed is not None:
                failure = _call_failure(part, position, *setup_failed)
            else:
                r = session.call(Call(part, (), "move"))
                failure = _call_failure(part, position, r, f"{part}()") if not r.ok else checks[part](position, r.value)
            if failure is None:
                result.passed[part] += 1
            else:
                failure.login = login
                result.failures[part] = failure
    for part in PARTS:
        result.points_by_part[part] = 0 if part in result.failures else 1


# ---- SemBasic as a job format -------------------------------------------------------------
def grade_key(job: Job, login: str, sha: str) -> str:
    """The identity of one grading: the submission (login, sha256), the battery, the limits."""
    blob = json.dumps(["sembasic", job.game, login, sha, DEFAULT_SEED, asdict(job.limits)], sort_keys=True)
    return hashlib.sha256(blob.encode()).hexdigest()[:32]


@dataclass(frozen=True)
class GradeTask:
    """One submission to grade; self-contained, so any worker can grade it."""

    key: str
    job: str
    login: str
    submission: Submission
    limits: dict[str, Any]


def grade_tasks(job: Job, roll: Roll) -> list[GradeTask]:
    """Every submission of the job, as a grading."""
    return [GradeTask(grade_key(job, e.login, e.sha256), job.name, e.login, e.submission, asdict(job.limits))
            for e in roll.entrants if not e.reference]


def grade_task(task: GradeTask) -> dict[str, Any]:
    """Grade one submission (in a worker); the result as JSON, with the sha256 it graded."""
    limits = Limits(**task.limits)
    result = grade(task.submission, login=task.login, limits=limits).to_json()
    return {**result, "login": task.login, "sha256": task.submission.sha256}


def result_row(login: str, result: dict[str, Any]) -> Row:
    """A gradebook row from one grading: points (0..2), and why not 2."""
    row = Row(login, games=1)
    row.points = float(result.get("points", 0))
    if not result.get("interface"):
        row.disqualified, row.reason = True, f"interface: {result.get('interface_reason', '')}"
    else:
        first = result.get("first_failure") or {}
        if first:
            row.reason = f"{first.get('part')}: {first.get('reason')} (position {first.get('position')})"
    row.score = row.points
    row.extra = {"interface": bool(result.get("interface")), "expand_player": int(result.get("expand_player", 0)),
                 "expand_obstacles": int(result.get("expand_obstacles", 0)),
                 "passed": int(result.get("points", 0)) == len(PARTS)}
    return row


def sembasic_results(job: Job, roll: Roll) -> JobResults:
    """The job's stored gradings as standings: one row per student, absent ones included.

    A student's points are the SemBasic points (0..2); ``extra`` holds the parts and whether the
    2 needed points are reached. A bot whose interface fails is disqualified (0 points).
    """
    from harness.tournament.results import JobResults
    from harness.tournament.standings import competition_ranks
    from harness.tournament.store import open_readonly

    tasks = grade_tasks(job, roll)
    with open_readonly(job.results) as store:
        stored = store.grades([t.key for t in tasks])
        runs = store.runs()
    rows = [result_row(t.login, stored[t.key]) if t.key in stored else Row(t.login, reason="not graded yet")
            for t in tasks]
    graded = [r for r in rows if r.games and not r.disqualified]
    for r, rank in zip(graded, competition_ranks([r.points for r in graded])):
        r.rank = r.rank_all = rank
    rows += [Row(a.login, reason=a.reason, absent=True) for a in roll.absent]
    rows.sort(key=lambda r: (r.absent, r.disqualified, -r.points, r.login))
    return JobResults(job, roll, rows, [], [], len(tasks), len(stored), runs)
