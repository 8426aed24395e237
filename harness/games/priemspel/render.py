"""A PriemSpel position as SVG: the squares from 0 to the end square, primes marked, the pawn."""

from __future__ import annotations

from typing import Any

from harness.games.priemspel.rules import State, is_prime

CELL = 28


def svg(state: State, highlight: Any = None) -> str:
    """The track with prime squares shaded; ``highlight`` (a step) marks the pawn's last jump."""
    squares = range(0, state.end + 1)
    width = CELL * len(squares) + 8
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{CELL * 2 + 8}" '
             f'viewBox="0 0 {width} {CELL * 2 + 8}" font-family="sans-serif" font-size="11">']
    for i in squares:
        x = 4 + i * CELL
        fill = "#f2c14e" if is_prime(i) else "#eeeeee"
        if i == state.end:
            fill = "#d1495b"
        parts.append(f'<rect x="{x}" y="4" width="{CELL - 2}" height="{CELL - 2}" fill="{fill}" '
                     f'stroke="#555"/><text x="{x + CELL / 2 - 1}" y="{CELL - 6}" '
                     f'text-anchor="middle">{i}</text>')
    px = 4 + state.position * CELL + CELL / 2 - 1
    parts.append(f'<circle cx="{px}" cy="{CELL + 16}" r="8" fill="#2e4057"/>')
    if isinstance(highlight, int) and highlight > 0:
        fx = px - highlight * CELL
        parts.append(f'<path d="M{fx} {CELL + 16} Q{(fx + px) / 2} {CELL + 2} {px - 9} {CELL + 14}" '
                     f'fill="none" stroke="#2e4057" stroke-width="2"/>')
    parts.append("</svg>")
    return "".join(parts)
