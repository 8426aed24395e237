"""A Blokovanie position drawn as SVG (reports, replays) or as the seed's text (terminals).

Row 0 is at the top, column 0 at the left, as in the seed's printed boards. In the SVG, free
cells are light, blocked ones dark; the highlighted move (the last one) is ringed and the
3x3 block it blocked is outlined. A highlight that is not a cell of the board (a rejected
answer) is not drawn.
"""

from __future__ import annotations

from typing import Any
from xml.sax.saxutils import escape

from harness.games.blokovanie.rules import State, is_move

CELL = 32
MARGIN = 26
LEGEND = 24
FREE_FILL = "#f4f1e8"
BLOCKED_FILL = "#5b5f66"
HIGHLIGHT = "#d1495b"
LABELS = ("A", "B")


def _on_board(state: State, move: Any) -> bool:
    return is_move(move) and 0 <= move[0] < state.rows and 0 <= move[1] < state.cols


def svg(state: State, highlight: Any = None) -> str:
    """The board with free and blocked cells, ``highlight`` (a move) marked, and a legend."""
    rows, cols = state.rows, state.cols
    width = max(2 * MARGIN + cols * CELL, 380)
    height = 2 * MARGIN + rows * CELL + LEGEND

    def px(c: float) -> float:
        return MARGIN + c * CELL

    def py(r: float) -> float:
        return MARGIN + r * CELL

    out = [(f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="11">'),
           f'<rect x="0" y="0" width="{width}" height="{height}" fill="#ffffff"/>']
    for c in range(cols):
        out.append(f'<text x="{px(c) + CELL / 2}" y="{MARGIN - 8}" text-anchor="middle">{c}</text>')
    for r in range(rows):
        out.append(f'<text x="{MARGIN - 6}" y="{py(r) + CELL / 2 + 4}" text-anchor="end">{r}</text>')
    for r, line in enumerate(state.lines()):
        for c, ch in enumerate(line):
            fill = FREE_FILL if ch == "-" else BLOCKED_FILL
            out.append(f'<rect x="{px(c)}" y="{py(r)}" width="{CELL}" height="{CELL}" fill="{fill}" '
                       f'stroke="#999999"/>')
    if _on_board(state, highlight):
        r, c = highlight
        r0, c0 = max(0, r - 1), max(0, c - 1)
        r1, c1 = min(rows, r + 2), min(cols, c + 2)
        out.append(f'<rect x="{px(c0)}" y="{py(r0)}" width="{(c1 - c0) * CELL}" height="{(r1 - r0) * CELL}" '
                   f'fill="none" stroke="{HIGHLIGHT}" stroke-width="2" stroke-dasharray="5 3"/>')
        out.append(f'<circle cx="{px(c) + CELL / 2}" cy="{py(r) + CELL / 2}" r="{CELL * 0.3}" fill="none" '
                   f'stroke="{HIGHLIGHT}" stroke-width="3"/>')
    free = len(state.free_cells())
    status = f"{free} free" + ("" if free else f"; {LABELS[1 - state.turn]} won")
    if free:
        status += f"; {LABELS[state.turn]} to move"
    y = height - 10
    out.append(f'<rect x="{MARGIN}" y="{y - 10}" width="12" height="12" fill="{FREE_FILL}" stroke="#999999"/>'
               f'<text x="{MARGIN + 16}" y="{y}">free</text>'
               f'<rect x="{MARGIN + 48}" y="{y - 10}" width="12" height="12" fill="{BLOCKED_FILL}"/>'
               f'<text x="{MARGIN + 64}" y="{y}">blocked</text>'
               f'<circle cx="{MARGIN + 124}" cy="{y - 4}" r="6" fill="none" stroke="{HIGHLIGHT}" '
               f'stroke-width="2"/><text x="{MARGIN + 134}" y="{y}">last move</text>'
               f'<text x="{MARGIN + 194}" y="{y}">{escape(status)}</text>')
    out.append("</svg>")
    return "".join(out)


def text(state: State, highlight: Any = None) -> str:
    """The board exactly as the seed prints it: rows of ``-`` (free) and ``X`` (blocked), nothing else.

    ``highlight`` is accepted for the contract and not drawn: the seed's drawing has no mark for it.
    """
    return "\n".join(state.lines())
