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
``harness basic quoridor PLAYER.py [--json]`` is :func:`run_cli`.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, TextIO

from harness.games.base import BadAnswer, Call, GameSpec
from harness.games.quoridor.adapter import decode_cell, decode_pair, show
from harness.games.quoridor.battery import DEFAULT_SEED, Position, battery
from harness.games.quoridor.moves import Edge, Step, Wall, edge_text, wall_key
from harness.games.quoridor.render import board_text
from harness.games.quoridor.rules import judge
from harness.sandbox import BotProcess, CallResult, Limits
from harness.sandbox.static import check_source

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

    def __init__(self, game: GameSpec, source: bytes, login: str, limits: Limits) -> None:
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


def grade(source: bytes, *, seed: int = DEFAULT_SEED, limits: Limits | None = None, login: str = "student",
          positions: Sequence[Position] | None = None, game: GameSpec | None = None) -> SemBasicResult:
    """Grade a bot's source: interface, then ``expand_player`` and ``expand_obstacles``."""
    if game is None:  # imported here, when needed: the package's __init__ does not import this module
        from harness.games.quoridor import GAME

        game = GAME
    positions = list(battery(seed) if positions is None else positions)
    result = SemBasicResult(interface=False, positions=len(positions), seed=seed, login=login)
    static = check_source(game, source)
    if static is not None:
        result.interface_reason = static
        return result
    session = _Session(game, source, login, limits or Limits().with_game(game))
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


def run_cli(player: str, *, as_json: bool = False, seed: int = DEFAULT_SEED, out: TextIO | None = None) -> int:
    """``harness basic quoridor PLAYER.py [--json]``: print the result; exit 0 only with 2 points."""
    from harness.cli import read_bot

    login, source = read_bot(player)
    result = grade(source, seed=seed, login=login)
    stream = out or sys.stdout
    print(json.dumps(result.to_json()) if as_json else result.text(), file=stream)
    return 0 if result.points == 2 else 1
