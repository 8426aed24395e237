"""A Blokovanie position drawn as SVG (reports, replays) or as the seed's text (terminals).

Row 0 is at the top, column 0 at the left, as in the seed's printed boards. In the SVG, free
cells are light, blocked ones dark; the highlighted move (the last one) is ringed and the
3x3 block it blocked is outlined. A highlight that is not a cell of the board (a rejected
answer) is not drawn. Below the board: whose move it is (or who won) and a legend (a
``<g class="legend">``).
"""

from __future__ import annotations

from typing import Any
from xml.sax.saxutils import escape

from harness.games.legend import LEGEND_WIDTH, legend as draw_legend
from harness.games.blokovanie.rules import State, is_move

CELL = 32
MARGIN = 26
FREE_FILL = "#f4f1e8"
BLOCKED_FILL = "#5b5f66"
HIGHLIGHT = "#d1495b"
LABELS = ("A", "B")


def _on_board(state: State, move: Any) -> bool:
    return is_move(move) and 0 <= move[0] < state.rows and 0 <= move[1] < state.cols


def svg(state: State, highlight: Any = None) -> str:
    """The board with free and blocked cells, ``highlight`` (a move) marked, a status line and a legend."""
    rows, cols = state.rows, state.cols
    # The legend grows with the board: a big board is shown scaled down, and its legend with it.
    font = max(13.0, cols * CELL / 34)
    board_w = 2 * MARGIN + cols * CELL
    width = max(board_w, 380, round(LEGEND_WIDTH * font))
    ox = (width - board_w) / 2  # a board narrower than the legend is centred above it
    bottom = MARGIN + rows * CELL  # the caption and the legend go below the board
    legend, legend_h = draw_legend(LEGEND_ITEMS, 6, bottom + 2 * font, width - 12, font)
    height = round(bottom + 2 * font + legend_h + 4)

    def px(c: float) -> float:
        return ox + MARGIN + c * CELL

    def py(r: float) -> float:
        return MARGIN + r * CELL

    out = [(f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="11">'),
           f'<rect x="0" y="0" width="{width}" height="{height}" fill="#ffffff"/>']
    for c in range(cols):
        out.append(f'<text x="{px(c) + CELL / 2}" y="{MARGIN - 8}" text-anchor="middle">{c}</text>')
    for r in range(rows):
        out.append(f'<text x="{px(0) - 6}" y="{py(r) + CELL / 2 + 4}" text-anchor="end">{r}</text>')
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
    out.append(f'<text x="6" y="{bottom + 1.4 * font:g}" font-size="{font:g}">{escape(status)}</text>')
    out.append(legend)
    out.append("</svg>")
    return "".join(out)


LEGEND_ITEMS: tuple[tuple[str, float, str], ...] = (  # (swatch in unit coordinates, its width, label)
    (f'<rect width="1" height="1" fill="{FREE_FILL}" stroke="#999999" stroke-width="0.08"/>', 1, "free"),
    (f'<rect width="1" height="1" fill="{BLOCKED_FILL}"/>', 1, "blocked"),
    (f'<circle cx="0.5" cy="0.5" r="0.38" fill="none" stroke="{HIGHLIGHT}" stroke-width="0.16"/>', 1, "last move"),
    (f'<rect x="0.05" y="0.05" width="0.9" height="0.9" fill="none" stroke="{HIGHLIGHT}" stroke-width="0.1" '
     f'stroke-dasharray="0.2 0.12"/>', 1, "the cells it blocked"),
)


def text(state: State, highlight: Any = None) -> str:
    """The board exactly as the seed prints it: rows of ``-`` (free) and ``X`` (blocked), nothing else.

    ``highlight`` is accepted for the contract and not drawn: the seed's drawing has no mark for it.
    """
    return "\n".join(state.lines())
