"""Progress a person (or a log) can follow: plain lines when the output is no terminal, a bar on a
terminal that no other line is drawn over. Checked through a real pipe and a real pty."""

from __future__ import annotations

import io
import os
import pty
import fcntl
import select
import struct
import subprocess
import termios
import sys
import time
from pathlib import Path

from harness.terminal import PlainProgress
from tests.conftest import REPO
from tests.tournament.test_rejudge import make_jobs


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_plain_progress_says_each_tenth_and_every_30_seconds_one_line_each() -> None:
    out, clock = io.StringIO(), Clock()
    bar = PlainProgress(870, 400, "streky", stream=out, clock=clock)
    for _ in range(20):  # 420 of 870: still in the fifth tenth, and no 30 s yet
        clock.now += 1
        bar.update(1)
    assert out.getvalue().splitlines() == ["streky: 400 of 870 done, 470 to play"]
    clock.now += 30  # a slow game: a line, though no tenth was reached
    bar.update(1)
    for _ in range(449):
        clock.now += 0.1
        bar.update(1)
    bar.close()
    lines = out.getvalue().splitlines()
    assert "\r" not in out.getvalue()
    assert lines[1] == "streky: 421 of 870 done (48 %), 50 s so far, about 17 min 49 s left"
    assert [line.split(" done")[0] for line in lines[2:]] == [f"streky: {n} of 870" for n in (435, 522, 609, 696, 783, 870)]
    assert lines[-1] == "streky: 870 of 870 done (100 %), 1 min 35 s so far"
    clock.now += 100  # a wave's last game that took long: its line says so
    slow = PlainProgress(10, 0, "q", stream=out, clock=clock)
    clock.now += 31
    slow.update(0)
    assert out.getvalue().splitlines()[-1] == "q: 0 of 10 done (0 %), 31 s so far"


def test_a_run_into_a_pipe_prints_plain_progress_lines(tmp_path: Path) -> None:
    config = make_jobs(tmp_path)
    done = subprocess.run([sys.executable, "-m", "harness", "run", "g", "--no-self-check", "--config", str(config)],
                          cwd=REPO, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "\r" not in done.stderr
    lines = [line for line in done.stderr.splitlines() if line.startswith("g: ") and " done" in line]
    assert lines[0] == "g: 0 of 12 done, 12 to play" and lines[-1].startswith("g: 12 of 12 done (100 %)"), done.stderr
    assert len(lines) >= 5  # a line at each tenth reached (12 games: most games reach one)


def test_a_quiet_run_with_a_log_still_logs_its_progress(tmp_path: Path) -> None:
    config = make_jobs(tmp_path)
    log = tmp_path / "logs" / "g.log"
    done = subprocess.run([sys.executable, "-m", "harness", "run", "g", "--quiet", "--no-self-check", "--log", str(log),
                           "--config", str(config)], cwd=REPO, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0 and done.stderr == ""
    text = log.read_text()
    assert "g: 0 of 12 done, 12 to play" in text and "g: 12 of 12 done (100 %)" in text and "\r" not in text


def rendered(raw: str) -> list[str]:
    """The lines a terminal shows for ``raw``: a carriage return goes back to the line's start and
    what follows overwrites; erase-line sequences clear the rest of it."""
    screen = []
    for row in raw.replace("\r\n", "\n").split("\n"):
        shown: list[str] = []
        col = 0
        i = 0
        while i < len(row):
            ch = row[i]
            if ch == "\r":
                col = 0
            elif ch == "\x1b":  # CSI ... final byte: tqdm's cursor-up ("\x1b[A") and clears
                j = i + 2
                while j < len(row) and not row[j].isalpha():
                    j += 1
                if row[i + 2:j + 1].endswith("K"):
                    del shown[col:]
                i = j
            else:
                if col < len(shown):
                    shown[col] = ch
                else:
                    shown.append(ch)
                col += 1
            i += 1
        screen.append("".join(shown).rstrip())
    return screen


def test_on_a_terminal_the_self_check_line_is_not_drawn_over_the_bar(tmp_path: Path) -> None:
    config = make_jobs(tmp_path)
    pid, fd = pty.fork()
    if pid == 0:  # the child: the harness on a real terminal
        os.chdir(REPO)
        fcntl.ioctl(1, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))  # a new pty is 0 columns wide
        os.execv(sys.executable, [sys.executable, "-m", "harness", "run", "g", "--config", str(config)])
    raw = b""
    deadline = time.monotonic() + 600
    while time.monotonic() < deadline:
        ready, _, _ = select.select([fd], [], [], 5)
        if not ready:
            continue
        try:
            chunk = os.read(fd, 65536)
        except OSError:  # EIO: the child closed the terminal
            break
        if not chunk:
            break
        raw += chunk
    _, status = os.waitpid(pid, 0)
    text = raw.decode("utf-8", "replace")
    assert os.waitstatus_to_exitcode(status) == 0, text
    assert "%|" in text, "a bar was drawn on the terminal"
    checks = [line for line in rendered(text) if "timing self-check passed" in line]
    assert len(checks) == 1 and checks[0].startswith("g: timing self-check passed") and "%|" not in checks[0], checks
    assert checks[0].endswith(")"), checks
