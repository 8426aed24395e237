"""A Človeče position drawn as SVG (reports, replays) or as plain text (terminals).

The board is the seed's figure: an 11 x 11 grid with the 40-cell track around a cross, each
colour's start cell (A) on the track, its four home cells (a-d) in the arm towards the centre
and its stable (B) in the corner next to its start. Black starts at the left arm's top cell
(track index 0) and the track runs clockwise: yellow 10 at the top, green 20 at the right,
red 30 at the bottom. A piece in the stable is drawn on its own stable cell (piece i on cell i).
The SVG's side panel is the legend (the seats' colours; start, home and stable cells; the last
move's rings, in a ``<g class="legend">``), then the turn's dice and the last move in words.
"""

from __future__ import annotations

from typing import Any
from xml.sax.saxutils import escape

from harness.games.clovece.rules import COLORS, HOME, LAST, PLAYERS, STARTS, TRACK, Move, State

CELL = 34
MARGIN = 14
PANEL = 250  # width of the side panel (legend, rolls, last move)
FILLS = ("#2b2b2b", "#e8b90c", "#2a9d48", "#d1392b")  # black, yellow, green, red
INK = ("#ffffff", "#222222", "#ffffff", "#ffffff")  # a piece's label on its fill
HIGHLIGHT = "#1f5fbf"
LETTERS = ("B", "Y", "G", "R")
PLACES = ("1st", "2nd", "3rd", "4th")


def _track() -> list[tuple[int, int]]:
    """The 40 track cells (x, y) in track order from black's start, clockwise."""
    legs = [((0, 4), (1, 0), 4), ((4, 4), (0, -1), 4), ((4, 0), (1, 0), 2), ((6, 0), (0, 1), 4),
            ((6, 4), (1, 0), 4), ((10, 4), (0, 1), 2), ((10, 6), (-1, 0), 4), ((6, 6), (0, 1), 4),
            ((6, 10), (-1, 0), 2), ((4, 10), (0, -1), 4), ((4, 6), (-1, 0), 4), ((0, 6), (0, -1), 2)]
    cells = []
    for (x, y), (dx, dy), n in legs:
        cells.extend((x + k * dx, y + k * dy) for k in range(n))
    return cells


TRACK_CELLS = _track()
HOME_CELLS = (  # positions 40..43 of each colour, from the track towards the centre
    [(1, 5), (2, 5), (3, 5), (4, 5)], [(5, 1), (5, 2), (5, 3), (5, 4)],
    [(9, 5), (8, 5), (7, 5), (6, 5)], [(5, 9), (5, 8), (5, 7), (5, 6)])
STABLE_CELLS = (  # piece i of each colour stands on cell i while in the stable
    [(0, 0), (1, 0), (0, 1), (1, 1)], [(9, 0), (10, 0), (9, 1), (10, 1)],
    [(9, 9), (10, 9), (9, 10), (10, 10)], [(0, 9), (1, 9), (0, 10), (1, 10)])


def cell_of(seat: int, piece: int, position: int | None) -> tuple[int, int] | None:
    """The grid cell of a piece at ``position`` (seen from it); None for an impossible one."""
    if position is None:
        return STABLE_CELLS[seat][piece]
    if 0 <= position < HOME:
        return TRACK_CELLS[(STARTS[seat] + position) % TRACK]
    if HOME <= position <= LAST:
        return HOME_CELLS[seat][position - HOME]
    return None


def _marks(state: State, highlight: Any) -> tuple[tuple[int, int] | None, tuple[int, int] | None, str]:
    """(source cell, target cell, caption) of the move to highlight: the given move if the state
    is the one after it (``state.last``), the attempted move if the state is the one before it
    (a rejected answer), else the previous move."""
    last = state.last
    if isinstance(highlight, Move) and not (last is not None and (last.seat, last.piece, last.target) == highlight):
        seat, piece, target = highlight
        if not (0 <= seat < PLAYERS and 0 <= piece < 4):
            return None, None, ""
        source = state.pieces[seat][piece]
        return (cell_of(seat, piece, source), cell_of(seat, piece, target),
                f"attempted: {COLORS[seat]} piece {piece} {_pos(source)} -> {target}")
    if last is None:
        return None, None, ""
    text = f"last: {COLORS[last.seat]} piece {last.piece} {_pos(last.source)} -> {last.target} with a {last.roll}"
    if last.captured is not None:
        text += f", captured {COLORS[last.captured[0]]} piece {last.captured[1]}"
    return cell_of(last.seat, last.piece, last.source), cell_of(last.seat, last.piece, last.target), text


def _pos(position: int | None) -> str:
    return "stable" if position is None else str(position)


def status_lines(state: State) -> list[str]:
    """Whose decision, the turn's rolls, rolls skipped since the last move, the finishers."""
    lines = []
    if state.over:
        lines.append("game over: " + ("ply cap reached" if state.capped else "everyone is home"))
    else:
        rolls = " ".join(f"[{r}]" if k == state.index else str(r) for k, r in enumerate(state.rolls))
        lines.append(f"{COLORS[state.turn]} to play the {state.roll}; rolls {rolls}")
    if state.skipped:
        lines.append("no move: " + ", ".join(f"{COLORS[s]} {r}" for s, r in state.skipped))
    if state.finished:
        lines.append("finished: " + ", ".join(COLORS[s] for s in state.finished))
    lines.append(f"ply {state.plies} of at most {state.ply_cap}")
    return lines


# ---- SVG ----------------------------------------------------------------------------------
def svg(state: State, highlight: Any = None) -> str:
    """The board, the pieces, the highlighted move, and a panel with the legend and the rolls."""
    size = 11 * CELL + 2 * MARGIN
    width, height = size + PANEL, max(size, 330)

    def centre(cell: tuple[int, int]) -> tuple[float, float]:
        return MARGIN + cell[0] * CELL + CELL / 2, MARGIN + cell[1] * CELL + CELL / 2

    out = [(f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="11">'),
           f'<rect x="0" y="0" width="{width}" height="{height}" fill="#fbf6e9"/>']

    def spot(cell: tuple[int, int], fill: str, opacity: float, extra: str = "") -> None:
        cx, cy = centre(cell)
        out.append(f'<circle cx="{cx}" cy="{cy}" r="{CELL * 0.42:.1f}" fill="{fill}" fill-opacity="{opacity}" '
                   f'stroke="#555555"{extra}/>')

    starts = {TRACK_CELLS[s]: seat for seat, s in enumerate(STARTS)}
    for k, cell in enumerate(TRACK_CELLS):
        if cell in starts:
            spot(cell, FILLS[starts[cell]], 0.55, ' stroke-width="2"')
        else:
            spot(cell, "#ffffff", 1.0)
        cx, cy = centre(cell)
        out.append(f'<text x="{cx}" y="{cy + 3}" text-anchor="middle" font-size="8" fill="#999999">{k}</text>')
    for seat in range(PLAYERS):
        for cell in HOME_CELLS[seat]:
            spot(cell, FILLS[seat], 0.3)
        for cell in STABLE_CELLS[seat]:
            spot(cell, FILLS[seat], 0.15)
    source, target, caption = _marks(state, highlight)
    if source is not None:
        cx, cy = centre(source)
        out.append(f'<circle cx="{cx}" cy="{cy}" r="{CELL * 0.46:.1f}" fill="none" stroke="{HIGHLIGHT}" '
                   f'stroke-width="2" stroke-dasharray="4 3"/>')
    for seat, own in enumerate(state.pieces):
        for piece, position in enumerate(own):
            cell = cell_of(seat, piece, position)
            if cell is None:
                continue
            cx, cy = centre(cell)
            out.append(f'<circle cx="{cx}" cy="{cy}" r="{CELL * 0.3:.1f}" fill="{FILLS[seat]}" stroke="#111111"/>'
                       f'<text x="{cx}" y="{cy + 4}" text-anchor="middle" font-weight="bold" '
                       f'fill="{INK[seat]}">{piece}</text>')
    if target is not None:
        cx, cy = centre(target)
        out.append(f'<circle cx="{cx}" cy="{cy}" r="{CELL * 0.46:.1f}" fill="none" stroke="{HIGHLIGHT}" '
                   f'stroke-width="3"/>')

    x0, y = size + 4, MARGIN + 12
    out.append(f'<text x="{x0}" y="{y}" font-weight="bold" font-size="13">Človeče nehnevaj sa</text>')
    for seat in range(PLAYERS):
        y += 20
        place = f" - {PLACES[state.finished.index(seat)]}" if seat in state.finished else ""
        turn = " (to move)" if not state.over and seat == state.turn else ""
        out.append(f'<circle cx="{x0 + 7}" cy="{y - 4}" r="7" fill="{FILLS[seat]}" stroke="#111111"/>'
                   f'<text x="{x0 + 20}" y="{y}">seat {seat}: {COLORS[seat]}, start {STARTS[seat]}'
                   f'{place}{turn}</text>')
    out.append(_legend(x0, y + 8))
    y += 44
    if not state.over:  # the turn's dice: decided ones grey, the current one framed
        y += 16
        for k, r in enumerate(state.rolls[:10]):
            x = x0 + k * 24
            current = k == state.index
            stroke = HIGHLIGHT if current else "#555555"
            fill = "#ffffff" if k >= state.index else "#dddddd"
            out.append(f'<rect x="{x}" y="{y}" width="20" height="20" rx="4" fill="{fill}" stroke="{stroke}" '
                       f'stroke-width="{3 if current else 1}"/><text x="{x + 10}" y="{y + 14}" '
                       f'text-anchor="middle" font-weight="bold">{r}</text>')
        y += 22
    for line in [caption, *status_lines(state)]:
        if line:
            for part in _wrap(line, 40):
                y += 15
                out.append(f'<text x="{x0}" y="{y}">{escape(part)}</text>')
    out.append("</svg>")
    return "".join(out)


def _legend(x: float, y: float) -> str:
    """Two rows from ``(x, y)`` (the top) naming the cells and the move's marks, drawn as on the
    board (in yellow's colours)."""
    r = CELL * 0.42 / 2  # the board's cells, at half size

    def cell(cx: float, cy: float, opacity: float, extra: str = "") -> str:
        return (f'<circle cx="{cx}" cy="{cy}" r="{r:.1f}" fill="{FILLS[1]}" fill-opacity="{opacity}" '
                f'stroke="#555555"{extra}/>')

    top, bottom = y + 7, y + 27
    return ("".join(['<g class="legend">',
                     cell(x + 7, top, 0.55, ' stroke-width="2"'), f'<text x="{x + 18}" y="{top + 4}">start</text>',
                     cell(x + 62, top, 0.3), f'<text x="{x + 73}" y="{top + 4}">home</text>',
                     cell(x + 118, top, 0.15), f'<text x="{x + 129}" y="{top + 4}">stable</text>',
                     f'<circle cx="{x + 7}" cy="{bottom}" r="{r + 1:.1f}" fill="none" stroke="{HIGHLIGHT}" '
                     f'stroke-width="1.5" stroke-dasharray="3 2"/>',
                     f'<circle cx="{x + 25}" cy="{bottom}" r="{r + 1:.1f}" fill="none" stroke="{HIGHLIGHT}" '
                     f'stroke-width="2"/>',
                     f'<text x="{x + 36}" y="{bottom + 4}">last move: from (dashed), to</text>', "</g>"]))


def _wrap(line: str, width: int) -> list[str]:
    words, parts, current = line.split(" "), [], ""
    for word in words:
        if current and len(current) + 1 + len(word) > width:
            parts.append(current)
            current = "  " + word
        else:
            current = f"{current} {word}" if current else word
    return [*parts, current]


# ---- text ---------------------------------------------------------------------------------
def text(state: State, highlight: Any = None) -> str:
    """The board in ASCII (``B0`` = black piece 0; ``b`` an empty start cell, ``.`` track, ``-``
    home, ``_`` stable; ``[..]`` the move's target, ``<..>`` its source) and the status lines."""
    grid: dict[tuple[int, int], str] = {}
    for k, cell in enumerate(TRACK_CELLS):
        grid[cell] = " ."
    for seat in range(PLAYERS):
        grid[TRACK_CELLS[STARTS[seat]]] = " " + LETTERS[seat].lower()
        for cell in HOME_CELLS[seat]:
            grid[cell] = " -"
        for cell in STABLE_CELLS[seat]:
            grid[cell] = " _"
    for seat, own in enumerate(state.pieces):
        for piece, position in enumerate(own):
            cell = cell_of(seat, piece, position)
            if cell is not None:
                grid[cell] = f"{LETTERS[seat]}{piece}"
    source, target, caption = _marks(state, highlight)
    lines = []
    for y in range(11):
        row = ""
        for x in range(11):
            content = grid.get((x, y), "  ")
            if (x, y) == target:
                row += f"[{content}]"
            elif (x, y) == source:
                row += f"<{content}>"
            else:
                row += f" {content} "
        lines.append(row.rstrip())
    legend = "  ".join(f"{LETTERS[s]} = {COLORS[s]} (seat {s}, start {STARTS[s]})" for s in range(PLAYERS))
    return "\n".join([*lines, legend, *([caption] if caption else []), *status_lines(state)])


__all__ = ["cell_of", "status_lines", "svg", "text"]
