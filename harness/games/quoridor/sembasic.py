"""SemBasic grading of a Quoridor bot, in the seed's order: interface, expand_player, expand_obstacles.

* interface (0 points, but required): the file imports in the sandbox, defines ``Player`` with
  the five methods, and ``Player(name)`` constructs;
* ``expand_player`` (1 point) and ``expand_obstacles`` (1 point): on every position of the
  seeded :func:`battery <harness.games.quoridor.battery.battery>`, the answer normalised to a
  set (cells; walls with the two ``Obstacle`` s in any order and direction) must equal the
  referee's. A duplicate, an extra or a missing item fails the part; the first failing position
  is reported, drawn, with what was missing and what was extra (and why the referee refuses
  each extra item).

This module is Quoridor's declaration of that grading (:data:`SEMBASIC`, a
:class:`~harness.games.battery.Battery`) and its comparisons; it runs nothing. The harness runs
any game's battery in the real sandbox (:mod:`harness.tournament.battery`): one process, a fresh
``Player`` per position, a process that dies restarted for the remaining positions. As a job
(``format: sembasic``, or the generic ``format: battery``) every submission is graded once per
version (its sha256), and its points (0..2) reach the gradebook. ``harness basic quoridor
PLAYER`` grades one bot.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from harness.games.base import BadAnswer, Call
from harness.games.battery import Battery, BatteryResult
from harness.games.quoridor.adapter import decode_cell, decode_pair, show
from harness.games.quoridor.battery import DEFAULT_SEED, Position, battery
from harness.games.quoridor.moves import Edge, Step, Wall, edge_text, wall_key
from harness.games.quoridor.render import board_text
from harness.games.quoridor.rules import judge

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
class SemBasicResult(BatteryResult):
    """A :class:`~harness.games.battery.BatteryResult` of Quoridor's SemBasic (its battery by default)."""

    battery: Battery = field(default_factory=lambda: SEMBASIC)
    interface: bool = False


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


# ---- the declaration ----------------------------------------------------------------------
def _failure(part: str, position: Position, reason: str) -> Failure:
    return Failure(part, position, "", reason)


def _interface(login: str) -> Call:
    return Call("__init__", (login,), "init")


SEMBASIC = Battery(
    name="sembasic",
    title="SemBasic (Quoridor)",
    parts=PARTS,
    default_seed=DEFAULT_SEED,
    positions=battery,
    compare={"expand_player": compare_steps, "expand_obstacles": compare_walls},
    failure=_failure,
    interface=_interface,
    interface_text="Player(name) constructs; the five methods exist",
    award_text="SemBasic: 1 point for expand_player, 1 for expand_obstacles (both on every position); 2 needed",
)

__all__ = ["DEFAULT_SEED", "PARTS", "SEMBASIC", "Failure", "SemBasicResult", "compare_steps", "compare_walls"]
