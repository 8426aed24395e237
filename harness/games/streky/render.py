"""A Štreky position as SVG (reports, replays) and as plain text (terminals).

Colours follow the course's drawing code and the seed's names: 1 dark brown ``#636940``,
2 green ``#59A96A``, 3 yellow ``#FFDD4A``, 4 orange ``#FE9000``; a card's colour-0 cells are
light grey ``#CCCCCC``; empty board cells are white. Cards get a thin outline (``#CD853F``) and
a pink dot on their top-left (anchor) cell. A highlighted move already on the board gets a thick
magenta frame; a move that is not on the board (e.g. the one a referee rejected) is drawn
translucent on top, with a dashed red frame.
"""

from __future__ import annotations

from typing import Any
from xml.sax.saxutils import escape

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
    """The board with every placed card; ``highlight`` (a move) framed or drawn on top."""
    pad, caption = 6, 22
    width, height = state.cols * cell + 2 * pad, state.rows * cell + 2 * pad + caption
    out = [(f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="12">'),
           f'<rect x="{pad}" y="{pad}" width="{state.cols * cell}" height="{state.rows * cell}" fill="{EMPTY}"/>']
    for p in state.placed:
        out.extend(_card(p.row, p.col, p.matrix, cell, pad))
    for r in range(state.rows + 1):
        out.append(f'<line x1="{pad}" y1="{pad + r * cell}" x2="{pad + state.cols * cell}" '
                   f'y2="{pad + r * cell}" stroke="{GRID}" stroke-width="0.5"/>')
    for c in range(state.cols + 1):
        out.append(f'<line x1="{pad + c * cell}" y1="{pad}" x2="{pad + c * cell}" '
                   f'y2="{pad + state.rows * cell}" stroke="{GRID}" stroke-width="0.5"/>')
    for p in state.placed:
        out.append(_frame(p.row, p.col, len(p.matrix), len(p.matrix[0]), cell, pad, OUTLINE, 1.5))
    move = as_place(highlight)
    if move is not None:
        h, w = len(move.matrix), len(move.matrix[0])
        if _on_board(state, move):
            out.append(_frame(move.row, move.col, h, w, cell, pad, FRAME, 4))
        else:
            out.append('<g opacity="0.65">')
            out.extend(_card(move.row, move.col, move.matrix, cell, pad))
            out.append("</g>")
            out.append(_frame(move.row, move.col, h, w, cell, pad, REJECTED, 3, dashed=True))
    a, b = state.points
    text = f"ply {state.ply}, score {a} : {b}" + ("" if state.passes < 2 else ", game over")
    out.append(f'<text x="{pad}" y="{height - 7}">{escape(text)}</text>')
    out.append("</svg>")
    return "\n".join(out)


def _card(row: int, col: int, matrix: tuple[tuple[int, ...], ...], cell: int, pad: int) -> list[str]:
    parts = []
    for dr, line in enumerate(matrix):
        for dc, value in enumerate(line):
            parts.append(f'<rect x="{pad + (col + dc) * cell}" y="{pad + (row + dr) * cell}" width="{cell}" '
                         f'height="{cell}" fill="{PALETTE.get(value, "#000000")}"/>')
    parts.append(f'<circle cx="{pad + col * cell + cell / 2}" cy="{pad + row * cell + cell / 2}" '
                 f'r="{cell / 6:g}" fill="{ANCHOR}"/>')
    return parts


def _frame(row: int, col: int, h: int, w: int, cell: int, pad: int, colour: str, stroke: float,
           dashed: bool = False) -> str:
    dash = ' stroke-dasharray="6 4"' if dashed else ""
    return (f'<rect x="{pad + col * cell}" y="{pad + row * cell}" width="{w * cell}" height="{h * cell}" '
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
    # A column number every fifth column (tests/check pins this layout).
    header = "    " + "".join(f"{c:<2d}"[-2:] if c % 5 == 0 else "  " for c in range(state.cols))
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
    return "\n".join(lines)
