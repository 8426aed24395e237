"""Bot text is data: a bot's name, exception, output and answer never reach a terminal, a feedback
file or a CSV as terminal commands or invalid Unicode.

The ``text_*`` bots (tests/hostile/bots/) play real PriemSpel games in real sandboxed processes.
Each is pinned twice: the record (both players' verdicts and the exact cleaned text), and what
the commands print: ``harness play``, ``run``, ``leaderboard`` (text, Markdown, CSV) and
``export`` (CSV, feedback), run as a user runs them, must exit 0 with nothing in their output
but printable text, newlines and the escaped forms.
"""

from __future__ import annotations

import csv
import io
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from harness.games import get_game
from harness.match import play_match
from harness.record import GameRecord, Verdict
from harness.sandbox import Limits
from harness.text import block, cell, line, valid
from tests.hostile.conftest import HOSTILE, REPO

GAME = get_game("priemspel")
BASIS = REPO / "reference_players/priemspel/basis.py"
V = Verdict
FFFD = "\ufffd"

NAME = r"\x1b]0;pwned\x07\x1b[2J\x1b[H\x0d\x0a1  text_name  WINNER\x9b31m\u202e" + FFFD
EXCEPTION = (r"zet() raised ValueError: \x1b[2J\x1b[Hall games ok\x0d" "\n"
             r"PASS: the grader would accept this bot\x1b[8m" + FFFD + " at player.py line 9 in zet")
ANSWER = r"\x1b[2J\x1b]0;pwned\x07" + FFFD + r"\x9b"

# Anything a terminal would act on: C0 but the newline, DEL, C1, bidirectional controls; and surrogates.
RAW = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")


@pytest.fixture(params=["auto", "plain"])
def isolation(request: pytest.FixtureRequest) -> str:
    """Under bubblewrap where it works (as in production), and in plain mode (the fallback)."""
    return request.param


def _play(name: str, isolation: str) -> GameRecord:
    return play_match(GAME, [(HOSTILE / f"{name}.py").read_bytes(), BASIS.read_bytes()], seed=1,
                      logins=["hostile", "basis"], limits=Limits(isolation=isolation).with_game(GAME))


def test_a_name_of_escapes_and_a_lone_surrogate_is_kept_as_data(isolation: str, no_leftovers: None) -> None:
    record = _play("text_name", isolation)
    me, other = record.players
    assert (me.verdict, other.verdict) == (V.OK, V.OK)
    assert me.bot_name == NAME


def test_an_exception_message_is_kept_as_data(isolation: str, no_leftovers: None) -> None:
    record = _play("text_exception", isolation)
    me, other = record.players
    assert (me.verdict, other.verdict) == (V.EXCEPTION, V.OK)
    assert me.reason == EXCEPTION
    assert not RAW.search(me.traceback) and r"ValueError: \x1b[2J" in me.traceback


def test_output_of_escapes_and_invalid_utf8_is_kept_as_data(isolation: str, no_leftovers: None) -> None:
    record = _play("text_output", isolation)
    me, other = record.players
    assert (me.verdict, other.verdict) == (V.ILLEGAL_MOVE, V.OK)
    assert me.reason == "step 1000 is larger than N = 5"
    assert me.stdout == r"\x1b]0;pwned\x07\x1b[2Jhello\x1b[31m red" "\n"
    assert me.stderr == "bad " + FFFD * 3 + r" bytes\x1b[5m\x07\x00 end" "\n"


def test_an_answer_of_escapes_is_kept_as_data(isolation: str, no_leftovers: None) -> None:
    record = _play("text_answer", isolation)
    me, other = record.players
    assert (me.verdict, other.verdict) == (V.BAD_ANSWER, V.OK)
    assert me.reason == r"zet() must return an int number of squares, got '\x1b[2J\x1b]0;pwned\x07\ud800\x9b' (str)"
    assert [m.answer for m in record.moves if not m.accepted] == [ANSWER]


def test_the_cleaning_functions() -> None:
    text = "a\x1b[2J\r\n\tb\x9b\u202e\ud800 \ud83d\ude00 \u00e9"
    assert valid(text) == "a\x1b[2J\r\n\tb\x9b\u202e" + FFFD + " \U0001f600 \u00e9"  # a pair is joined
    assert line(text) == r"a\x1b[2J\x0d\x0a\x09b\x9b\u202e" + FFFD + " \U0001f600 \u00e9"
    assert block(text) == "a\\x1b[2J\\x0d\n\tb\\x9b\\u202e" + FFFD + " \U0001f600 \u00e9"
    for clean in (line, block, cell):
        assert clean(clean(text)) == clean(text)
    assert [cell(t) for t in ("=1+2", "+1", "-1", "@SUM(A1)", "ok", "a=b")] == \
        ["'=1+2", "'+1", "'-1", "'@SUM(A1)", "ok", "a=b"]


def _harness(*args: str, cwd: Path, columns: int = 80) -> str:
    """Run the installed command as a user does; it must exit 0 and print only clean UTF-8 text."""
    env = {**os.environ, "COLUMNS": str(columns)}
    done = subprocess.run([sys.executable, "-m", "harness", *args], cwd=cwd, capture_output=True, env=env,
                          timeout=600)
    out, err = done.stdout.decode("utf-8"), done.stderr.decode("utf-8")  # strict: invalid UTF-8 fails here
    assert done.returncode == 0, err
    for text in (out, err):
        assert not RAW.search(text), f"raw control text in the output of {args}: {text!r}"
    return out


@pytest.fixture(scope="module")
def course(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """A course of the four text bots, a clean one and a login that is a formula, graded by
    ``harness run`` (which prints the leaderboard); the folder and what the run printed."""
    root = tmp_path_factory.mktemp("text-course")
    for name in ("text_name", "text_exception", "text_output", "text_answer"):
        (root / "subs" / name).mkdir(parents=True)
        shutil.copy(HOSTILE / f"{name}.py", root / "subs" / name / "player.py")
    for login in ("alice", "=1+2"):
        (root / "subs" / login).mkdir()
        shutil.copy(REPO / "submissions/priemspel/alice/player.py", root / "subs" / login / "player.py")
    (root / "tournaments.yaml").write_text(
        "jobs:\n"
        "  text:\n"
        "    game: priemspel\n"
        "    format: gauntlet\n"
        "    submissions: subs\n"
        f"    opponent: {BASIS}\n"
        "    settings: [{start: 0, N: 5}]\n"
        "    games: 2\n"
        "    seed: 1\n"
        "    awards: {policy: pass_fail, points: 1}\n")
    return root, _harness("run", "text", "--no-self-check", cwd=root, columns=200)


def test_run_prints_the_leaderboard_with_the_text_escaped(course: tuple[Path, str]) -> None:
    root, out = course
    rows = {r.split()[1]: r for r in out.splitlines() if r[:1] in "-0123456789" and len(r.split()) > 1}
    assert rows["text_exception"].endswith(EXCEPTION.replace("\n", r"\x0a"))
    assert (root / "results/text/site/index.html").exists()  # the report is written after the table


@pytest.mark.parametrize("fmt", ["text", "markdown", "csv"])
def test_leaderboard_shows_the_text_escaped(course: tuple[Path, str], fmt: str) -> None:
    out = _harness("leaderboard", "text", "--format", fmt, cwd=course[0], columns=400)  # wide: nothing cut
    if fmt == "csv":
        rows = {r["login"]: r for r in csv.DictReader(io.StringIO(out))}
        assert rows["text_name"]["bot_name"] == NAME
        assert rows["text_exception"]["reason"] == "exception: " + EXCEPTION.replace("\n", r"\x0a")
        assert "'=1+2" in rows  # a login that is a formula is shown, not evaluated
    else:
        assert NAME.replace("|", r"\|") in out
        assert "exception: " + EXCEPTION.replace("\n", r"\x0a") in out


def test_export_csv_and_feedback_show_the_text_escaped(course: tuple[Path, str]) -> None:
    root = course[0]
    out = _harness("export", "text", "--format", "csv", cwd=root)
    rows = {r["login"]: r for r in csv.DictReader(io.StringIO(out))}
    assert rows["text_exception"]["reason"] == "exception: " + EXCEPTION.replace("\n", r"\x0a")
    assert rows["text_answer"]["reason"].startswith(
        r"bad_answer: zet() must return an int number of squares, got '\x1b")
    assert rows["'=1+2"]["points"] == "1"
    _harness("export", "text", "--format", "feedback", "--out", "feedback", cwd=root)
    exception = (root / "feedback/text_exception.txt").read_text(encoding="utf-8")
    assert not RAW.search(exception)
    assert ("First error: game 1 (seed 1, seat 0), against basis: exception: "
            + EXCEPTION.replace("\n", r"\x0a")) in exception
    _harness("export", "text", "--format", "gradescope", "--out", "gradescope", cwd=root)
    graded = json.loads((root / "gradescope/text_exception/results.json").read_text(encoding="utf-8"))
    assert not RAW.search(graded["tests"][0]["output"])
    assert ("First error: game 1 (seed 1, seat 0), against basis: exception: "
            + EXCEPTION.replace("\n", r"\x0a")) in graded["tests"][0]["output"]
    output = (root / "feedback/text_output.txt").read_text(encoding="utf-8")
    assert "Your output (stdout):\n  " + r"\x1b]0;pwned\x07\x1b[2Jhello\x1b[31m red" in output
    assert "Your output (stderr):\n  bad " + FFFD * 3 + r" bytes\x1b[5m\x07\x00 end" in output


def test_play_prints_the_text_escaped(tmp_path: Path) -> None:
    out = _harness("play", "priemspel", str(HOSTILE / "text_name.py"), str(BASIS), "--seed", "1", cwd=tmp_path)
    assert f"[0] text_name ({NAME}): score " in out
    out = _harness("play", "priemspel", str(HOSTILE / "text_exception.py"), str(BASIS), "--seed", "1", cwd=tmp_path)
    assert "exception: " + EXCEPTION.replace("\n", r"\x0a") + "  (slowest call" in out
