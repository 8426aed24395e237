"""Štreky takes one file (§1.2), Quoridor several: each game declares which, and check and jobs agree.

Real two-module bots in real folders: the course's Brute split into ``player.py`` and a module
of its own for Štreky, and the runner split the same way for Quoridor.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from harness.games import get_game
from harness.match import play_match
from harness.record import Verdict
from harness.sandbox import Limits
from harness.sandbox.checks.static import findings
from harness.submission import read_submission
from tests.check.test_check_cli import check
from tests.conftest import REPO, last_said

STREKY = get_game("streky")
QUORIDOR = get_game("quoridor")
RULE = '§1.2 "Je možné odevzdat pouze jeden soubor (player.py)"'
LIMITS = Limits(init=2.0, move=2.0)


def split(folder: Path, reference: Path, module: str = "helper") -> Path:
    """``reference`` as a two-module submission: all its code in ``module``.py, imported by player.py."""
    folder.mkdir(parents=True)
    (folder / f"{module}.py").write_bytes(reference.read_bytes())
    (folder / "player.py").write_text(f"from {module} import *\n")
    return folder


def test_each_game_declares_whether_it_takes_several_files() -> None:
    assert STREKY.submission.several_files is False and RULE in STREKY.submission.one_file_rule
    assert QUORIDOR.submission.several_files is True


def test_a_two_module_streky_bot_is_refused_by_a_job(tmp_path: Path) -> None:
    sub = read_submission(split(tmp_path / "alice", REPO / "reference_players/streky/brute.py"), ("base",))
    assert sub.names == ["player.py", "helper.py"]
    brute = (REPO / "reference_players/streky/brute.py").read_bytes()
    record = play_match(STREKY, [sub, brute], seed=1, limits=LIMITS)
    me, other = record.players
    assert (me.verdict, other.verdict) == (Verdict.FORBIDDEN, Verdict.OK)
    assert me.reason.startswith(f"helper.py: Štreky takes one file, player.py ({RULE}); player.py needs helper.py")


def test_a_second_module_reached_through_another_is_named_too(tmp_path: Path) -> None:
    folder = split(tmp_path / "bob", REPO / "reference_players/streky/brute.py", "core")
    (folder / "player.py").write_text("import glue\nfrom core import *\n")
    (folder / "glue.py").write_text("import core\n")
    sub = read_submission(folder, ("base",))
    assert [f.reason.split(":")[0] for f in findings(STREKY, sub) if f.rule == "files"] == ["glue.py", "core.py"]
    record = play_match(STREKY, [sub, (folder / "core.py").read_bytes()], seed=1, limits=LIMITS)
    assert record.players[0].verdict is Verdict.FORBIDDEN
    assert record.players[0].reason.startswith("glue.py: ")  # the first module player.py needs


def test_a_guarded_import_of_a_second_module_is_left_to_run_time(tmp_path: Path) -> None:
    folder = split(tmp_path / "frank", REPO / "reference_players/streky/brute.py")
    (folder / "player.py").write_bytes(b"try:\n    import helper\nexcept ImportError:\n    pass\n"
                                       + (REPO / "reference_players/streky/brute.py").read_bytes())
    sub = read_submission(folder, ("base",))
    assert [f for f in findings(STREKY, sub) if f.rule == "files"] == []
    record = play_match(STREKY, [sub, (REPO / "reference_players/streky/brute.py").read_bytes()], seed=1,
                        limits=LIMITS)
    assert [p.verdict for p in record.players] == [Verdict.OK, Verdict.OK], record.players[0].reason


def test_a_module_beside_player_py_never_reaches_a_streky_bot(tmp_path: Path) -> None:
    # Not imported by name, so no static finding: but the grader only had player.py, and neither
    # does the sandbox. The bot's dynamic import fails, as it did there.
    folder = split(tmp_path / "carol", REPO / "reference_players/streky/brute.py")
    (folder / "player.py").write_text("import importlib\nglobals().update(vars(importlib.import_module('hel' + "
                                      "'per')))\n")
    record = play_match(STREKY, [read_submission(folder, ("base",)),
                                 (REPO / "reference_players/streky/brute.py").read_bytes()], seed=1, limits=LIMITS)
    me = record.players[0]
    assert me.verdict is Verdict.EXCEPTION and "ModuleNotFoundError: No module named 'helper'" in me.reason, me.reason


def test_check_refuses_a_two_module_streky_bot_naming_file_and_rule(tmp_path: Path) -> None:
    folder = split(tmp_path / "dave", REPO / "reference_players/streky/brute.py")
    run = check("streky", str(folder), "--games", "1", "--json", cwd=tmp_path)
    report = json.loads(run.stdout)
    assert run.returncode == 1 and report["passed"] is False and report["games"] == []
    files = [c for c in report["static"] if c["name"] == "one file (player.py)"]
    assert files and files[0]["ok"] is False and "helper.py" in files[0]["detail"] and RULE in files[0]["detail"]
    text = check("streky", str(folder), "--games", "1", cwd=tmp_path)
    assert text.returncode == 1 and last_said(text.stdout).startswith("FAIL: one file (player.py): helper.py")


def test_check_passes_a_one_file_streky_bot_with_the_line_shown(tmp_path: Path) -> None:
    run = check("streky", str(REPO / "reference_players/streky/random.py"), "--games", "1", "--json", cwd=tmp_path)
    report = json.loads(run.stdout)
    assert {"name": "one file (player.py)", "ok": True, "detail": ""} in report["static"]


@pytest.mark.parametrize("as_zip", [False, True])
def test_a_two_module_quoridor_bot_is_accepted(as_zip: bool, tmp_path: Path) -> None:
    folder = split(tmp_path / "erin", REPO / "reference_players/quoridor/runner.py")
    path = folder
    if as_zip:
        import zipfile

        path = tmp_path / "player.zip"
        with zipfile.ZipFile(path, "w") as archive:
            for name in ("player.py", "helper.py"):
                archive.write(folder / name, name)
    sub = read_submission(path, ("obstacle",))
    assert sub.names == ["player.py", "helper.py"]
    opponent = (REPO / "reference_players/quoridor/random_legal.py").read_bytes()
    record = play_match(QUORIDOR, [sub, opponent], seed=1, limits=LIMITS)
    assert [p.verdict for p in record.players] == [Verdict.OK, Verdict.OK], record.players[0].reason
    run = check("quoridor", str(path), "--games", "1", "--json", cwd=tmp_path)
    report = json.loads(run.stdout)
    assert all(c["ok"] is not False for c in report["static"]), report["static"]
    assert not any(c["name"].startswith("one file") for c in report["static"])
