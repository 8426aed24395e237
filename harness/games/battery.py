"""A game's grading battery: graded parts checked on generated positions (e.g. Quoridor's SemBasic).

Some assignments grade a bot on fixed questions rather than by games: Quoridor's SemBasic asks
``expand_player()`` and ``expand_obstacles()`` on many positions and gives a point for each part
whose answers equal the referee's on every position. A game declares such a grading as a
:class:`Battery` in its :class:`~harness.games.base.GameSpec`; the harness runs any game's
battery the same way (``harness basic GAME PLAYER``, a job of ``format: battery``), in the
sandbox, and stores its :class:`BatteryResult` like a game.

Pure, like the rest of a game: a battery only builds positions, says which calls set each up,
and compares a decoded answer with the referee's. Running the bot is the harness's business.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from harness.games.calls import Call


class Position(Protocol):
    """One graded position: its number in the battery and the calls that set a bot up on it."""

    index: int

    def setup_calls(self, login: str) -> list[Call]:
        """The constructor and whatever else tells the bot the position, in order."""
        ...


class Failure(Protocol):
    """The first position where a part's answer differs from the referee's, and why."""

    part: str
    position: Any
    login: str
    reason: str

    def to_json(self) -> dict[str, Any]:
        ...

    def text(self) -> str:
        ...


@dataclass(frozen=True)
class Battery:
    """A game's grading battery: one point per part that passes on every position.

    ``name`` names the grading (it keys stored gradings, and a job may use it as its format, e.g.
    ``format: sembasic``); ``positions(seed)`` builds the positions; ``compare[part](position,
    answer)`` judges the answer of the part's method (called without arguments) and returns a
    failure or ``None``; ``failure(part, position, reason)`` is the failure of a call that did
    not answer at all. ``interface(login)`` is the constructor call that shows the interface
    works; ``interface_text`` says in words what passing it means; ``award_text`` the award rule.
    """

    name: str
    title: str
    parts: tuple[str, ...]
    default_seed: int
    positions: Callable[[int], Sequence[Any]]
    compare: Mapping[str, Callable[[Any, Any], Any]]
    failure: Callable[[str, Any, str], Any]
    interface: Callable[[str], Call]
    interface_text: str = ""
    award_text: str = ""

    @property
    def points(self) -> int:
        """The most a bot can get: one point per part."""
        return len(self.parts)


@dataclass
class BatteryResult:
    """What a battery found for one bot: the interface verdict, the points, the first failures."""

    battery: Battery
    interface: bool
    interface_reason: str = ""
    points_by_part: dict[str, int] = field(default_factory=dict)
    passed: dict[str, int] = field(default_factory=dict)
    failures: dict[str, Any] = field(default_factory=dict)
    positions: int = 0
    seed: int | None = None
    login: str = ""

    def __post_init__(self) -> None:
        for part in self.battery.parts:
            self.points_by_part.setdefault(part, 0)
            self.passed.setdefault(part, 0)
        if self.seed is None:
            self.seed = self.battery.default_seed

    @property
    def points(self) -> int:
        return sum(self.points_by_part.values())

    @property
    def first_failure(self) -> Any:
        return next((self.failures[p] for p in self.battery.parts if p in self.failures), None)

    def to_json(self) -> dict[str, Any]:
        first = self.first_failure
        return {"interface": self.interface, "interface_reason": self.interface_reason,
                **{p: self.points_by_part[p] for p in self.battery.parts}, "points": self.points,
                "positions": self.positions, "passed": dict(self.passed), "seed": self.seed,
                "first_failure": None if first is None else first.to_json(),
                "failures": {p: f.to_json() for p, f in self.failures.items()}}

    def text(self) -> str:
        b = self.battery
        lines = [f"{b.title} for {self.login or 'the bot'}: {self.points} of {b.points} points"]
        if not self.interface:
            lines.append(f"  interface: FAILED: {self.interface_reason}")
            lines.append(f"  {' and '.join(b.parts)} were not graded (0 points)")
            return "\n".join(lines)
        lines.append(f"  interface: ok ({b.interface_text})" if b.interface_text else "  interface: ok")
        for part in b.parts:
            got = self.points_by_part[part]
            done = (f"all {self.positions} positions" if got else
                    f"failed at position {self.failures[part].position.index} after {self.passed[part]} passed")
            lines.append(f"  {part}: {got} point{'s' if got != 1 else ''} ({done})")
        for part in b.parts:
            if part in self.failures:
                lines += ["", self.failures[part].text()]
        return "\n".join(lines)
