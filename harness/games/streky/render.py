"""A Štreky position as SVG (reports, replays) and as plain text (terminals).

Colours follow the course's drawing code and the seed's names: 1 dark brown ``#636940``,
2 green ``#59A96A``, 3 yellow ``#FFDD4A``, 4 orange ``#FE9000``; a card's colour-0 cells are
light grey ``#CCCCCC``; empty board cells are white. Cards get a thin outline (``#CD853F``) and
a pink dot on their top-left (anchor) cell. A highlighted move already on the board gets a thick
magenta frame; a move that is not on the board (e.g. the one a referee rejected) is drawn
translucent on top, with a dashed red frame. Below the board: its size, the ply and the score,
and a legend of all this (in a ``<g class="legend">``).
"""

from __future__ import annotations

from typing import Any
from xml.sax.saxutils import escape

from harness.games.legend import LEGEND_WIDTH, legend as draw_legend
from harness.games.streky.cards import as_matrix
from harness.games.streky.placements import Place
from harness.games.streky.rules import State

PALETTE = {0: "#CCCCCC", 1: "#636940", 2: "#59A96A", 3: "#FFDD4A", 4: "#FE9000"}
EMPTY = "#FFFFFF"
GRID = "#ADACB5"
OUTLINE = "#CD853F"
ANCHOR = "#F8C8DC"
FRAME = "#E6007E"
REJECTED = "#D0021B"


def as_place(move: Any) -> Place | None:
    """A highlight as a :class:`Place`: a Place, or ``[row, col, matrix]`` as in records; else None."""
    if isinstance(move, Place):
        return move
    if isinstance(move, (list, tuple)) and len(move) == 3 and all(type(v) is int for v in move[:2]):
        try:
            matrix = as_matrix(move[2])
        except TypeError:
            return None
        if matrix and matrix[0] and all(len(r) == len(matrix[0]) for r in matrix):
            return Place(move[0], move[1], matrix)
    return None


def _on_board(state: State, move: Place) -> bool:
    return any(p.row == move.row and p.col == move.col and p.matrix == move.matrix for p in state.placed)


def svg(state: State, highlight: Any = None, cell: int = 20) -> str:
    """The board with every placed card, a caption (board size, ply, score) and a legend;
    ``highlight`` (a move) framed or drawn on top."""
    pad = 6
    board_w, board_h = state.cols * cell, state.rows * cell
    # The legend grows with the board: a big board is shown scaled down, and its legend with it.
    font = max(13.0, board_w / 34)
    width = max(board_w + 2 * pad, round(LEGEND_WIDTH * font))
    x0, y0 = (width - board_w) / 2, pad  # the board's corner (narrower than the legend: centred)
    legend, legend_h = draw_legend(_LEGEND_ITEMS, pad, pad + board_h + 2.0 * font, width - 2 * pad, font)
    height = round(pad + board_h + 2.0 * font + legend_h + pad)
    out = [(f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="{font:g}">'),
           f'<rect x="{x0:g}" y="{y0}" width="{board_w}" height="{board_h}" fill="{EMPTY}"/>']
    for p in state.placed:
        out.extend(_card(p.row, p.col, p.matrix, cell, x0, y0))
    for r in range(state.rows + 1):
        out.append(f'<line x1="{x0:g}" y1="{y0 + r * cell}" x2="{x0 + board_w:g}" '
                   f'y2="{y0 + r * cell}" stroke="{GRID}" stroke-width="0.5"/>')
    for c in range(state.cols + 1):
        out.append(f'<line x1="{x0 + c * cell:g}" y1="{y0}" x2="{x0 + c * cell:g}" '
                   f'y2="{y0 + board_h}" stroke="{GRID}" stroke-width="0.5"/>')
    for p in state.placed:
        out.append(_frame(p.row, p.col, len(p.matrix), len(p.matrix[0]), cell, x0, y0, OUTLINE, 1.5))
    move = as_place(highlight)
    if move is not None:
        h, w = len(move.matrix), len(move.matrix[0])
        if _on_board(state, move):
            out.append(_frame(move.row, move.col, h, w, cell, x0, y0, FRAME, 4))
        else:
            out.append('<g opacity="0.65">')
            out.extend(_card(move.row, move.col, move.matrix, cell, x0, y0))
            out.append("</g>")
            out.append(_frame(move.row, move.col, h, w, cell, x0, y0, REJECTED, 3, dashed=True))
    a, b = state.points
    # The board's real size: with random cards the deal draws it, and the settings do not say it.
    text = (f"board {state.rows} \u00d7 {state.cols}, ply {state.ply}, score {a} : {b}"
            + ("" if state.passes < 2 else ", game over"))
    out.append(f'<text x="{pad}" y="{pad + board_h + 1.4 * font:g}">{escape(text)}</text>')
    out.append(legend)
    out.append("</svg>")
    return "\n".join(out)


# The legend's items: (swatch drawn in unit coordinates, its width in units, label). A unit is
# the legend's font size; a swatch sits in the box from (0, 0) to (width, 1).
_LEGEND_ITEMS: tuple[tuple[str, float, str], ...] = (
    ("".join(f'<rect x="{k * 1.15:g}" y="0" width="1" height="1" fill="{PALETTE[k + 1]}"/>'
             f'<text x="{k * 1.15 + 0.5:g}" y="0.8" font-size="0.8" text-anchor="middle" '
             f'fill="{"#ffffff" if k == 0 else "#222222"}">{k + 1}</text>' for k in range(4)),
     4.45, "colours 1-4"),
    (f'<rect width="1" height="1" fill="{PALETTE[0]}"/><text x="0.5" y="0.8" font-size="0.8" '
     f'text-anchor="middle" fill="#222222">0</text>', 1, "colour 0 (never joins a region)"),
    (f'<rect width="1" height="1" fill="{EMPTY}" stroke="{GRID}" stroke-width="0.08"/>', 1, "empty"),
    (f'<rect width="1" height="1" fill="{PALETTE[2]}" stroke="{OUTLINE}" stroke-width="0.1"/>'
     f'<circle cx="0.5" cy="0.5" r="0.2" fill="{ANCHOR}"/>', 1, "a card, dot on its top-left cell"),
    (f'<rect x="0.1" y="0.1" width="0.8" height="0.8" fill="none" stroke="{FRAME}" stroke-width="0.2"/>',
     1, "last card"),
    (f'<rect x="0.1" y="0.1" width="0.8" height="0.8" fill="{PALETTE[4]}" fill-opacity="0.65" stroke="{REJECTED}" '
     f'stroke-width="0.15" stroke-dasharray="0.3 0.2"/>', 1, "rejected card"),
)


def _card(row: int, col: int, matrix: tuple[tuple[int, ...], ...], cell: int, x0: float, y0: float) -> list[str]:
    parts = []
    for dr, line in enumerate(matrix):
        for dc, value in enumerate(line):
            parts.append(f'<rect x="{x0 + (col + dc) * cell:g}" y="{y0 + (row + dr) * cell:g}" width="{cell}" '
                         f'height="{cell}" fill="{PALETTE.get(value, "#000000")}"/>')
    parts.append(f'<circle cx="{x0 + col * cell + cell / 2:g}" cy="{y0 + row * cell + cell / 2:g}" '
                 f'r="{cell / 6:g}" fill="{ANCHOR}"/>')
    return parts


def _frame(row: int, col: int, h: int, w: int, cell: int, x0: float, y0: float, colour: str, stroke: float,
           dashed: bool = False) -> str:
    dash = ' stroke-dasharray="6 4"' if dashed else ""
    return (f'<rect x="{x0 + col * cell:g}" y="{y0 + row * cell:g}" width="{w * cell}" height="{h * cell}" '
            f'fill="none" stroke="{colour}" stroke-width="{stroke:g}"{dash}/>')


def text(state: State, highlight: Any = None) -> str:
    """The board as text: ``.`` empty, ``0``..``4`` card cells; the highlighted move's cells are
    marked ``*`` (or ``!`` where they overlap a placed card)."""
    move = as_place(highlight)
    marks: dict[tuple[int, int], str] = {}
    fresh = move is not None and not _on_board(state, move)
    if move is not None:
        for dr, line in enumerate(move.matrix):
            for dc, value in enumerate(line):
                r, c = move.row + dr, move.col + dc
                if 0 <= r < state.rows and 0 <= c < state.cols:
                    clash = fresh and state.ply_at[r * state.cols + c] > 0
                    marks[(r, c)] = ("!" if clash else "*") + str(value)
    # A column number every fifth column, its last digit above the cell's value (tests/check pins this layout).
    header = "    " + "".join(f"{c:>2d}"[-2:] if c % 5 == 0 else "  " for c in range(state.cols))
    lines = [header.rstrip()]
    for r in range(state.rows):
        cells = []
        for c in range(state.cols):
            if (r, c) in marks:
                cells.append(marks[(r, c)])
            else:
                v = state.colour[r * state.cols + c]
                cells.append(" ." if v < 0 else f" {v}")
        lines.append(f"{r:3d} " + "".join(cells))
    a, b = state.points
    lines.append(f"ply {state.ply}, score {a} : {b}")
    if move is not None:
        off = [(move.row + dr, move.col + dc) for dr in range(len(move.matrix)) for dc in range(len(move.matrix[0]))
               if not (0 <= move.row + dr < state.rows and 0 <= move.col + dc < state.cols)]
        note = f"{len(off)} of its cells lie off the board" if off else ""
        lines.append(f"highlighted: [{move.row}, {move.col}, ...] {note}".rstrip())
        legend = "*N: a cell of the highlighted card, colour N"
        if any(m.startswith("!") for m in marks.values()):
            legend += "; !N: on a placed card"
        lines.append(f"({legend})")
    return "\n".join(lines)
