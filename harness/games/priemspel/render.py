"""A PriemSpel position as SVG: the squares from 0 to the end square, primes marked, the pawn.

Below the track a legend (a ``<g class="legend">``) says what the colours and marks mean.
"""

from __future__ import annotations

from typing import Any

from harness.games.legend import LEGEND_WIDTH, legend as draw_legend
from harness.games.priemspel.rules import State, is_prime

CELL = 28
SQUARE = "#eeeeee"
PRIME = "#f2c14e"
END = "#d1495b"
PAWN = "#2e4057"
FONT = 13
LEGEND_ITEMS: tuple[tuple[str, float, str], ...] = (  # (swatch in unit coordinates, its width, label)
    (f'<rect width="1" height="1" fill="{SQUARE}" stroke="#555555" stroke-width="0.08"/>', 1, "square"),
    (f'<rect width="1" height="1" fill="{PRIME}" stroke="#555555" stroke-width="0.08"/>', 1, "prime"),
    (f'<rect width="1" height="1" fill="{END}" stroke="#555555" stroke-width="0.08"/>', 1, "end square"),
    (f'<circle cx="0.5" cy="0.5" r="0.4" fill="{PAWN}"/>', 1, "pawn"),
    (f'<path d="M0.1 0.9 Q0.8 -0.1 1.5 0.9" fill="none" stroke="{PAWN}" stroke-width="0.12"/>', 1.6, "last jump"),
)


def svg(state: State, highlight: Any = None) -> str:
    """The track with prime squares shaded; ``highlight`` (a step) marks the pawn's last jump."""
    squares = range(0, state.end + 1)
    width = max(CELL * len(squares) + 8, LEGEND_WIDTH * FONT)
    legend, legend_h = draw_legend(LEGEND_ITEMS, 4, CELL * 2 + 8, width - 8, FONT)
    height = round(CELL * 2 + 8 + legend_h + 2)
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
             f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="11">']
    for i in squares:
        x = 4 + i * CELL
        fill = PRIME if is_prime(i) else SQUARE
        if i == state.end:
            fill = END
        parts.append(f'<rect x="{x}" y="4" width="{CELL - 2}" height="{CELL - 2}" fill="{fill}" '
                     f'stroke="#555"/><text x="{x + CELL / 2 - 1}" y="{CELL - 6}" '
                     f'text-anchor="middle">{i}</text>')
    px = 4 + state.position * CELL + CELL / 2 - 1
    parts.append(f'<circle cx="{px}" cy="{CELL + 16}" r="8" fill="{PAWN}"/>')
    if isinstance(highlight, int) and highlight > 0:
        fx = px - highlight * CELL
        parts.append(f'<path d="M{fx} {CELL + 16} Q{(fx + px) / 2} {CELL + 2} {px - 9} {CELL + 14}" '
                     f'fill="none" stroke="{PAWN}" stroke-width="2"/>')
    parts.append(legend)
    parts.append("</svg>")
    return "".join(parts)


