"""The terminal reads well: ``harness`` alone, ``harness list``, and a leaderboard that fits.

Real commands in real subprocesses, over a real job (PriemSpel bots in sandboxed processes, a
SQLite store) and a real SemBasic grading.
"""

from __future__ import annotations

import csv
import io
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from harness.cli import build_parser
from harness.games import game_names
from harness.terminal import PIPE_WIDTH, Column, cut, fit_table
from tests.conftest import BOTS, REPO


def harness(*args: str, cwd: Path, columns: int | None = None) -> str:
    env = {k: v for k, v in os.environ.items() if k != "COLUMNS"}
    if columns is not None:
        env["COLUMNS"] = str(columns)
    run = subprocess.run([sys.executable, "-m", "harness", *args], cwd=cwd, capture_output=True, text=True,
                         timeout=600, env=env)
    assert run.returncode == 0, run.stdout + run.stderr
    return run.stdout


def test_harness_alone_prints_every_command_with_one_line(tmp_path: Path) -> None:
    out = harness(cwd=tmp_path)
    parser = build_parser()
    commands = next(a for a in parser._actions if a.dest == "command").choices
    named = [line for line in out.splitlines() if line.startswith("  ") and not line.startswith("   ")]
    listed = [line.split()[0] for line in named]  # a longer help goes on below its command, indented
    assert sorted(listed) == sorted(commands)
    for line in named:
        assert len(line.split(None, 1)) == 2, f"a command without its line of help: {line!r}"
    assert out.splitlines()[0].startswith("usage: harness COMMAND")


def test_harness_list_names_the_jobs_the_games_and_the_reference_players(tmp_path: Path) -> None:
    out = harness("list", cwd=tmp_path)  # no tournaments.yaml here: the shipped grading jobs
    lines = out.splitlines()
    assert lines[0] == "Jobs (from the harness's shipped grading jobs (no ./tournaments.yaml here)):"
    assert "  priemspel-grading   priemspel gauntlet" in lines or any(
        line.split() == ["priemspel-grading", "priemspel", "gauntlet"] for line in lines)
    games = lines[lines.index("Games (harness play GAME BOT ..., harness check GAME BOT):") + 1:]
    assert [g.split()[0] for g in games[:len(game_names())]] == list(game_names())
    refs = out.split("Reference players (harness check GAME BOT --against NAME):\n")[1]
    for game in game_names():
        assert f"  {game}:" in refs
    for stem in ("brute", "random_legal", "basis", "strategie"):
        assert any(line.split()[:1] == [stem] for line in refs.splitlines())
    repo = harness("list", cwd=REPO)
    assert repo.splitlines()[0] == "Jobs (from tournaments.yaml):"
    assert any(line.split()[:2] == ["course", "group:"] for line in repo.splitlines())


def test_cut_keeps_the_first_words() -> None:
    reason = "exception: zet() raised IndexError: list index out of range at player.py line 12 in zet"
    assert cut(reason, 200) == reason
    assert cut(reason, 30) == "exception: zet() raised..."
    assert len(cut(reason, 30)) <= 30
    assert cut("x" * 50, 10) == "xxxxxxx..."


def test_fit_table_lets_the_columns_give_way_in_order() -> None:
    columns = [Column("rank"), Column("login", give=3, floor=8), Column("bot", give=1), Column("games"),
               Column("status", give=2, floor=20)]
    rows = [[1, "alice", "A very long bot name", 12, "ok"],
            ["-", "bob", "", 12, "exception: zet() raised ValueError: something went badly wrong here"]]
    wide = fit_table(columns, rows, None)
    assert "A very long bot name" in wide and "something went badly wrong here" in wide
    narrow = fit_table(columns, rows, 60).splitlines()
    assert all(len(line) <= 60 for line in narrow)
    assert narrow[0].split() == ["rank", "login", "games", "status"]  # the bot's own name went first
    assert narrow[-1].split()[3:6] == ["exception:", "zet()", "raised"]


@pytest.fixture(scope="module")
def course(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A PriemSpel round robin and gauntlet (a bot failing with a long reason among them) and a
    SemBasic grading of two Quoridor submissions, all run with ``harness run``."""
    root = tmp_path_factory.mktemp("terminal-course")
    for login in ("alice", "bob", "carol"):
        shutil.copytree(REPO / "submissions/priemspel" / login, root / "subs" / login)
    failing = root / "subs/a_bot_that_fails_in_the_middle_of_a_game"
    failing.mkdir()
    shutil.copy(BOTS / "priemspel/exception_midgame.py", failing / "player.py")
    for login in ("ok_naive", "no_path_check"):
        shutil.copytree(REPO / "submissions/quoridor" / login, root / "quoridor" / login)
    refs = REPO / "reference_players/priemspel"
    (root / "tournaments.yaml").write_text(f"""
jobs:
  rr:
    game: priemspel
    format: round_robin
    submissions: subs
    reference: [{refs / 'basis.py'}, {refs / 'strategie.py'}]
    settings: [{{start: 0, N: 5}}]
    games: 1
    awards: {{policy: tiers, tiers: [{{rank: 1, points: 3}}]}}
  gauntlet:
    game: priemspel
    format: gauntlet
    submissions: subs
    opponent: {refs / 'strategie.py'}
    settings: [{{start: 0, N: 5}}]
    games: 2
    seed: 1
    awards: {{policy: pass_fail, points: 1}}
  sem:
    game: quoridor
    format: sembasic
    submissions: quoridor
""")
    for job in ("rr", "gauntlet", "sem"):
        harness("run", job, "--no-self-check", "--quiet", cwd=root)
    return root


def test_the_leaderboard_fits_80_columns_and_keeps_the_reason_s_first_words(course: Path) -> None:
    out = harness("leaderboard", "rr", cwd=course, columns=80)
    lines = out.splitlines()
    assert max(len(line) for line in lines) <= 80, out
    # A 40-letter login does not fit a table row at 80 columns: each row becomes a block, login whole.
    assert "-  a_bot_that_fails_in_the_middle_of_a_game" in lines, out
    assert "status: exception: zet() raised IndexError" in " ".join(out.split()), out
    table = harness("leaderboard", "rr", cwd=course, columns=100)
    lines = table.splitlines()
    assert max(len(line) for line in lines) <= 100, table
    failing = next(line for line in lines if "a_bot_that" in line)
    assert "a_bot_that_fails_in_the_middle_of_a_game" in failing and " exception:" in failing, table
    assert lines[0].split()[:2] == ["rank", "login"] and lines[0].split()[-1] == "status"
    piped = harness("leaderboard", "rr", cwd=course)  # no terminal and no COLUMNS: the pipe's width
    assert max(len(line) for line in piped.splitlines()) <= PIPE_WIDTH, piped
    wide = harness("leaderboard", "rr", cwd=course, columns=300)
    assert "rating" in wide.splitlines()[0] and "a_bot_that_fails_in_the_middle_of_a_game" in wide


def test_csv_and_json_leaderboards_stay_whole(course: Path) -> None:
    rows = {r["login"]: r for r in csv.DictReader(io.StringIO(harness("leaderboard", "rr", "--format", "csv",
                                                                      cwd=course, columns=80)))}
    reason = rows["a_bot_that_fails_in_the_middle_of_a_game"]["reason"]
    assert reason.startswith("exception: zet() raised IndexError: list index out of range at player.py line")
    assert '"reason": "exception: zet() raised IndexError' in harness("leaderboard", "rr", "--format", "json",
                                                                      cwd=course, columns=80)


def test_a_gauntlet_shows_no_rating_and_its_page_counts_the_rows(course: Path) -> None:
    header = harness("leaderboard", "gauntlet", cwd=course, columns=300).splitlines()[0].split()
    assert "rating" not in header and header[:2] == ["rank", "login"]
    html = (course / "results/gauntlet/site/index.html").read_text()
    board = html.split('id="leaderboard"')[1].split("</table>")[0]
    assert ">rating<" not in board
    rows = board.count("<tr") - 1  # the header's row
    assert rows == 4 and f'id="bot-count">{rows}<' in html  # the four students; the opponent is no row


def test_sembasic_shows_its_own_columns(course: Path) -> None:
    lines = harness("leaderboard", "sem", cwd=course, columns=120).splitlines()
    assert lines[0].split() == ["rank", "login", "interface", "expand_player", "expand_obstacles", "points", "status"]
    rows = {line.split()[1]: line.split() for line in lines[2:]}
    assert rows["ok_naive"][2:7] == ["yes", "1", "1", "2", "passed"]
    assert rows["no_path_check"][2:7] == ["yes", "1", "0", "1", "not"]
    html = (course / "results/sem/site/index.html").read_text()
    assert 'id="bot-count">2<' in html and 'id="game-count"' not in html  # gradings, not "games 0"


def test_a_cut_never_splits_a_word() -> None:
    """A rating cut to its column keeps its whole number ("164..." of "1640 ±200" would misread)."""
    from harness.terminal import cut

    assert cut("1640 ±200", 6) == "1640"
    assert cut("exception: zet() raised IndexError", 12) == "exception:"
    assert cut("disqualified: illegal move at ply 3", 20) == "disqualified..."
    assert cut("short", 10) == "short"


def test_the_docs_captures_fit_80_columns() -> None:
    """docs/terminal/ shows what an 80-column terminal shows (docs/terminal/make_captures.sh makes them)."""
    captures = sorted((REPO / "docs/terminal").glob("*.txt"))
    assert len(captures) >= 5
    for capture in captures:
        lines = capture.read_text(encoding="utf-8").splitlines()
        assert lines[0].startswith("$ harness"), capture.name
        assert max(len(line) for line in lines) <= 80, (capture.name, max(lines, key=len))
