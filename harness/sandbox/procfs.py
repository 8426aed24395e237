"""What Linux's /proc says about a bot's processes: its children, its tree, whether it is stopped."""

from __future__ import annotations

import os


def children(pid: int) -> list[int]:
    """``pid``'s children, from /proc/<pid>/task/*/children, else from every process's parent."""
    try:
        kids = []
        for tid in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{tid}/children") as f:
                kids += [int(x) for x in f.read().split()]
        return kids
    except FileNotFoundError:  # a kernel without CONFIG_PROC_CHILDREN: scan the table
        kids = []
        for entry in os.listdir("/proc"):
            try:
                with open(f"/proc/{entry}/stat") as f:
                    if entry.isdigit() and int(f.read().rsplit(")", 1)[1].split()[1]) == pid:
                        kids.append(int(entry))
            except (OSError, ValueError, IndexError):
                continue
        return kids
    except (OSError, ValueError):
        return []


def tree(root: int) -> list[int]:
    """``root`` and its descendants, parents first (Linux /proc; just ``root`` elsewhere)."""
    found, i = [root], 0
    while i < len(found) and os.path.isdir("/proc"):
        found += children(found[i])
        i += 1
    return found


def clock_threads(pid: int) -> frozenset[int]:
    """The worker ``pid``'s threads other than its main one (the bot's): at its hello, before any
    bot code has run, that is its clock thread alone (:mod:`harness.sandbox.bot.worker`)."""
    try:
        return frozenset(int(t) for t in os.listdir(f"/proc/{pid}/task")) - {pid}
    except (OSError, ValueError):
        return frozenset()


def is_stopped(pid: int | None) -> bool:
    if pid is None:
        return False
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] in ("T", "t")
    except (OSError, IndexError):
        return False


__all__ = ["children", "clock_threads", "is_stopped", "tree"]
