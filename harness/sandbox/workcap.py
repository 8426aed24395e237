"""The cap on a plain-mode bot's disk (64 MiB, as bubblewrap's tmpfs), held by the parent.

Under bubblewrap the working folder is a tmpfs of ``Limits.work_bytes``: the kernel refuses a
write past it (``ENOSPC``). Without bubblewrap (a container: Docker's seccomp forbids the
namespaces, and mounting a tmpfs needs ``CAP_SYS_ADMIN``, which a container does not grant)
there is no kernel cap on a folder, only on a file (``RLIMIT_FSIZE``). So the parent measures
the disk a bot holds:

* what is in the folder: an iterative walk by descriptors that follows no link and leaves the
  file system at no mount, summing the blocks really allocated (``st_blocks``: a sparse file
  costs what it holds, a preallocated one what it reserved) once per inode (hard links count
  once), up to :data:`MAX_ENTRIES` entries and :data:`MAX_DEPTH` levels (more is itself over
  the cap);
* what the bot's processes hold that no folder shows: files unlinked while open or mapped
  (``/proc/<pid>/fd`` and the ``(deleted)`` mappings of ``/proc/<pid>/maps``, each followed to
  its inode: the harness is root, the bot a uid of its own), ``O_TMPFILE`` and ``memfd`` files
  alike, by their ``st_blocks`` too;
* when: during a call, once the bytes the bot's processes dirtied (``write_bytes`` of
  ``/proc/<pid>/io``: ``write()`` and shared ``mmap`` alike, read every :data:`POLL` seconds)
  since the last walk reach half of what the last walk left below the cap (at least
  :data:`TRIGGER`), and the file system's use (``statvfs``) grew by as much or the last walk
  is :data:`GAP` old: the disk held is at most what the last walk found plus what was
  written since, so it cannot pass the cap unseen by more than one poll's writes; at the end
  of a call, unless nothing could have grown it past the cap since. Where ``/proc/<pid>/io``
  cannot be read, every :data:`EVERY` seconds.

The walk's own cost is bounded: a walk never starts sooner after the last than
:data:`SPACING` times the CPU time that one took, so however a bot churns (a thousand entries
rewritten over and over), the parent spends at most about a quarter of the time on its folder,
and far less as long as it writes less than its headroom. ``fallocate`` is refused by the
seccomp filter (:mod:`harness.sandbox.bot.seccomp`), so disk is held only by writing.

A bot over the cap is killed: ``forbidden``, with the cap in the reason. How far past the cap it
gets is its write rate times the polling period (or a throttled walk's wait): measured a few
MiB past 64 MiB here (``tests/hostile/test_escape.py::test_a_plain_bot_is_stopped_near_the_folder_cap``,
``tests/hostile/test_disk_held.py``).
"""

from __future__ import annotations

import os
import stat
import time
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

from harness.sandbox.limits import mib

_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0)

MAX_ENTRIES = 1000  # files and folders: a bot needs a handful; each costs the walk an lstat (~20 us)
MAX_DEPTH = 64  # folders in folders: each level holds a descriptor during the walk
POLL = 0.01  # seconds between readings of /proc/<pid>/io during a call
TRIGGER = 1 << 20  # bytes written since the last walk that make the next poll walk, at the least
EVERY = 0.1  # seconds between walks during a call where /proc/<pid>/io cannot be read
SPACING = 3.0  # a walk starts no sooner than this many times the last walk's CPU time after it
GAP = 1.0  # seconds: a bot that keeps writing is walked at least this often, whatever the disk says


class WorkCap:
    """The parent's watch over one bot's disk: its working folder and what its processes hold.

    ``pids`` gives the bot's processes now (its cgroup's, or the worker's tree); by default
    the worker ``pid`` alone.
    """

    def __init__(self, folder: Path, limit: int, pid: int | None,
                 pids: Callable[[], Iterable[int]] | None = None) -> None:
        self.folder = str(folder)
        self.limit = limit
        self.pids: Callable[[], Iterable[int]] = pids or (lambda: [pid] if pid else [])
        self.readable = bool(pid)  # /proc/<pid>/io can be read (else: walk every EVERY seconds)
        self.io_seen: dict[int, int] = {}  # pid -> its write_bytes when last read
        self.pending = 0  # bytes the bot's processes wrote since the last walk
        self.held = 0  # bytes the last walk found
        self.cost = 0.0  # the last walk's CPU time (s)
        self.walks = 0
        self.used = self._used()  # the file system's bytes in use at the last walk
        self._grown()
        self.walked = time.perf_counter()
        self.next_at = self.walked + POLL

    def _grown(self) -> int | None:
        """Bytes the bot's processes dirtied since the last reading (None: cannot be read)."""
        if not self.readable:
            return None
        grown, seen = 0, {}
        for pid in self.pids():
            try:
                with open(f"/proc/{pid}/io", "rb") as f:
                    data = f.read()
                at = data.index(b"\nwrite_bytes: ") + 14
                now = int(data[at:data.index(b"\n", at)])
            except (OSError, ValueError):
                continue  # gone meanwhile
            seen[pid] = now
            grown += max(0, now - self.io_seen.get(pid, 0))
        if not seen:
            self.readable = False  # gone or unreadable: walk every EVERY seconds instead
            return None
        self.io_seen = seen
        return grown

    def _used(self) -> int | None:
        """Bytes in use on the folder's file system (``statvfs``: 6 us; ext4 counts delayed
        allocations here at once), or None where it cannot be read."""
        try:
            st = os.statvfs(self.folder)
        except OSError:
            return None
        return (st.f_blocks - st.f_bfree) * st.f_frsize

    def _headroom(self) -> int:
        """Bytes written since the last walk that make the next one due."""
        return max(TRIGGER, (self.limit - self.held) // 2)

    def _due(self, now: float) -> bool:
        """Whether what was written since the last walk could have taken the bot past its cap:
        it wrote its headroom's worth, and the file system grew by as much (a bot rewriting
        the same bytes grows nothing) or the last walk is :data:`GAP` old. Others' deletions
        could hide a growth from the second test, by at most what they held: the gap bounds it."""
        headroom = self._headroom()
        if self.pending < headroom:
            return False
        used = self._used()
        return used is None or self.used is None or used - self.used >= headroom or now - self.walked >= GAP

    def poll(self, now: float) -> str | None:
        """During a call: the reason the bot is over its cap, if it is; sets :attr:`next_at`."""
        self.next_at = now + POLL
        grown = self._grown()
        if grown is not None:
            self.pending += grown
            if not self._due(now):
                return None
        elif now - self.walked < EVERY:
            return None
        ready = self.walked + SPACING * self.cost
        if now < ready:  # due, but the last walk was costly: not before its spacing
            self.next_at = ready
            return None
        return self.check(now)

    def settle(self) -> str | None:
        """At the end of a call: the reason the bot is over its cap, if it is (walks unless the
        last walk was recent and costly and too little was written since to reach the cap)."""
        now = time.perf_counter()
        grown = self._grown()
        if grown is not None:
            self.pending += grown
            if not self._due(now) and now < self.walked + SPACING * self.cost:
                return None  # (entries without bytes are counted at the next walk)
        return self.check(now)

    def check(self, now: float | None = None) -> str | None:
        """Walk the folder and the bot's open files now: the reason the bot is over its cap, or None."""
        cpu0 = time.thread_time()
        self.used = self._used()
        size, entries, deep, seen = walk(self.folder, MAX_ENTRIES)
        if not deep and entries <= MAX_ENTRIES:
            size += held_open(self.pids(), seen)
        self.cost = time.thread_time() - cpu0
        self.walks += 1
        self.walked = time.perf_counter() if now is None else now
        self.held, self.pending = size, 0
        if deep:
            return f"the bot's working folder nests folders more than {MAX_DEPTH} deep (the cap on its folder)"
        if entries > MAX_ENTRIES:
            return (f"the bot's working folder holds more than {MAX_ENTRIES} files and folders "
                    f"(the cap on its folder)")
        if size > self.limit:
            return (f"the bot's working folder grew past {mib(self.limit)} ({size >> 20} MiB written; "
                    f"the cap on its folder)")
        return None


def held_open(pids: Iterable[int], seen: set[tuple[int, int]]) -> int:
    """Bytes allocated to the regular files ``pids`` hold open or mapped that are linked in no
    folder (unlinked, ``O_TMPFILE``, ``memfd``) and belong to the process's own uid (not a
    system library replaced on disk while mapped), each inode once and none of ``seen`` (the
    folder's ``(device, inode)``s). Followed through ``/proc``: the harness reads every uid's."""
    total = 0
    for pid in pids:
        try:
            owner = os.stat(f"/proc/{pid}").st_uid
        except OSError:
            continue  # gone meanwhile
        links = []
        try:
            links = [f"/proc/{pid}/fd/{fd}" for fd in os.listdir(f"/proc/{pid}/fd")]
        except OSError:
            pass
        try:
            with open(f"/proc/{pid}/maps", "rb") as f:
                for line in f.read().splitlines():
                    if line.endswith(b" (deleted)"):
                        links.append(f"/proc/{pid}/map_files/{line.split(None, 1)[0].decode()}")
        except (OSError, UnicodeDecodeError):
            pass
        for link in links:
            try:
                st = os.stat(link)
            except OSError:
                continue
            if not stat.S_ISREG(st.st_mode) or st.st_nlink > 0 or st.st_uid != owner or (st.st_dev, st.st_ino) in seen:
                continue
            seen.add((st.st_dev, st.st_ino))
            total += st.st_blocks * 512
    return total


def usage(folder: str, max_entries: int, max_depth: int = MAX_DEPTH) -> tuple[int, int, bool]:
    """Bytes allocated under ``folder`` (each inode once), the entries seen (up to ``max_entries``
    + 1: the walk stops there), and whether folders nest deeper than ``max_depth``."""
    size, entries, deep, _seen = walk(folder, max_entries, max_depth)
    return size, entries, deep


def walk(folder: str, max_entries: int, max_depth: int = MAX_DEPTH) -> tuple[int, int, bool, set[tuple[int, int]]]:
    """:func:`usage`, and the ``(device, inode)`` of every file it counted.

    Walked by descriptors (no path grows with the depth, so none grows past ``PATH_MAX``), never
    following a link, never leaving the folder's file system.
    """
    seen: set[tuple[int, int]] = set()
    try:
        fd = os.open(folder, _DIR_FLAGS)
    except OSError:
        return 0, 0, False, seen
    top = os.fstat(fd)
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
                return total, entries, False, seen
            try:
                st = os.stat(entry.name, dir_fd=here, follow_symlinks=False)
            except OSError:
                continue
            if st.st_dev != top.st_dev:
                continue  # a mount: not the bot's folder's file system
            if (st.st_dev, st.st_ino) not in seen:
                seen.add((st.st_dev, st.st_ino))
                total += st.st_blocks * 512
            if stat.S_ISDIR(st.st_mode):
                if len(stack) >= max_depth:
                    return total, entries, True, seen
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
    return total, entries, False, seen


__all__ = ["MAX_ENTRIES", "WorkCap", "held_open", "usage", "walk"]
