"""What ``harness check`` prints: one progress line on a terminal, one summary line in a pipe, every
game with ``--verbose``; the first error with its board and replay; the truth when the harness fails.

The pipe and the terminal are real: a subprocess's stdout, and a pseudo-terminal (as in a
terminal emulator) read to the end.
"""

from __future__ import annotations

import json
import os
import pty
import re
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest

from harness.pregrade import CheckReport, GameResult, explain, grading_tasks
from harness.commands.check import error_text, verdict_text
from harness.config import load_config
from harness.games import get_game
from harness.match import play_match
from harness.tournament.execute import fault_record
from harness.submission import Submission
from tests.conftest import BOTS, REPO, last_said

HERE = Path(__file__).resolve().parent
GOOD = HERE / "bots/good.py"
GAME_LINE = re.compile(r"^\s+game\s+\d+\s+vs ", re.M)


def check(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "harness", "check", *args], capture_output=True, text=True,
                          timeout=300, cwd=cwd)


def in_terminal(*args: str, cwd: Path, timeout: float = 300.0) -> tuple[int, str]:
    """Run ``harness ARGS`` with a pseudo-terminal as stdout and stderr; its exit code and raw output."""
    master, slave = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "harness", *args], stdin=subprocess.DEVNULL, stdout=slave,
                            stderr=slave, cwd=cwd, start_new_session=True, close_fds=True,
                            env={k: v for k, v in os.environ.items() if k != "COLUMNS"})
    os.close(slave)
    seen = b""
    deadline = time.monotonic() + timeout
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([master], [], [], 0.2)
            if ready:
                try:
                    chunk = os.read(master, 65536)
                except OSError:  # the command ended and closed the terminal
                    chunk = b""
                if not chunk:
                    break
                seen += chunk
            elif proc.poll() is not None:
                break
        else:
            raise AssertionError(f"harness {args} did not end within {timeout} s: {seen[-2000:]!r}")
        return proc.wait(timeout=30), seen.decode("utf-8")
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        os.close(master)


def test_piped_check_prints_one_line_for_all_its_games(tmp_path: Path) -> None:
    run = check("priemspel", str(GOOD), cwd=tmp_path)
    assert run.returncode == 0, run.stdout + run.stderr
    lines = run.stdout.splitlines()
    assert not GAME_LINE.search(run.stdout) and "\r" not in run.stdout
    assert lines[lines.index("Games: 12 of the 12 games of priemspel-grading") + 1] == "Played 12 of 12: 12 ok"
    assert lines[-1] == "PASS: the grader would accept this bot: all 12 games of priemspel-grading ok."


def test_verbose_check_prints_every_game(tmp_path: Path) -> None:
    run = check("priemspel", str(GOOD), "--games", "4", "--verbose", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    games = GAME_LINE.findall(run.stdout)
    assert len(games) == 4 and "Played " not in run.stdout


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="needs a Linux pty")
def test_check_on_a_terminal_rewrites_one_progress_line(tmp_path: Path) -> None:
    code, out = in_terminal("check", "priemspel", str(GOOD), "--games", "4", cwd=tmp_path)
    assert code == 0, out
    out = out.replace("\r\n", "\n")
    # One line, rewritten in place after each game, left as the summary.
    assert re.search(r"\rPlayed 1 of 4: 1 ok *\rPlayed 2 of 4: 2 ok *\rPlayed 3 of 4: 3 ok *\rPlayed 4 of 4: 4 ok *\n",
                     out), out
    assert not GAME_LINE.search(out)
    assert last_said(out) == ("PASS on a sample: 4 of the 12 games of priemspel-grading ok; the "
                                                 "grader plays all 12 (run without --games to play them all).")


def test_a_failing_check_shows_the_summary_then_the_first_error_then_the_verdict(tmp_path: Path) -> None:
    run = check("priemspel", str(BOTS / "priemspel/exception_midgame.py"), "--games", "2", cwd=tmp_path)
    assert run.returncode == 1
    out = run.stdout
    summary, error, verdict = (out.index("Played 2 of 2: 2 exception\n"), out.index("First error: game 1 (seed 1, "
                               "seat 0) vs strategie, after "), out.index("FAIL: 2 of 2 games end with a verdict"))
    assert summary < error < verdict
    assert "  position:\n" in out[error:] and "  replay: " in out[error:]


def _report(records: list) -> CheckReport:
    game = get_game("priemspel")
    report = CheckReport(game, "player.py", [], [])
    report.games = [GameResult(n, "basis", 0, r) for n, r in enumerate(records, start=1)]
    return report


def test_a_harness_fault_is_reported_as_the_harness_s_not_the_bot_s(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "200")  # the first line whole, whatever the width the tests run at
    game = get_game("priemspel")
    job = load_config(REPO / "harness/jobs/grading.yaml").grading_job("priemspel")
    tasks = grading_tasks(job, "student", Submission.of(GOOD.read_bytes()))
    faults = [fault_record(t, "the worker process died (a fault of the harness)") for t in tasks[:3]]
    assert verdict_text(_report(faults)) == (
        "NO VERDICT: the harness failed in 3 of 3 games (not your bot's fault: please report it; those games say "
        "nothing about your bot); run the check again.")
    failing = play_match(game, [(BOTS / "priemspel/exception_midgame.py").read_bytes(),
                                (REPO / "reference_players/priemspel/basis.py").read_bytes()],
                         logins=["student", "basis"])
    mixed = _report([faults[0], failing])
    assert verdict_text(mixed) == (
        "FAIL: 1 of 2 games end with a verdict against your bot; the harness failed in 1 of 2 games (not your "
        "bot's fault: please report it; those games say nothing about your bot).")
    only = _report(faults[:1])
    only.first_error = explain(only.games[0], game, tmp_path)
    assert error_text(only).startswith("The harness failed: game 1 (seed 1, seat 0) vs basis, after 0 plies: "
                                       "harness_error\n")
    assert "(the harness failed, not your bot: please report this)" in error_text(only)


LATE_FAILURE = b'''
class Player:
    """Plays the smallest legal step, and raises on the boards of 4 squares a move."""

    def __init__(self, name):
        self.name = name

    def zet(self, spel):
        if spel.N == 4:
            raise ValueError("no plan for N = 4")
        for k in range(1, spel.N + 1):
            n = spel.positie + k
            if n > 1 and all(n % i for i in range(2, int(n ** 0.5) + 1)):
                return k
        return 1
'''


def test_one_game_has_one_number_in_check_feedback_and_gradescope(tmp_path: Path) -> None:
    """A bot failing first in a later game of the job: check, the feedback file and Gradescope name
    the same game with the same number, seed and seat (the bot's own numbering, not the job's)."""
    for login, source in (("alice", (REPO / "submissions/priemspel/alice/player.py").read_bytes()),
                          ("late", LATE_FAILURE)):
        (tmp_path / "subs" / login).mkdir(parents=True)
        (tmp_path / "subs" / login / "player.py").write_bytes(source)
    (tmp_path / "tournaments.yaml").write_text(f"""jobs:
  priemspel-grading:
    game: priemspel
    format: gauntlet
    submissions: subs
    opponent: {REPO}/reference_players/priemspel/strategie.py
    settings: [{{start: 0, N: 5}}, {{start: 0, N: 7}}, {{start: 10, N: 4}}]
    games: 4
    seed: 1
    awards: {{policy: pass_fail, points: 1}}
""")
    run = subprocess.run([sys.executable, "-m", "harness", "run", "priemspel-grading", "--quiet", "--no-self-check"],
                         cwd=tmp_path, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr
    checked = check("priemspel", "subs/late/player.py", cwd=tmp_path)
    label = re.search(r"^First error: (game \d+ \(seed \d+, seat \d\)) vs ", checked.stdout, re.M)
    assert label is not None and label.group(1) != "game 1 (seed 1, seat 0)", checked.stdout
    for fmt, read in (("feedback", lambda d: (d / "late.txt").read_text()),
                      ("gradescope", lambda d: json.loads((d / "late/results.json").read_text())["tests"][0]["output"])):
        subprocess.run([sys.executable, "-m", "harness", "export", "priemspel-grading", "--format", fmt, "--out", fmt],
                       cwd=tmp_path, capture_output=True, check=True, timeout=300)
        assert f"First error: {label.group(1)}, against strategie: exception: " in read(tmp_path / fmt)
