"""The legend every game's SVG drawing carries: swatches and labels flowed into rows.

Shared by the games' renderers (a drawing draws its own legend, so the legend shows wherever
the drawing does). Sizes are in font sizes, so a legend grows with the board it explains.
"""

from __future__ import annotations

from collections.abc import Sequence
from xml.sax.saxutils import escape

LEGEND_WIDTH = 30  # the narrowest drawing, in font sizes (a small board's legend needs room)
CHAR = 0.52  # a character's width in font sizes, generous for sans-serif: labels must not run off

# One item: (a swatch drawn in unit coordinates, its width in units, its label); a unit is the font size.
Item = tuple[str, float, str]


def legend(items: Sequence[Item], x0: float, y0: float, width: float, font: float) -> tuple[str, float]:
    """The legend as one ``<g class="legend">``: each item's swatch (``units`` wide and one high)
    and label, flowed into rows that fit ``width`` from ``(x0, y0)``; returns it and its height."""
    row = 1.5 * font
    x, y = x0, y0
    parts = [f'<g class="legend" font-size="{font:g}">']
    for swatch, units, label in items:
        w = (units + 0.4 + CHAR * len(label)) * font
        if x > x0 and x + w > x0 + width:
            x, y = x0, y + row
        parts.append(f'<g transform="translate({x:.1f} {y:.1f}) scale({font:g})">{swatch}</g>'
                     f'<text x="{x + (units + 0.4) * font:.1f}" y="{y + 0.85 * font:.1f}">{escape(label)}</text>')
        x += w + font
    parts.append("</g>")
    return "".join(parts), y + row - y0


__all__ = ["CHAR", "LEGEND_WIDTH", "Item", "legend"]
