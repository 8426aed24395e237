"""A Quoridor position drawn as SVG (reports, replays) or as plain text (terminals, SemBasic).

Row 0 is at the top, column 0 at the left. Player A (seat 0) starts on row 0 and heads for the
last row; player B (seat 1) the other way. Goal rows are tinted in the colour of the player who
must reach them; walls are drawn in the colour of whoever placed them (initial walls black).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from xml.sax.saxutils import escape

from harness.games.quoridor.moves import Step, Wall, WallKey, key_edges, wall_key
from harness.games.quoridor.rules import State

CELL = 40
MARGIN = 28
COLOURS = ("#1f5fbf", "#2e8b57")  # seat 0, seat 1
WALL_COLOUR = "#222222"
HIGHLIGHT = "#d1495b"
LABELS = ("A", "B")


def _highlight_key(state: State, highlight: Any) -> WallKey | None:
    if isinstance(highlight, Wall):
        key = wall_key(highlight, state.sizex, state.sizey)
        return None if isinstance(key, str) else key
    return None


# ---- SVG ----------------------------------------------------------------------------------
def svg(state: State, highlight: Any = None) -> str:
    """The board with goal rows, walls and pawns; ``highlight`` (a move) drawn in red."""
    sx, sy = state.sizex, state.sizey
    width, height = 2 * MARGIN + sx * CELL, 2 * MARGIN + sy * CELL + 18

    def px(x: float) -> float:
        return MARGIN + x * CELL

    def py(y: float) -> float:
        return MARGIN + y * CELL

    out = [(f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="11">'),
           f'<rect x="0" y="0" width="{width}" height="{height}" fill="#ffffff"/>']
    for seat in (0, 1):  # the goal row of each player, tinted in its colour
        out.append(f'<rect x="{px(0)}" y="{py(state.goal_row(seat))}" width="{sx * CELL}" height="{CELL}" '
                   f'fill="{COLOURS[seat]}" fill-opacity="0.12"/>')
    for y in range(sy):
        for x in range(sx):
            out.append(f'<rect x="{px(x) + 1}" y="{py(y) + 1}" width="{CELL - 2}" height="{CELL - 2}" '
                       f'fill="none" stroke="#cccccc"/>')
    for x in range(sx):
        out.append(f'<text x="{px(x) + CELL / 2}" y="{MARGIN - 8}" text-anchor="middle">{x}</text>')
    for y in range(sy):
        out.append(f'<text x="{MARGIN - 8}" y="{py(y) + CELL / 2 + 4}" text-anchor="end">{y}</text>')

    def wall_line(key: WallKey, colour: str, extra: str = "") -> str:
        kind, x, y = key
        if kind == "H":
            x1, y1, x2, y2 = px(x) + 3, py(y + 1), px(x + 2) - 3, py(y + 1)
        else:
            x1, y1, x2, y2 = px(x + 1), py(y) + 3, px(x + 1), py(y + 2) - 3
        return (f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="{colour}" stroke-width="6" '
                f'stroke-linecap="round"{extra}/>')

    for placed in state.walls:
        colour = WALL_COLOUR if placed.owner is None else COLOURS[placed.owner]
        out.append(wall_line(placed.key, colour))
    hkey = _highlight_key(state, highlight)
    if hkey is not None:
        out.append(wall_line(hkey, HIGHLIGHT, ' stroke-dasharray="6 4"'))
    for seat, (x, y) in enumerate(state.pawns):
        out.append(f'<circle cx="{px(x) + CELL / 2}" cy="{py(y) + CELL / 2}" r="{CELL * 0.32}" '
                   f'fill="{COLOURS[seat]}"/><text x="{px(x) + CELL / 2}" y="{py(y) + CELL / 2 + 4}" '
                   f'text-anchor="middle" fill="#ffffff" font-weight="bold">{LABELS[seat]}</text>')
    if isinstance(highlight, Step):
        out.append(f'<circle cx="{px(highlight.x) + CELL / 2}" cy="{py(highlight.y) + CELL / 2}" '
                   f'r="{CELL * 0.38}" fill="none" stroke="{HIGHLIGHT}" stroke-width="3"/>')
    left = [state.max_obstacles - u for u in state.used]
    caption = (f"ply {state.ply}; A to row {state.goal_row(0)}, {left[0]} walls left; "
               f"B to row {state.goal_row(1)}, {left[1]} walls left; {LABELS[state.turn]} to move")
    out.append(f'<text x="{MARGIN}" y="{height - 8}">{escape(caption)}</text>')
    out.append("</svg>")
    return "".join(out)


# ---- text ---------------------------------------------------------------------------------
def board_text(state: State, highlight: Any = None, *, labels: tuple[str, str] = LABELS,
               marks: Mapping[tuple[int, int], str] | None = None,
               extra_walls: Mapping[WallKey, str] | None = None) -> str:
    """The board in ASCII: ``===`` and ``#`` are walls, ``=``/``#``/``X`` at a corner a wall's
    midpoint (``X``: two walls cross there), pawns by ``labels``. ``marks`` puts a character in
    cells; ``extra_walls`` draws further walls with their own character (e.g. missing ones).
    """
    sx, sy = state.sizex, state.sizey
    hchar: dict[tuple[int, int], str] = {}  # edge (x,y)-(x,y+1) -> char
    vchar: dict[tuple[int, int], str] = {}  # edge (x,y)-(x+1,y) -> char
    mid: dict[tuple[int, int], str] = {}  # corner (x+1, y+1) -> char

    def put(key: WallKey, h: str, v: str) -> None:
        kind, x, y = key
        for e in key_edges(key):
            if kind == "H":
                hchar[(e[0], e[1])] = h
            else:
                vchar[(e[0], e[1])] = v
        corner = (x + 1, y + 1)
        mark = h[0] if kind == "H" else v
        mid[corner] = "X" if corner in mid and mid[corner] != mark else mark

    for placed in state.walls:
        put(placed.key, "===", "#")
    for key, char in (extra_walls or {}).items():
        put(key, char * 3, char)
    hkey = _highlight_key(state, highlight)
    if hkey is not None:
        put(hkey, "***", "*")
    cells: dict[tuple[int, int], str] = dict(marks or {})
    if isinstance(highlight, Step):
        cells[(highlight.x, highlight.y)] = "*"
    for seat, pos in enumerate(state.pawns):
        cells[pos] = labels[seat]

    width = len(str(sy - 1))
    pad = " " * (width + 1)
    lines = [pad + "".join(f"{x:^4}" for x in range(sx)).rstrip()]
    border = pad + "+" + "+".join("---" for _ in range(sx)) + "+"
    lines.append(border)
    for y in range(sy):
        row = f"{y:>{width}} |"
        for x in range(sx):
            row += f" {cells.get((x, y), ' ')} "
            row += "|" if x == sx - 1 else vchar.get((x, y), " ")
        lines.append(row)
        if y == sy - 1:
            break
        sep = pad + "+"
        for x in range(sx):
            sep += hchar.get((x, y), "   ")
            sep += "+" if x == sx - 1 else mid.get((x + 1, y + 1), "+")
        lines.append(sep)
    lines.append(border)
    return "\n".join(lines)


def text(state: State, highlight: Any = None) -> str:
    """The board and one line about whose turn it is, goals and walls left."""
    left = [state.max_obstacles - u for u in state.used]
    return (board_text(state, highlight) + "\n"
            f"ply {state.ply}: A at {state.pawns[0]} to row {state.goal_row(0)} ({left[0]} walls left), "
            f"B at {state.pawns[1]} to row {state.goal_row(1)} ({left[1]} walls left); "
            f"{LABELS[state.turn]} to move")
