"""Bots never run as root: where the harness does, each bot drops to a uid of its own.

Under bubblewrap the sandbox is built as root and ``setpriv`` then drops the bot to its uid
with no capabilities, no supplementary groups, an empty bounding set and ``no_new_privs``
(:func:`setpriv_prefix`). Without bubblewrap (plain mode) the process is started as that uid
directly, which works only where an ordinary user can read the interpreter and the files the
worker runs (:func:`plain_obstacle`); where it cannot (e.g. a Python installed under
``/root``), :func:`harness.sandbox.container.bot_python` finds one it can or refuses to play.

Each bot gets a uid of its own, from a range no account uses, so two bots can never signal,
trace or read each other's processes even without a PID namespace.
"""

from __future__ import annotations

import os
import secrets
import shutil
import stat
from collections.abc import Iterable
from pathlib import Path

class IsolationUnavailable(RuntimeError):
    """The isolation a bot needs cannot be had here: the bot is not started (``harness_error``)."""


UID_BASE = 0x7E000000  # 2113929216: far above any account's uid, below 2**31
UID_SPAN = 1 << 24


def is_root() -> bool:
    """True if the harness runs as root (the only case where bots are dropped)."""
    return hasattr(os, "geteuid") and os.geteuid() == 0


def pick_uid() -> int:
    """A fresh uid (also used as the gid) for one bot."""
    return UID_BASE + secrets.randbelow(UID_SPAN)


def setpriv() -> str | None:
    """The ``setpriv`` executable (util-linux), if installed."""
    return shutil.which("setpriv")


def setpriv_prefix(exe: str, uid: int) -> list[str]:
    """The command that drops to ``uid`` for good before it runs the rest of the command line."""
    return [exe, f"--reuid={uid}", f"--regid={uid}", "--clear-groups", "--inh-caps=-all", "--bounding-set=-all",
            "--no-new-privs", "--"]


def _unreadable(path: str) -> str | None:
    """Why an ordinary user cannot reach ``path`` (every folder above it searchable, it readable)."""
    path = os.path.abspath(path)
    parts = Path(path).parents
    for folder in reversed(parts):
        try:
            mode = os.stat(folder).st_mode
        except OSError as exc:
            return f"{folder}: {exc.strerror}"
        if not mode & stat.S_IXOTH:
            return f"{folder} is not searchable by other users"
    try:
        mode = os.stat(path).st_mode
    except OSError as exc:
        return f"{path}: {exc.strerror}"
    needed = stat.S_IROTH | (stat.S_IXOTH if stat.S_ISDIR(mode) else 0)
    if mode & needed != needed:
        return f"{path} is not readable by other users"
    return None


def plain_obstacle(paths: Iterable[str]) -> str | None:
    """Why a plain-mode bot cannot drop to another uid here, or ``None`` if it can."""
    if not is_root():
        return None
    for path in paths:
        why = _unreadable(path)
        if why is not None:
            return why
    return None


def share_with(uid: int, root: Path, code: Path, work: Path) -> None:
    """Let ``uid`` read the bot's code and write its working folder (plain mode); root keeps the rest.

    ``root`` (made by ``mkdtemp``, mode 0700) becomes searchable but not listable; the harness,
    as root, still deletes everything in it after the game.
    """
    os.chmod(root, 0o711)
    os.chmod(code, 0o755)
    for entry in code.iterdir():  # regular files the harness wrote itself, and their __pycache__
        os.chmod(entry, 0o755 if entry.is_dir() else 0o644)
    os.chown(work, uid, uid)
    os.chmod(work, 0o700)


__all__ = ["UID_BASE", "IsolationUnavailable", "is_root", "pick_uid", "plain_obstacle", "setpriv", "setpriv_prefix", "share_with"]
