"""Task functions for tests/sandbox/test_door.py: run in the door's child, never in the harness."""

from __future__ import annotations

import os
from typing import Any


def work(item: Any) -> Any:
    """``"spin"`` loops for ever, ``"eat"`` allocates 2 GiB, ``"big"`` returns 1 MiB, ``"raise"``
    fails; anything else comes back as it is."""
    if item == "spin":
        while True:
            pass
    if item == "eat":
        return len(bytearray(2 << 30))
    if item == "big":
        return b"x" * (1 << 20)
    if item == "raise":
        raise RuntimeError("a bug of the task's own")
    return item


def whoami(item: Any) -> dict[str, Any]:
    """What the child may reach: its uid, its open descriptors, its environment, its folder, and
    whether it can read ``item`` (a file outside its import path) or write a file beside it."""
    try:
        with open(item, "rb"):
            read = True
    except OSError:
        read = False
    try:
        with open(item + ".door", "wb"):
            wrote = True
    except OSError:
        wrote = False
    return {"uid": os.getuid(), "fds": sorted(os.listdir("/proc/self/fd")), "env": dict(os.environ),
            "cwd": os.getcwd(), "read": read, "wrote": wrote}
