"""Static checks of a submission: they never crash, and imports are judged by who imports.

The long-expression bots are real sources that the old recursive visitor crashed on
(``RecursionError`` in the parent: every game a harness fault, ``check`` an internal error).
"""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from harness import door
from harness.door import modules
from harness.door.modules import UNCHECKED
from harness.games import get_game
from harness.match import play_match
from harness.record import Verdict
from harness.sandbox import Limits
from harness.sandbox.checks.static import check_source, findings, parse
from harness.submission import Submission, imported_names
from tests.conftest import REPO

GOOD = (REPO / "tests/check/bots/good.py").read_text()
PRIEM = get_game("priemspel")
QUORIDOR = get_game("quoridor")
# PriemSpel with Quoridor's import policy (``stat`` forbidden): the seed's games stay quick.
STAT = replace(PRIEM, submission=replace(PRIEM.submission, forbidden_imports=QUORIDOR.submission.forbidden_imports))
BASIS = (REPO / "reference_players/priemspel/basis.py").read_bytes()
LIMITS = Limits(init=1.0, move=0.5)


def long_sum(terms: int) -> str:
    """A correct bot whose module holds one sum of ``terms`` terms (a BinOp ``terms`` deep)."""
    return "TOTAL = " + " + ".join(str(i % 7) for i in range(terms)) + "\n" + GOOD


def hand_table(rows: int) -> str:
    """A correct bot with a table written out by hand, one row added to the next (deep, not wide)."""
    return "TABLE = " + " + ".join(f"[({i}, {i * i % 97}, 'r{i}')]" for i in range(rows)) + "\n" + GOOD


def test_a_long_expression_is_checked_without_recursion() -> None:
    for source in (long_sum(1500), hand_table(1200)):
        assert parse(source.encode()).parsed  # the parser takes it; only a recursive walk would not
        assert [f.rule for f in findings(STAT, ("import statistics\n" + source).encode())] == ["forbidden"]
        assert check_source(PRIEM, source.encode()) is None


def test_imports_deep_inside_try_blocks_keep_their_guard() -> None:
    nested = "try:\n" + "".join("    " * i + "  try:\n" for i in range(1, 40))
    body = "    " * 40 + "import yaml\n"
    tail = "".join("    " * i + "  except ImportError:\n" + "    " * i + "    pass\n" for i in range(39, 0, -1))
    source = (nested + body + tail + "except Exception:\n    pass\nimport yaml\n").encode()
    found = findings(PRIEM, source)  # yaml: installed, not approved
    last = source.count(b"\n")  # only the unguarded import on the last line is a finding
    assert [f.reason.split(":")[0] for f in found] == [f"player.py line {last}"], found


def test_a_file_the_parser_cannot_take_is_left_to_run_time() -> None:
    deep = long_sum(20000).encode()  # the parser itself gives up (RecursionError)
    assert parse(deep) == UNCHECKED
    assert findings(PRIEM, deep) == [] and imported_names(deep) == set()


def test_a_bot_with_a_long_expression_plays_and_a_too_deep_one_is_the_bot_s_exception() -> None:
    for source, verdict in ((long_sum(1500), Verdict.OK), (hand_table(1200), Verdict.OK),
                            (long_sum(20000), Verdict.EXCEPTION)):
        record = play_match(PRIEM, [source.encode(), BASIS], seed=1, limits=LIMITS)
        assert [p.verdict for p in record.players] == [verdict, Verdict.OK], record.players[0].reason
        if verdict is Verdict.EXCEPTION:
            assert "RecursionError" in record.players[0].reason


def test_check_grades_a_bot_with_a_long_expression(tmp_path: Path) -> None:
    bot = tmp_path / "player.py"
    bot.write_text(long_sum(1500))
    run = subprocess.run([sys.executable, "-m", "harness", "check", "priemspel", str(bot), "--games", "2"],
                         capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "internal error" not in run.stdout + run.stderr
    assert [x for x in run.stdout.splitlines() if not x.startswith(" ")][-1].startswith("PASS on a sample"), run.stdout


def test_a_library_may_import_what_the_game_forbids_the_bot() -> None:
    # Quoridor forbids `stat`; pathlib, shutil, tempfile, zipfile and glob import it at their top.
    source = ("import pathlib, shutil, tempfile, zipfile, glob\n" + GOOD).encode()
    assert check_source(QUORIDOR, source) is None
    record = play_match(STAT, [source, BASIS], seed=1, limits=LIMITS)
    assert [p.verdict for p in record.players] == [Verdict.OK, Verdict.OK], record.players[0].reason

    # The bot's own import of it, hidden from the static check, is refused at run time: see the
    # import_* bots of tests/hostile/test_corpus_extra.py.


def one_literal(size: int) -> bytes:
    """A player.py that is one list literal of ``size`` bytes, then a legal bot."""
    return b"TABLE = [" + b"0," * (size // 2) + b"]\n" + GOOD.encode()


@pytest.fixture
def fresh_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty door cache on disk and in memory."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    door.forget()
    return door.cache_dir() / "module"


def test_a_module_is_parsed_once_per_content_in_a_child_and_reused_across_runs(fresh_cache: Path) -> None:
    source = b"import yaml\n" + GOOD.encode()
    before = door.stats.children
    assert [f.rule for f in findings(PRIEM, source)] == ["unapproved"]
    assert [f.rule for f in findings(QUORIDOR, source)] == ["unapproved"]  # another game: no second parse
    assert imported_names(source) >= {"yaml"}
    assert door.stats.children == before + 1
    entries = list(fresh_cache.glob("*.json"))
    assert len(entries) == 1
    door.forget()  # a later run: the disk cache answers
    assert [f.rule for f in findings(PRIEM, source)] == ["unapproved"] and door.stats.children == before + 1
    entries[0].write_text('{"text": "{\\"parsed\\": tr')  # corrupt: ignored, recomputed
    door.forget()
    assert [f.rule for f in findings(PRIEM, source)] == ["unapproved"] and door.stats.children == before + 2
    assert '"imports":[[1,"yaml",false]' in json.loads(entries[0].read_text())["text"].replace(" ", "")


def test_a_module_past_the_parse_caps_is_the_bot_s_forbidden(fresh_cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(door.TASKS, "module", replace(modules.TASK, memory=256 << 20))  # a 1 MiB literal: 500 MB
    assert check_source(PRIEM, one_literal(1 << 20)) == (
        "player.py: too large or complex to check: parsing it needs more than 256 MiB of memory "
        "(a bot could not import it within its own limits either)")
    # ... and about 2 s of CPU time; memory ample, so the CPU cap is the one it meets (with 1 GiB,
    # which cap a busy machine reaches first is a race)
    monkeypatch.setitem(door.TASKS, "module", replace(modules.TASK, cpu=1, memory=6 << 30))
    found = findings(PRIEM, one_literal(3 << 20))
    assert [f.rule for f in found] == ["size"] and "more than 1 s of CPU time" in found[0].reason, found
