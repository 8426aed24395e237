"""What a killed harness leaves behind, and its removal by the next one.

A harness killed with ``kill -9`` cannot clean up: its bots' temporary folders
(``harness-bot-<owner pid>-*``), its folder of compiled bot-side files
(``harness-lib-<owner pid>-*``, :mod:`harness.sandbox.botside`) and cgroups (``harness-<owner pid>-*``) stay. Both carry the
owner's pid, so a later harness can tell them from those of a harness still running.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

from harness.sandbox.remove import remove_or_report

DIR_PREFIX = "harness-bot-"
LIB_PREFIX = "harness-lib-"  # harness.sandbox.botside's folders


def owner_alive(pid: int) -> bool:
    """True if process ``pid`` exists and is not a zombie (a killed owner may linger as one)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return True  # no /proc (macOS): trust kill(0)


def sweep_stale_dirs() -> int:
    """Delete the bots' temporary folders (and bot-side files) whose owning harness is gone; how many.

    Never raises: what cannot be removed (a mount, a flag it cannot clear) is one line on
    stderr per folder, and the run goes on (a bot's leftovers never cost a later game).
    """
    removed = 0
    root = tempfile.gettempdir()
    try:
        names = os.listdir(root)
    except OSError as exc:
        print(f"harness: warning: cannot list {root} for leftovers of killed harnesses ({exc})", file=sys.stderr)
        return 0
    for name in names:
        parts = name.split("-")
        if not name.startswith((DIR_PREFIX, LIB_PREFIX)) or len(parts) < 4 or not parts[2].isdigit():
            continue
        try:
            if owner_alive(int(parts[2])):
                continue  # its folder is in use
            remove_or_report(os.path.join(root, name))
        except Exception as exc:  # noqa: BLE001 - a leftover must never stop a run
            print(f"harness: warning: cannot remove {os.path.join(root, name)} ({exc})", file=sys.stderr)
            continue
        removed += 1
    return removed


__all__ = ["DIR_PREFIX", "LIB_PREFIX", "owner_alive", "sweep_stale_dirs"]
