"""The parts of ``harness check`` that depend on the game's policy, tested with variants of PriemSpel."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from harness.pregrade import (CheckReport, GameResult, position_text, reference_players, sandbox_notes,
                           static_checks)
from harness.games import get_game
from harness.record import GameRecord, PlayerRecord, Verdict
from tests.conftest import REPO

HERE = Path(__file__).resolve().parent
PRIEM = get_game("priemspel")
# PriemSpel as if it had Štreky's source rules: ASCII only, and no sockets or processes.
STRICT = dataclasses.replace(PRIEM, submission=dataclasses.replace(
    PRIEM.submission, ascii_only=True, forbidden_imports=frozenset({"socket", "subprocess"})))


def by_name(checks: list) -> dict[str, tuple[bool | None, str]]:
    return {c.name: (c.ok, c.detail) for c in checks}


def test_the_source_policy_is_checked_where_the_game_has_one(no_leftovers: None) -> None:
    source = (HERE / "bots/non_ascii.py").read_bytes()
    checks = by_name(static_checks(STRICT, source, login="x", settings={}))
    ok, detail = checks["source is ASCII-only"]
    assert ok is False and detail.startswith("player.py line 1 column ") and "non-ASCII" in detail
    ok, detail = checks["imports allowed"]
    assert ok is False and detail == "player.py line 2: import of 'socket' is not allowed in PriemSpel"
    # The sandbox refuses the import too (the grader would say forbidden either way).
    assert checks["imports in the sandbox"][0] is False
    assert "forbidden" in checks["imports in the sandbox"][1]


def test_a_game_without_a_source_policy_checks_its_imports_only(no_leftovers: None) -> None:
    source = (HERE / "bots/good.py").read_bytes()
    checks = static_checks(PRIEM, source, login="x", settings={})
    assert [c.name for c in checks] == ["imports allowed", "imports in the sandbox",
                                        "class Player with the required methods", "Player(...) constructs"]
    assert all(c.ok for c in checks)
    assert checks[0].detail == "allowed: the standard library, priemspel"
    assert checks[-1].detail == "as Player('x')"
    strict = by_name(static_checks(STRICT, source, login="x", settings={}))
    assert strict["source is ASCII-only"] == (True, "")
    assert strict["imports allowed"] == (True, "allowed: the standard library, priemspel; not allowed: socket, subprocess")


def test_reference_players_are_the_games_files() -> None:
    names = [p.name for p in reference_players(PRIEM)]
    assert names == sorted(names) and {"basis.py", "strategie.py"} <= set(names)
    assert all(p.parent == REPO / "reference_players/priemspel" for p in reference_players(PRIEM))


def test_sandbox_notes_are_single_lines() -> None:
    notes = sandbox_notes()
    assert all(isinstance(n, str) and "\n" not in n for n in notes)
    from harness.sandbox.cgroup import PidsCgroup

    assert any("pids cgroup" in n for n in notes) == (not PidsCgroup.available())


def test_the_position_is_drawn_with_render_text_when_the_game_has_it() -> None:
    state = PRIEM.rules.initial({"start": 0, "N": 5}, None)  # PriemSpel draws nothing at random
    assert position_text(PRIEM, state, None, ["a", "b"]) == "[*a,b,0]"  # its describe()

    def board(s: object, highlight: object) -> str:
        if highlight is not None:
            raise ValueError("cannot mark that")
        return "0 1 [2] 3"

    game = dataclasses.replace(PRIEM, render_text=board)
    assert position_text(game, state, 99, ["a", "b"]) == "0 1 [2] 3"  # falls back to no highlight
    bare = dataclasses.replace(PRIEM, describe=None)
    assert position_text(bare, state, None, ["a", "b"]) == "a to move"


@pytest.mark.parametrize(("verdicts", "passed"), [
    ([Verdict.OK, Verdict.OK], True),
    ([Verdict.OK, Verdict.TIMEOUT], False),
    ([Verdict.HARNESS_ERROR], False),  # no verdict means no pass: the harness could not tell
    ([], False),
])
def test_a_check_passes_only_if_every_game_is_ok(verdicts: list[Verdict], passed: bool) -> None:
    games = [GameResult(i, "basis", 0, GameRecord("priemspel", {}, 0, [PlayerRecord("me", "", v),
                                                                        PlayerRecord("basis", "")]))
             for i, v in enumerate(verdicts, start=1)]
    assert CheckReport(PRIEM, "p.py", [], [], games).passed is passed
