"""What the games' render tests share: an SVG drawing split from its legend."""

from __future__ import annotations

import xml.etree.ElementTree as ET

NS = "{http://www.w3.org/2000/svg}"


def split_legend(svg_text: str) -> tuple[ET.Element, ET.Element]:
    """The drawing without its legend, and the legend (a drawing has exactly one, at its top level)."""
    root = ET.fromstring(svg_text)
    legends = [g for g in root.findall(NS + "g") if g.get("class") == "legend"]
    assert len(legends) == 1, f"{len(legends)} legends"
    root.remove(legends[0])
    return root, legends[0]
