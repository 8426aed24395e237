"""A Quoridor position drawn as SVG (reports, replays) or as plain text (terminals, SemBasic).

Row 0 is at the top, column 0 at the left. Player A (seat 0) starts on row 0 and heads for the
last row; player B (seat 1) the other way. Goal rows are tinted in the colour of the player who
must reach them; walls are drawn in the colour of whoever placed them (initial walls black).
The SVG's caption says the ply, whose move it is and the walls left; its legend (a
``<g class="legend">``) names the pawns and their goal rows, the walls and the last move's marks.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from xml.sax.saxutils import escape

from harness.games.legend import LEGEND_WIDTH, legend as draw_legend
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
    """The board with goal rows, walls and pawns, a caption and a legend; ``highlight`` (a move)
    drawn in red."""
    sx, sy = state.sizex, state.sizey
    # The legend grows with the board: a big board is shown scaled down, and its legend with it.
    font = max(13.0, sx * CELL / 34)
    board_w = 2 * MARGIN + sx * CELL
    width = max(board_w, round(LEGEND_WIDTH * font))
    ox = (width - board_w) / 2  # a board narrower than the legend is centred above it
    top = MARGIN + sy * CELL  # the board's bottom edge: the caption and the legend go below

    def px(x: float) -> float:
        return ox + MARGIN + x * CELL

    def py(y: float) -> float:
        return MARGIN + y * CELL

    left = [state.max_obstacles - u for u in state.used]
    # Only what holds for the whole game goes in the legend: its layout, and so the drawing's
    # size, stays the same from frame to frame.
    items = [(_pawn(seat), 1.0, f"{LABELS[seat]}, to reach row {state.goal_row(seat)} (tinted)") for seat in (0, 1)]
    items += [(_wall(COLOURS[seat]), 1.6, f"{LABELS[seat]}'s wall") for seat in (0, 1)]
    if any(placed.owner is None for placed in state.walls):
        items.append((_wall(WALL_COLOUR), 1.6, "initial wall"))
    items.append((f'<circle cx="0.5" cy="0.5" r="0.42" fill="none" stroke="{HIGHLIGHT}" stroke-width="0.12"/>'
                  + _wall(HIGHLIGHT, ' stroke-dasharray="0.25 0.18"', 1.3), 2.9, "last move: step, wall"))
    legend, legend_h = draw_legend(items, 6, top + 2 * font, width - 12, font)
    height = round(top + 2 * font + legend_h + 4)
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
        out.append(f'<text x="{px(0) - 8}" y="{py(y) + CELL / 2 + 4}" text-anchor="end">{y}</text>')

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
    arrived = [seat for seat in (0, 1) if state.pawns[seat][1] == state.goal_row(seat)]
    status = f"{LABELS[arrived[0]]} reached its goal row" if arrived else f"{LABELS[state.turn]} to move"
    caption = f"ply {state.ply}; {status}; walls left: A {left[0]}, B {left[1]}"
    out.append(f'<text x="6" y="{top + 1.4 * font:g}" font-size="{font:g}">{escape(caption)}</text>')
    out.append(legend)
    out.append("</svg>")
    return "".join(out)


def _pawn(seat: int) -> str:
    """A pawn as a legend swatch (unit coordinates)."""
    return (f'<circle cx="0.5" cy="0.5" r="0.5" fill="{COLOURS[seat]}"/><text x="0.5" y="0.8" font-size="0.8" '
            f'text-anchor="middle" fill="#ffffff" font-weight="bold">{LABELS[seat]}</text>')


def _wall(colour: str, extra: str = "", x: float = 0.0) -> str:
    """A wall as a legend swatch (unit coordinates, starting at ``x``)."""
    return (f'<line x1="{x + 0.15:g}" y1="0.5" x2="{x + 1.45:g}" y2="0.5" stroke="{colour}" stroke-width="0.3" '
            f'stroke-linecap="round"{extra}/>')




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
    # Each number centred over its cell's middle character (a row is "Y |" then " c |" per cell).
    lines = [pad + " " + "".join(f"{x:^3} " for x in range(sx)).rstrip()]
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
    drawn = board_text(state, highlight)
    legend = ("\n(=== and #: walls; *: the highlighted move, a step or a wall)"
              if _highlight_key(state, highlight) is not None or isinstance(highlight, Step) else "")
    return (drawn + legend + "\n"
            f"ply {state.ply}: A at {state.pawns[0]} to row {state.goal_row(0)} ({left[0]} walls left), "
            f"B at {state.pawns[1]} to row {state.goal_row(1)} ({left[1]} walls left); "
            f"{LABELS[state.turn]} to move")
