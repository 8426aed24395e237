"""The cap on a plain-mode bot's working folder (64 MiB, as bubblewrap's tmpfs), held by the parent.

Under bubblewrap the working folder is a tmpfs of ``Limits.work_bytes``: the kernel refuses a
write past it (``ENOSPC``). Without bubblewrap (a container: Docker's seccomp forbids the
namespaces, and mounting a tmpfs needs ``CAP_SYS_ADMIN``, which a container does not grant)
there is no kernel cap on a folder, only on a file (``RLIMIT_FSIZE``). So the parent measures:

* what is in the folder: an iterative walk by descriptors that follows no link and leaves the
  file system at no mount, summing the blocks really allocated (``st_blocks``: a sparse file
  costs what it holds) once per inode (hard links count once), up to :data:`MAX_ENTRIES`
  entries and :data:`MAX_DEPTH` levels (more is itself over the cap);
* when: at the end of every call (about 20 us for a folder of a few files), and during a call
  whenever the worker's ``write_bytes`` (``/proc/<pid>/io``: bytes it dirtied in the page cache,
  ``write()`` and shared ``mmap`` alike) grew by :data:`TRIGGER` since the last walk, read every
  :data:`POLL` seconds; where that file cannot be read, every :data:`EVERY` seconds.

A bot over the cap is killed: ``forbidden``, with the cap in the reason. How far past the cap it
gets is the disk's write rate times the polling period: measured about 1-2 MiB past 64 MiB here
(``tests/hostile/test_escape.py::test_a_plain_bot_is_stopped_near_the_folder_cap``).
"""

from __future__ import annotations

import os
import stat
import time
from collections.abc import Iterator
from pathlib import Path

from harness.sandbox.limits import mib

_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0)

MAX_ENTRIES = 1000  # files and folders: a bot needs a handful; each costs the walk an lstat (~20 us)
MAX_DEPTH = 64  # folders in folders: each level holds a descriptor during the walk
POLL = 0.01  # seconds between readings of /proc/<pid>/io during a call
TRIGGER = 1 << 20  # bytes written since the last walk that make the next poll walk
EVERY = 0.1  # seconds between walks during a call where /proc/<pid>/io cannot be read


class WorkCap:
    """The parent's watch over one bot's working folder."""

    def __init__(self, folder: Path, limit: int, pid: int | None) -> None:
        self.folder = str(folder)
        self.limit = limit
        self.io = f"/proc/{pid}/io" if pid else None
        self.written = self._written()
        self.walked = time.perf_counter()
        self.next_at = self.walked + POLL

    def _written(self) -> int | None:
        if self.io is None:
            return None
        try:
            with open(self.io, "rb") as f:
                for line in f.read().splitlines():
                    if line.startswith(b"write_bytes:"):
                        return int(line.split()[1])
        except (OSError, ValueError, IndexError):
            self.io = None  # gone or unreadable: walk every EVERY seconds instead
        return None

    def poll(self, now: float) -> str | None:
        """During a call: the reason the bot is over its cap, if it is; sets :attr:`next_at`."""
        self.next_at = now + POLL
        written = self._written()
        if written is not None and self.written is not None:
            if written - self.written < TRIGGER:
                return None  # (entries without bytes are counted at the end of the call)
        elif now - self.walked < EVERY:
            return None
        return self.check(now, written)

    def check(self, now: float | None = None, written: int | None = None) -> str | None:
        """Walk the folder now: the reason the bot is over its cap, or None."""
        self.walked = time.perf_counter() if now is None else now
        self.written = self._written() if written is None else written
        size, entries, deep = usage(self.folder, MAX_ENTRIES)
        if deep:
            return f"the bot's working folder nests folders more than {MAX_DEPTH} deep (the cap on its folder)"
        if entries > MAX_ENTRIES:
            return (f"the bot's working folder holds more than {MAX_ENTRIES} files and folders "
                    f"(the cap on its folder)")
        if size > self.limit:
            return (f"the bot's working folder grew past {mib(self.limit)} ({size >> 20} MiB written; "
                    f"the cap on its folder)")
        return None


def usage(folder: str, max_entries: int, max_depth: int = MAX_DEPTH) -> tuple[int, int, bool]:
    """Bytes allocated under ``folder`` (each inode once), the entries seen (up to ``max_entries``
    + 1: the walk stops there), and whether folders nest deeper than ``max_depth``.

    Walked by descriptors (no path grows with the depth, so none grows past ``PATH_MAX``), never
    following a link, never leaving the folder's file system.
    """
    try:
        fd = os.open(folder, _DIR_FLAGS)
    except OSError:
        return 0, 0, False
    top = os.fstat(fd)
    seen: set[int] = set()
    total, entries = top.st_blocks * 512, 0
    stack: list[tuple[int, Iterator[os.DirEntry[str]]]] = []
    try:
        stack.append((fd, os.scandir(fd)))
        while stack:
            here, listing = stack[-1]
            entry = next(listing, None)
            if entry is None:
                listing.close()  # type: ignore[attr-defined]
                os.close(here)
                stack.pop()
                continue
            entries += 1
            if entries > max_entries:
                return total, entries, False
            try:
                st = os.stat(entry.name, dir_fd=here, follow_symlinks=False)
            except OSError:
                continue
            if st.st_dev != top.st_dev:
                continue  # a mount: not the bot's folder's file system
            if st.st_ino not in seen:
                seen.add(st.st_ino)
                total += st.st_blocks * 512
            if stat.S_ISDIR(st.st_mode):
                if len(stack) >= max_depth:
                    return total, entries, True
                try:
                    child = os.open(entry.name, _DIR_FLAGS, dir_fd=here)
                except OSError:
                    continue
                try:
                    stack.append((child, os.scandir(child)))
                except OSError:
                    os.close(child)
    finally:
        for here, listing in stack:
            listing.close()  # type: ignore[attr-defined]
            os.close(here)
    return total, entries, False


__all__ = ["MAX_ENTRIES", "WorkCap", "usage"]
