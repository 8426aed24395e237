"""A person at a real terminal: ``harness play blokovanie human BOT`` driven through a pseudo-terminal.

The command runs in a real pty (as in a terminal emulator); the test reads what it prints and
types answers at its prompts, as the seed's example game does: the board printed, "Choose row:"
and "Choose column:" asked, invalid input refused and asked again, the computer's move told,
the winner announced.
"""

from __future__ import annotations

import os
import pty
import re
import select
import subprocess
import sys
import time

import pytest

from tests.conftest import REPO

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="needs a Linux pty")


class Terminal:
    """A command in a pseudo-terminal: read what it prints, type lines at its prompts."""

    def __init__(self, *args: str) -> None:
        self.master, slave = pty.openpty()
        self.proc = subprocess.Popen([sys.executable, "-m", "harness", *args], stdin=slave, stdout=slave,
                                     stderr=slave, cwd=REPO, start_new_session=True, close_fds=True)
        os.close(slave)
        self.seen = ""

    def expect(self, pattern: str, timeout: float = 60.0) -> re.Match[str]:
        """Wait (with a deadline) until the output since the last match matches ``pattern``."""
        deadline = time.time() + timeout
        while True:
            match = re.search(pattern, self.seen)
            if match:
                self.seen = self.seen[match.end():]
                return match
            if time.time() > deadline:
                raise AssertionError(f"no {pattern!r} within {timeout} s; the terminal shows: {self.seen[-2000:]!r}")
            ready, _, _ = select.select([self.master], [], [], 0.2)
            if ready:
                try:
                    chunk = os.read(self.master, 4096)
                except OSError:  # the command ended and closed the terminal
                    chunk = b""
                if not chunk and self.proc.poll() is not None:
                    raise AssertionError(f"the command ended before {pattern!r}: {self.seen[-2000:]!r}")
                self.seen += chunk.decode("utf-8", "replace").replace("\r\n", "\n")

    def type(self, line: str) -> None:
        os.write(self.master, (line + "\n").encode())

    def close(self) -> int:
        try:
            return self.proc.wait(timeout=60)
        finally:
            os.close(self.master)


BOARD = r"((?:[-X]{6}\n){5})"


def test_a_person_plays_blokovanie_against_a_bot_in_a_real_terminal() -> None:
    term = Terminal("play", "blokovanie", "human", "reference_players/blokovanie/first_free.py", "--seed", "1")
    try:
        assert term.expect(BOARD).group(1) == "------\n" * 5
        term.expect("Choose row: ")
        term.type("one")  # not a number: refused, asked again
        term.expect(r"Invalid input: the row must be a whole number, got 'one'\. Try again\.")
        term.expect("Choose row: ")
        term.type("9")
        term.expect("Choose column: ")
        term.type("0")  # off the board: the referee refuses, the person is asked again
        term.expect(r"Invalid move: row 9 is off the 5x6 board \(rows 0\.\.4\)\. Try again\.")
        term.expect("Choose row: ")
        term.type("1")
        term.expect("Choose column: ")
        term.type("1")
        assert term.expect(BOARD).group(1) == "XXX---\nXXX---\nXXX---\n------\n------\n"
        # first_free plays the first free cell in row-major order: (0, 3).
        term.expect(r"Computer chose row 0 and column 3\.")
        assert term.expect(BOARD).group(1) == "XXXXX-\nXXXXX-\nXXX---\n------\n------\n"
        # Worked out by hand: first_free answers (0, 5), then (2, 3); (4, 3) is the last free cell.
        for (row, col), answer in (((4, 1), (0, 5)), ((3, 5), (2, 3)), ((4, 3), None)):
            term.expect("Choose row: ")
            term.type(str(row))
            term.expect("Choose column: ")
            term.type(str(col))
            term.expect(BOARD)
            if answer is not None:
                term.expect(rf"Computer chose row {answer[0]} and column {answer[1]}\.")
                term.expect(BOARD)
        assert term.expect(r"[^\n]*won\.").group(0) == "Computer cannot choose free field. Human won."
        assert term.close() == 0
    finally:
        if term.proc.poll() is None:
            term.proc.kill()


def test_every_game_with_a_text_drawing_can_seat_a_person() -> None:
    """PriemSpel has no prompts of its own: the move is typed in the game's record form."""
    term = Terminal("play", "priemspel", "reference_players/priemspel/basis.py", "human", "--set", "start=8",
                    "--set", "N=4")
    try:
        term.expect(r"Computer played 3\.")  # basis: the smallest step onto a prime (8 + 3 = 11)
        term.expect(r"Your move \(as in the game's record, e\.g\. 2\): ")
        term.type("1")  # 12 is not prime
        term.expect(r"Invalid move: square 12 \(= 11 \+ 1\) is not prime\. Try again\.")
        while term.expect(r"Your move \(as in the game's record, e\.g\. \d\): |(Human|Computer) won\.").group(0) \
                .startswith("Your move"):
            term.type("2")  # from 11, 13 and 17 a step of 2 lands on a prime
        assert term.close() == 0
    finally:
        if term.proc.poll() is None:
            term.proc.kill()
