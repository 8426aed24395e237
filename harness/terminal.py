"""Text for a terminal: its width, tables that fit it, and one-line progress.

Every cell is passed through :func:`harness.text.line` first (a bot's name or reason is data),
then the table is made to fit: the columns that may give way do, in their order, each cut to its
first words and ``...`` or, if it can go, left out; then long headers fold onto two lines and the
wrapping columns (a status) wrap onto several. A column that never gives way (a login) is never
cut: a table that still does not fit is printed as one block per row instead.
"""

from __future__ import annotations

import os
import sys
import textwrap
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, TextIO

import tabulate as _tabulate

from harness.text import line

PIPE_WIDTH = 100  # the width of text that goes to a pipe or a file (a log, `| less`)


def width(stream: TextIO | None = None) -> int:
    """The width to fit: ``COLUMNS`` where it is set, else the terminal's, else :data:`PIPE_WIDTH`."""
    try:
        return max(40, int(os.environ.get("COLUMNS", "")))
    except ValueError:
        pass
    stream = stream or sys.stdout
    try:
        if stream.isatty():
            return max(40, os.get_terminal_size(stream.fileno()).columns)
    except (OSError, ValueError, AttributeError):
        pass
    return PIPE_WIDTH


def prose_width(stream: TextIO | None = None) -> int | None:
    """The width to wrap prose to: ``COLUMNS`` where it is set, else the terminal's; ``None`` (keep
    each line whole) when the text goes to a pipe or a file, where a line is better found by grep."""
    if os.environ.get("COLUMNS", "").strip().isdigit() or is_terminal(stream):
        return width(stream)
    return None


def is_terminal(stream: TextIO | None = None) -> bool:
    """True if ``stream`` (stdout by default) is a terminal a person watches."""
    try:
        return (stream or sys.stdout).isatty()
    except (ValueError, AttributeError):
        return False


def game_label(number: int, seed: int, seat: int) -> str:
    """How a game is named to people, the same in ``check``, feedback, Gradescope and the report:
    its number among the bot's own games of the job, with its seed and the bot's seat."""
    return f"game {number} (seed {seed}, seat {seat})"


def cut(text: str, room: int) -> str:
    """``text`` in at most ``room`` characters: its first words, then ``...``."""
    if len(text) <= room:
        return text
    if room <= 3:
        return text[:room]
    head = text[:room - 3]
    first = text.split(" ", 1)[0]
    if " " not in head and len(first) <= room:
        return first  # never cut inside a word: "164..." of a rating "1640 ±200" would misread
    space = head.rfind(" ")
    if space >= room // 2:  # end at a word when that keeps most of the room
        head = head[:space]
    return head.rstrip(" ,;:") + "..."


@dataclass(frozen=True)
class Column:
    """A table column: its header and how it gives way when the table is too wide.

    ``give`` orders the columns that give way (lowest first; ``None``: never); each is cut down to
    ``floor`` characters, and a column with ``floor`` 0 is left out instead of cut to nothing.
    ``early`` is an earlier step of the same column, ``(order, width)``: cut to ``width`` first.
    """

    header: str
    give: int | None = None
    floor: int = 0
    early: tuple[int, int] | None = None
    wrap: int = 0  # > 0: when still too wide, its cells wrap onto lines of at least this width
    head: bool = False  # in the one-block-per-row layout, on the row's first line (rank, login)


def fit_table(columns: Sequence[Column], rows: Sequence[Sequence[Any]], room: int | None,
              fmt: str = "simple") -> str:
    """The table in tabulate's ``fmt``, every cell one clean line; with ``room``, at most that wide."""
    cols = list(columns)
    cells = [[line(c) for c in row] for row in rows]
    if fmt == "github":  # a "|" inside a cell would start a new Markdown column
        cells = [[c.replace("|", "\\|") for c in row] for row in cells]
    whole = [list(row) for row in cells]  # before any cut: what a block per row shows

    def render() -> str:
        padding, _tabulate.MIN_PADDING = _tabulate.MIN_PADDING, 0  # no blank margin after a short header
        try:
            return _tabulate.tabulate(cells, headers=[c.header for c in cols], tablefmt=fmt, disable_numparse=True)
        finally:
            _tabulate.MIN_PADDING = padding

    text = render()
    if room is None:
        return text
    steps = [(c.give, c.floor, c) for c in columns if c.give is not None]
    steps += [(c.early[0], c.early[1], c) for c in columns if c.early is not None]
    for _, floor, column in sorted(steps, key=lambda step: step[0]):
        over = max(len(s) for s in text.splitlines()) - room
        if over <= 0:
            break
        if column not in cols:
            continue
        i = cols.index(column)
        now = max([len(column.header), *(len(r[i]) for r in cells)])
        target = max(floor, len(column.header) if floor else 0, now - over)
        if floor == 0 and target < max(len(column.header), 6):
            del cols[i]  # a column cut to a few letters says nothing: leave it out
            for row in cells:
                del row[i]
        elif target < now:
            for row in cells:
                row[i] = cut(row[i], target)
        text = render()
    over = max(len(s) for s in text.splitlines()) - room
    if over > 0:  # fold the headers much wider than their cells ("expand_obstacles" over 0 and 1)
        for i, column in enumerate(cols):
            widest = max((len(r[i]) for r in cells), default=0)
            if len(column.header) > widest + 2 and ("_" in column.header or " " in column.header):
                cols[i] = Column(fold(column.header), column.give, column.floor, column.early, column.wrap,
                                 column.head)
        text = render()
    for i, column in enumerate(cols):
        over = max(len(s) for s in text.splitlines()) - room
        if over <= 0:
            break
        if column.wrap:
            now = max(len(r[i]) for r in cells) if cells else 0
            target = max(column.wrap, now - over)
            if target < now:
                for row in cells:
                    row[i] = "\n".join(textwrap.wrap(row[i], target, break_long_words=True)) or row[i]
                text = render()
    if max(len(s) for s in text.splitlines()) > room:
        return stacked(columns, whole, room)
    return text


def fold(header: str) -> str:
    """A header on two lines, broken after the ``_`` or space nearest its middle."""
    cuts = [i + 1 for i, ch in enumerate(header) if ch in "_ "]
    at = min(cuts, key=lambda i: abs(len(header) - 2 * i))
    return header[:at].rstrip() + "\n" + header[at:]


def stacked(cols: Sequence[Column], cells: Sequence[Sequence[str]], room: int) -> str:
    """A table too wide for ``room`` even with its columns cut: one block per row, its head columns
    (rank, login) whole on the first line, the others as ``header: value`` wrapped below."""
    out = []
    for row in cells:
        head = "  ".join(c for col, c in zip(cols, row) if col.head)
        rest = "; ".join(f"{col.header}: {c}" for col, c in zip(cols, row) if not col.head and c.strip())
        out.append(head)
        out += textwrap.wrap(rest, room, initial_indent="    ", subsequent_indent="    ") if rest else []
    return "\n".join(out)


class PlainProgress:
    """Progress as plain lines, for a run whose output is no terminal (``nohup``, cron, ``--log``):
    one line at each tenth of the work and at least every ``every`` seconds while games finish,
    never a carriage return, so a log shows how far a long run is and a ``tail -f`` follows it.

    Has the part of tqdm's interface a run uses: ``update(n)`` and ``close()``."""

    def __init__(self, total: int, done: int, label: str, stream: TextIO | None = None, every: float = 30.0,
                 clock: Any = time.monotonic) -> None:
        self.total, self.n, self.label, self.every, self.clock = total, done, label, every, clock
        self.stream = stream if stream is not None else sys.stderr
        self.start = self.last = clock()
        self.initial = done
        self.step = self._tenth(done)
        self._say(f"{done} of {total} done, {total - done} to play")

    def _tenth(self, n: int) -> int:
        return (10 * n) // self.total if self.total else 10

    def _say(self, what: str) -> None:
        print(f"{self.label}: {what}", file=self.stream, flush=True)
        self.last = self.clock()

    def update(self, n: int = 1) -> None:
        """``n`` more done: a line if it reaches the next tenth, or if the last line is ``every`` s old."""
        self.n += n
        now = self.clock()
        if self._tenth(self.n) > self.step or now - self.last >= self.every:
            self.step = self._tenth(self.n)
            elapsed = now - self.start
            played = self.n - self.initial
            left = ""
            if 0 < played and self.n < self.total:
                left = f", about {_duration(elapsed / played * (self.total - self.n))} left"
            percent = 100 * self.n // self.total if self.total else 100
            self._say(f"{self.n} of {self.total} done ({percent} %), {_duration(elapsed)} so far{left}")

    def close(self) -> None:
        """Nothing to clear: the last game's update said the last tenth."""

    @staticmethod
    def write(text: str, file: TextIO | None = None) -> None:
        """A line of its own (as tqdm.write): plain lines need no redrawing."""
        print(text, file=file or sys.stderr, flush=True)


def _duration(seconds: float) -> str:
    """``"42 s"``, ``"12 min 5 s"``, ``"2 h 3 min"``."""
    s = int(round(seconds))
    if s < 60:
        return f"{s} s"
    if s < 3600:
        return f"{s // 60} min {s % 60} s"
    return f"{s // 3600} h {s % 3600 // 60} min"


def say(text: str) -> None:
    """A line on standard error that a progress bar on the terminal does not draw over (or is
    drawn over by): through tqdm's ``write``, which clears the bar, prints, and redraws it."""
    if is_terminal(sys.stderr):
        from tqdm import tqdm

        tqdm.write(text, file=sys.stderr)
    else:
        print(text, file=sys.stderr, flush=True)


def wrapped(text: str, room: int | None) -> str:
    """``text`` wrapped to ``room`` columns, line by line, each continuation indented two more
    than its line; words longer than the room (a path) are broken rather than overflow. ``None``:
    as it is."""
    if room is None:
        return text
    out = []
    for one in text.splitlines() or [""]:
        if len(one) <= room:
            out.append(one)
            continue
        indent = " " * (len(one) - len(one.lstrip(" ")))
        out.append(textwrap.fill(one.strip(), room, initial_indent=indent, subsequent_indent=indent + "  ",
                                 break_on_hyphens=False))
    return "\n".join(out)


__all__ = ["Column", "fold", "prose_width", "stacked", "wrapped", "PIPE_WIDTH", "PlainProgress", "cut", "fit_table",
           "game_label", "is_terminal", "say", "width"]
