"""Bot text is data: cleaning what a bot wrote before it reaches a record, a terminal, a file or a CSV.

Every string that came from a bot's process (its name, the reason built from its exception,
its output, its answer) may have been chosen to hurt whoever reads it:

* invalid Unicode (a lone surrogate, which ``json.loads`` accepts from ``"\\ud800"``) makes every
  later ``print`` or ``write_text`` fail with ``UnicodeEncodeError``;
* C0/C1 control characters are terminal commands (clear the screen, retitle the window, move
  the cursor over a line already printed), and a bidirectional override reorders what follows;
* a CSV cell starting with ``=``, ``+``, ``-`` or ``@`` is a formula to a spreadsheet.

:func:`valid` makes text encodable, :func:`block` (multi-line text: output, tracebacks) and
:func:`line` (one line: a name, a reason in a table) also show control characters escaped, as
``\\x1b`` or ``\\u202e``, and :func:`cell` guards a CSV cell. Each is idempotent, so cleaning a
record at the boundary and again at an output changes nothing the second time.
"""

from __future__ import annotations

from typing import Any

# C0 controls, DEL and C1 controls, and the invisible formatting characters that reorder or hide
# text on a terminal (bidirectional embeddings, overrides and isolates; Trojan Source).
_CONTROLS = [*range(0x00, 0x20), *range(0x7F, 0xA0), 0x061C, 0x200E, 0x200F, *range(0x202A, 0x202F),
             *range(0x2066, 0x206A)]
# str.translate tables (a flood of escapes from a bot costs one C loop, not a Python call each)
_LINE = {c: f"\\x{c:02x}" if c <= 0xFF else f"\\u{c:04x}" for c in _CONTROLS}
_BLOCK = {c: e for c, e in _LINE.items() if c not in (0x09, 0x0A)}  # keeps the tab and the newline
_FORMULA = ("=", "+", "-", "@")


def valid(text: str) -> str:
    """``text`` with every lone surrogate replaced by U+FFFD (a surrogate pair becomes its character)."""
    try:
        text.encode("utf-8")
        return text
    except UnicodeEncodeError:
        # Through UTF-16 a pair "\ud83d\ude00" (how JSON escapes an emoji) is joined; a lone one is not.
        return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")


def line(text: Any) -> str:
    """One line for a terminal, a file or a CSV cell: valid, every control character shown escaped
    (newlines too, so a bot cannot start a row of its own)."""
    return valid(str(text)).translate(_LINE)


def block(text: Any) -> str:
    """Multi-line text (a bot's output, a traceback): valid, and every control character but the
    newline and the tab shown escaped (a carriage return too: it would overwrite a line)."""
    return valid(str(text)).translate(_BLOCK)


def cell(text: Any) -> str:
    """A CSV cell of text for a spreadsheet: :func:`line`, and a leading ``=``, ``+``, ``-`` or ``@``
    quoted with ``'`` so the spreadsheet shows it instead of evaluating it (OWASP's advice)."""
    cleaned = line(text)
    return "'" + cleaned if cleaned.startswith(_FORMULA) else cleaned


def data(value: Any) -> Any:
    """JSON-like data (a bot's raw answer) with every string in it cleaned by :func:`block`."""
    if isinstance(value, str):
        return block(value)
    if isinstance(value, (list, tuple)):
        return [data(v) for v in value]
    if isinstance(value, dict):
        return {block(str(k)): data(v) for k, v in value.items()}
    return value


__all__ = ["block", "cell", "data", "line", "valid"]
