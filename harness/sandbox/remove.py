"""Deleting a folder a bot had its hands on: iteratively, on this file system only, flags cleared.

``shutil.rmtree`` recurses once per level (a 3,000-deep chain of folders, built by renames and
never a long path, raises ``RecursionError``), works by whole paths (past ``PATH_MAX`` they fail)
and gives up on an immutable file. :func:`remove_tree` instead:

* walks with one open directory at a time (``dir_fd`` relative calls, going down by name and
  back up by ``..``, checked against the device and inode it came from), so no depth and no
  path length stops it and it holds two descriptors at most;
* never follows a link (a link is removed as a link) and never enters a mount point under the
  folder (another device by ``st_dev``; a bind mount of the same file system by
  ``/proc/self/mountinfo``, read once per removal): what it cannot enter it reports;
* clears the immutable and append-only flags (``FS_IOC_SETFLAGS``) of what it cannot delete,
  and of the folder that holds it, then tries again;
* never raises: it returns one line naming what it could not remove (and how many), or None.
"""

from __future__ import annotations

import errno
import fcntl
import os
import stat
import struct
import sys
from pathlib import Path

FS_IOC_GETFLAGS = 0x80086601  # Linux, 64-bit; the kernel reads and writes an int
FS_IOC_SETFLAGS = 0x40086602
FLAGS_IN_THE_WAY = 0x10 | 0x20  # FS_IMMUTABLE_FL, FS_APPEND_FL
_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0)


class _Walk:
    """The state of one removal: the folders it is in, what it could not remove."""

    def __init__(self, root: str) -> None:
        self.root = root
        self.mounts = _mounts_under(root)
        self.failed: list[str] = []  # "relative/path (why)"
        self.skip: set[tuple[int, int]] = set()  # (dev, ino) not to try again
        self.names: list[str] = []  # the folder we are in, relative to root

    def fail(self, name: str, why: str, key: tuple[int, int] | None = None) -> None:
        self.failed.append(f"{os.path.join(*self.names, name) if self.names else name} ({why})")
        if key is not None:
            self.skip.add(key)


def remove_tree(path: str | Path) -> str | None:
    """Delete ``path`` and everything under it; None, or one line saying what is left and why."""
    root = os.fspath(path)
    walk = _Walk(root)
    try:
        _remove(root, walk)
    except Exception as exc:  # noqa: BLE001 - cleanup must go on whatever it meets
        walk.failed.append(f"{type(exc).__name__}: {exc}")
    if not walk.failed:
        return None
    more = f" and {len(walk.failed) - 1} more" if len(walk.failed) > 1 else ""
    return f"cannot remove everything under {root}: {walk.failed[0]}{more}"


def remove_or_report(path: str | Path) -> None:
    """:func:`remove_tree`, and the line of what is left on stderr (the harness goes on)."""
    problem = remove_tree(path)
    if problem is not None:
        print(f"harness: warning: {problem}", file=sys.stderr)


def _remove(root: str, walk: _Walk) -> None:
    try:
        top = os.lstat(root)
    except FileNotFoundError:
        return
    if not stat.S_ISDIR(top.st_mode):
        _unlink_at(None, root, walk, False)
        return
    dev = top.st_dev
    try:
        fd = os.open(root, _DIR_FLAGS)
    except FileNotFoundError:  # removed meanwhile (by another harness's sweep, or at exit): done
        return
    trail = [(top.st_dev, top.st_ino)]  # (dev, ino) of root and each folder below it we are in
    try:
        while True:
            sub = _empty_files(fd, dev, walk)
            if sub is not None:  # go down into the first folder left
                name, key = sub
                try:
                    child = _open_folder(fd, name)
                except FileNotFoundError:  # removed meanwhile by another remover: nothing is left of it
                    continue
                except OSError as exc:
                    walk.fail(name, exc.strerror or str(exc), key)
                    continue
                found = os.fstat(child)
                if (found.st_dev, found.st_ino) != key:  # it was swapped meanwhile
                    os.close(child)
                    walk.fail(name, "changed while being removed", key)
                    continue
                os.close(fd)
                fd = child
                walk.names.append(name)
                trail.append(key)
                continue
            if not walk.names:
                break
            name = walk.names.pop()  # go back up, then remove the folder just emptied
            key = trail.pop()
            parent = os.open("..", _DIR_FLAGS, dir_fd=fd)
            seen = os.fstat(parent)
            os.close(fd)
            fd = parent
            if (seen.st_dev, seen.st_ino) != trail[-1]:
                walk.fail(name, "its folder moved while being removed")
                return
            _unlink_at(fd, name, walk, True, key)
    finally:
        os.close(fd)
    _unlink_at(None, root, walk, True)


def _mounts_under(root: str) -> frozenset[str]:
    """The mount points strictly under ``root`` (Linux: /proc/self/mountinfo; elsewhere none known)."""
    try:
        with open("/proc/self/mountinfo", "rb") as f:
            lines = f.read().splitlines()
    except OSError:
        return frozenset()
    base = os.path.realpath(root)
    found = set()
    for line in lines:
        fields = line.split(b" ")
        if len(fields) > 4:  # field 5: the mount point, with space, tab, newline, backslash as octal escapes
            point = os.fsdecode(fields[4]).encode("latin-1", "backslashreplace").decode("unicode_escape")
            if point.startswith(base.rstrip(os.sep) + os.sep):
                found.add(os.path.join(root, os.path.relpath(point, base)))
    return frozenset(found)


def _open_folder(fd: int, name: str) -> int:
    """Open folder ``name`` of ``fd``; one the bot made unreadable (its own uid) is made readable first."""
    try:
        return os.open(name, _DIR_FLAGS, dir_fd=fd)
    except PermissionError:
        os.chmod(name, 0o700, dir_fd=fd)
        return os.open(name, _DIR_FLAGS, dir_fd=fd)


def _empty_files(fd: int, dev: int, walk: _Walk) -> tuple[str, tuple[int, int]] | None:
    """Delete every entry of folder ``fd`` that is not a folder; the first folder to go into, if any."""
    with os.scandir(fd) as entries:
        names = [entry.name for entry in entries]  # listed first: deleting while reading may skip some
    for name in names:
        try:
            st = os.stat(name, dir_fd=fd, follow_symlinks=False)
        except FileNotFoundError:
            continue
        key = (st.st_dev, st.st_ino)
        if key in walk.skip:
            continue
        if not stat.S_ISDIR(st.st_mode):
            _unlink_at(fd, name, walk, False, key)
        elif st.st_dev != dev or (walk.mounts and os.path.join(walk.root, *walk.names, name) in walk.mounts):
            walk.fail(name, "another file system is mounted there", key)
        else:
            return name, key
    return None


def _unlink_at(fd: int | None, name: str, walk: _Walk, folder: bool, key: tuple[int, int] | None = None) -> None:
    """Remove ``name`` (in folder ``fd``, or a whole path when ``fd`` is None); once more after
    clearing the flags in the way (of the entry and of the folder holding it)."""
    remove = os.rmdir if folder else os.unlink
    for attempt in (1, 2):
        try:
            if fd is None:
                remove(name)
            else:
                remove(name, dir_fd=fd)
            return
        except FileNotFoundError:
            return
        except OSError as exc:
            if attempt == 2 or exc.errno not in (errno.EPERM, errno.EACCES) or not _clear_flags(fd, name):
                walk.fail(os.path.basename(name) if fd is None else name, exc.strerror or str(exc), key)
                return


def _clear_flags(fd: int | None, name: str) -> bool:
    """Clear the immutable and append-only flags of ``name`` and of its folder; True if any was set."""
    cleared = False
    targets: list[tuple[int | None, str]] = [(fd, name)]
    if fd is not None:  # (not the folder holding the root: that is the harness's temporary folder)
        targets.append((fd, "."))
    for where, target in targets:
        try:
            opened = os.open(target, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0),
                             dir_fd=where)
        except OSError:
            continue  # a link, a socket, a folder we cannot read: nothing to clear here
        try:
            flags = struct.unpack("i", fcntl.ioctl(opened, FS_IOC_GETFLAGS, b"\0" * 8)[:4])[0]
            if flags & FLAGS_IN_THE_WAY:
                fcntl.ioctl(opened, FS_IOC_SETFLAGS, struct.pack("i", flags & ~FLAGS_IN_THE_WAY) + b"\0" * 4)
                cleared = True
        except OSError:
            pass  # no flags on this file system, or not ours to change
        finally:
            os.close(opened)
    return cleared


__all__ = ["remove_or_report", "remove_tree"]
