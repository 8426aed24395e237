"""What every page of the report shares: the Jinja environment, inlined assets, safe JSON.

Pages are self-contained files (no server, no network): the style sheet and the scripts are
inlined, and each page carries a Content-Security-Policy that allows exactly those inlined
scripts and styles (by their SHA-256), images from ``data:`` URLs, and nothing else. So even
if some bot output slipped through escaping, it could neither run a script nor load anything.
"""

from __future__ import annotations

import base64
import hashlib
import json
import math
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import jinja2
from markupsafe import Markup

from harness import __version__

TEMPLATES = Path(__file__).with_name("templates")
STATIC = Path(__file__).with_name("static")


@dataclass(frozen=True)
class Asset:
    """A style sheet or script inlined into pages, with the CSP source that allows it."""

    text: Markup
    source: str  # e.g. "'sha256-...'" for the page's Content-Security-Policy


@cache
def asset(name: str) -> Asset:
    """The file ``static/<name>``, ready to inline verbatim into a ``<style>`` or ``<script>``."""
    text = (STATIC / name).read_text(encoding="utf-8")
    digest = base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode()
    return Asset(Markup(text), f"'sha256-{digest}'")


def content_security_policy(scripts: list[str], styles: list[str]) -> str:
    """The CSP of a page that inlines the named assets and shows ``data:`` images only."""
    script_src = " ".join(asset(s).source for s in scripts) or "'none'"
    style_src = " ".join(asset(s).source for s in styles) or "'none'"
    return (f"default-src 'none'; img-src data:; style-src {style_src}; script-src {script_src}; "
            "base-uri 'none'; form-action 'none'")


def script_json(value: Any) -> Markup:
    """``value`` as JSON that is safe inside ``<script type="application/json">``.

    ``<``, ``>`` and ``&`` are written as ``\\u`` escapes, so no string in it (bot output
    included) can close the script element or open another one; ``JSON.parse`` restores them.
    """
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False, default=str)
    text = text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    return Markup(text)


def seconds(value: float | None) -> str:
    """A duration for people: ``"3.2 ms"``, ``"1.25 s"``, or ``"-"`` when unknown."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "-"
    return f"{value * 1000:.1f} ms" if value < 1 else f"{value:.2f} s"


def number(value: Any) -> str:
    """A score or point count without needless decimals (``1``, ``0.5``, ``12.25``)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return str(value)
    return f"{value:g}" if abs(value) < 1e6 else f"{value:.0f}"


@cache
def environment() -> jinja2.Environment:
    """The one Jinja environment of the report: autoescaping on, templates compiled once."""
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(TEMPLATES), autoescape=True,
                             undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True)
    env.filters["seconds"] = seconds
    env.filters["number"] = number
    env.globals["asset"] = asset
    env.globals["csp"] = content_security_policy
    env.globals["version"] = __version__
    return env


def write_page(path: Path, html: str) -> None:
    """Write a page as UTF-8; characters UTF-8 cannot hold (lone surrogates from a bot) become ``?``."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(html, encoding="utf-8", errors="replace")
