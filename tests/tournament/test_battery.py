"""Any game's grading battery, run by the generic runner (:mod:`harness.tournament.battery`).

Quoridor's SemBasic is one battery; here a battery of the test's own, declared for PriemSpel,
runs through the same code on real sandboxed bots, and the generic job format reaches the same
stored gradings as ``format: sembasic``.
"""

from __future__ import annotations

import dataclasses
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from harness.config import load_config
from harness.tournament.formats import FORMATS, format_of
from harness.games import get_game
from harness.games.base import Call
from harness.games.battery import Battery
from harness.tournament.battery import grade, grade_key
from harness.tournament.schedule import load_entrants


@dataclass
class Gap:
    """A made-up failure: the part, the position, the bot's login, why."""

    part: str
    position: Any
    login: str
    reason: str

    def to_json(self) -> dict[str, Any]:
        return {"part": self.part, "position": self.position.index, "reason": self.reason}

    def text(self) -> str:
        return f"{self.part} at square {self.position.square}: {self.reason}"


@dataclass(frozen=True)
class Square:
    index: int
    square: int

    def setup_calls(self, login: str) -> list[Call]:
        return [Call("__init__", (login,), "init"), Call("look_at", (self.square,), "move")]


def _next_prime(position: Square, answer: Any) -> Gap | None:
    n = position.square + 1
    while any(n % d == 0 for d in range(2, int(n**0.5) + 1)):
        n += 1
    return None if answer == n else Gap("next_prime", position, "", f"next_prime() returned {answer!r}, not {n}")


TOY = Battery(
    name="toy", title="Toy (PriemSpel)", parts=("next_prime",), default_seed=3,
    positions=lambda seed: [Square(i, seed * 10 + s) for i, s in enumerate((0, 7, 13, 20))],
    compare={"next_prime": _next_prime}, failure=lambda part, position, reason: Gap(part, position, "", reason),
    interface=lambda login: Call("__init__", (login,), "init"), interface_text="Player(name) constructs")

GOOD = b'''
class Player:
    def __init__(self, name):
        self.square = None

    def zet(self, spel):
        return 1

    def look_at(self, square):
        self.square = square

    def next_prime(self):
        n = self.square + 1
        while any(n % d == 0 for d in range(2, int(n ** 0.5) + 1)):
            n += 1
        return n
'''

OFF_BY_ONE = GOOD.replace(b"        return n\n", b"        return n if self.square < 40 else n + 1\n")


def _priemspel_with_toy() -> Any:
    return dataclasses.replace(get_game("priemspel"), battery=TOY)


def test_another_games_battery_runs_through_the_same_runner(no_leftovers: None) -> None:
    game = _priemspel_with_toy()
    good = grade(game, GOOD, login="ann")
    assert good.interface and good.points == 1 and good.passed == {"next_prime": 4} and good.seed == 3
    assert good.text().splitlines()[:3] == ["Toy (PriemSpel) for ann: 1 of 1 points",
                                            "  interface: ok (Player(name) constructs)",
                                            "  next_prime: 1 point (all 4 positions)"]
    wrong = grade(game, OFF_BY_ONE, login="bob")
    assert wrong.points == 0 and wrong.passed == {"next_prime": 2}
    assert wrong.first_failure.reason == "next_prime() returned 48, not 47" and wrong.first_failure.login == "bob"
    assert wrong.to_json()["first_failure"] == {"part": "next_prime", "position": 2,
                                                "reason": "next_prime() returned 48, not 47"}


def test_a_bot_without_the_part_fails_the_interface(no_leftovers: None) -> None:
    toy = _priemspel_with_toy()
    game = dataclasses.replace(toy, interface=dataclasses.replace(toy.interface, required_methods=("zet", "next_prime")))
    result = grade(game, b"class Player:\n    def __init__(self, name):\n        pass\n    def zet(self, spel):\n"
                         b"        return 1\n")
    assert not result.interface and result.interface_reason == "class Player has no method next_prime"
    assert result.text().splitlines()[-1] == "  next_prime were not graded (0 points)"


def _job_config(tmp_path: Path, fmt: str, game: str = "quoridor") -> Path:
    (tmp_path / "subs" / "ann").mkdir(parents=True, exist_ok=True)
    (tmp_path / "subs" / "ann" / "player.py").write_text("class Player:\n    pass\n")
    config = tmp_path / f"{fmt}-{game}.yaml"
    config.write_text(f"jobs:\n  j:\n    game: {game}\n    format: {fmt}\n    submissions: subs\n")
    return config


def test_the_generic_format_is_the_same_grading_as_sembasic(tmp_path: Path) -> None:
    generic = load_config(_job_config(tmp_path, "battery")).jobs["j"]
    named = load_config(_job_config(tmp_path, "sembasic")).jobs["j"]
    assert format_of(generic) is format_of(named) is FORMATS["battery"]
    sha = load_entrants(generic).entrants[0].sha256
    # the same key: a store graded under either format is reused by the other
    assert grade_key(generic, "ann", sha) == grade_key(named, "ann", sha)


def test_a_battery_format_for_a_game_without_one_is_a_one_line_problem(tmp_path: Path) -> None:
    config = _job_config(tmp_path, "battery", "streky")
    assert load_config(config).problems["j"] == (f"{config}: jobs.j.format: Štreky declares no grading battery "
                                                 "for format battery")
    config = _job_config(tmp_path, "sembasic", "priemspel")
    assert load_config(config).problems["j"] == (f"{config}: jobs.j.format: PriemSpel declares no grading battery "
                                                 "for format sembasic")


def test_the_layers_import_one_way() -> None:
    """A game folder imports neither the sandbox nor the tournament layer; the runner never the results."""
    code = ("import sys; import harness.games.quoridor; "
            "bad = sorted(m for m in sys.modules if m.startswith(('harness.sandbox', 'harness.tournament', "
            "'harness.cli', 'harness.commands'))); "
            "import harness.tournament.battery; "
            "bad += ['harness.tournament.results'] if 'harness.tournament.results' in sys.modules else []; "
            "print(bad)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"
