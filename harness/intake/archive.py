"""Reading a bulk download: a zip, a folder of zips, or the folder a zip was unpacked into.

A bulk download is hostile input like any submission: it is read with :mod:`zipfile` without
extracting anything, each file's name is only parsed (never used as a path), and the whole source
is refused with one line for an entry with an absolute name or ``..`` (path traversal), an entry
that is a link, more than :data:`MAX_ENTRIES` entries, or a file that unpacks past its cap (a
zip bomb: bytes are read, at most the cap plus one, whatever the header claims). A folder is
walked without following links; a link in it is refused the same way.

An entry's time is its upload time: Moodle and Canvas write each file's modification time into
the zip, and their names carry no other. It is the "extended timestamp" field (UTC) when the zip
has one, else the zip's local date and time read in the given time zone (the deadline's, or
``harness import --tz``); a file of a folder has its modification time.
"""

from __future__ import annotations

import os
import stat
import struct
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timezone, tzinfo
from pathlib import Path

from harness.intake.names import parse
from harness.submission import MAX_BYTES, MAX_FILE_BYTES

MAX_ENTRIES = 50_000  # entries of one bulk download (a course of 1,000 students, 50 files each)
MAX_TOTAL = 1 << 30  # bytes read from all sources of one import
ZIP_CAP = 4 * MAX_BYTES  # a student's player.zip (as harness.submission reads it)


class IntakeError(ValueError):
    """A source that cannot be imported at all; the message is one line naming it and why."""


@dataclass
class RawFile:
    """One file of a bulk download: where it came from, its path in it, its time and its reader."""

    source: str  # the zip's (or folder's) name, for messages and the history
    path: str  # the path inside the download (parsed, never used as a path)
    time: datetime  # aware
    size: int  # as the header (or the file system) says: the reader still caps what it reads
    read: Callable[[int], bytes]  # reads at most cap + 1 bytes
    owner: str = ""  # a plain zip's own name (``xnovak.zip``: one student's files), else ""


def cap_for(name: str) -> int:
    """The most bytes a bot's file of this name may have (a ``player.zip`` is a zip of files)."""
    return ZIP_CAP if name.endswith(".zip") else MAX_FILE_BYTES


def _zip_time(info: zipfile.ZipInfo, zone: tzinfo) -> datetime:
    """The entry's modification time: the extended timestamp (UTC), else the local time in ``zone``."""
    extra = info.extra
    i = 0
    while i + 4 <= len(extra):
        kind, size = struct.unpack("<HH", extra[i:i + 4])
        body = extra[i + 4:i + 4 + size]
        if kind == 0x5455 and size >= 5 and body[0] & 1:
            return datetime.fromtimestamp(struct.unpack("<i", body[1:5])[0], timezone.utc)
        i += 4 + size
    try:
        return datetime(*info.date_time, tzinfo=zone)
    except ValueError:  # a date the zip cannot mean (month 0): the epoch says "unknown" plainly
        return datetime(1980, 1, 1, tzinfo=zone)


def _entry_name(info: zipfile.ZipInfo) -> str:
    """The entry's name; a UTF-8 name stored without the UTF-8 flag (read as cp437) is read again."""
    name = info.filename
    if not info.flag_bits & 0x800:
        try:
            name = name.encode("cp437").decode("utf-8")
        except (UnicodeEncodeError, UnicodeDecodeError):
            pass
    return name


def _refuse(origin: str, name: str) -> None:
    parts = name.replace("\\", "/").split("/")
    if name.startswith(("/", "\\")) or (len(name) > 1 and name[1] == ":"):
        raise IntakeError(f"{origin}: {name!r} is an absolute path; nothing imported")
    if ".." in parts:
        raise IntakeError(f"{origin}: {name!r} points outside the download (path traversal); nothing imported")


def zip_files(path: Path, zone: tzinfo, origin: str | None = None) -> list[RawFile]:
    """The files of a bulk download zip; :class:`IntakeError` (one line) if it is refused."""
    origin = origin or str(path)
    try:
        archive = zipfile.ZipFile(path)
    except (zipfile.BadZipFile, OSError, ValueError) as exc:
        raise IntakeError(f"{origin}: not a readable zip file ({getattr(exc, 'strerror', None) or exc})") from None
    infos = archive.infolist()
    if len(infos) > MAX_ENTRIES:
        archive.close()
        raise IntakeError(f"{origin}: {len(infos)} entries (at most {MAX_ENTRIES}); nothing imported")
    files = []
    for info in infos:
        name = _entry_name(info)
        _refuse(origin, name)
        if stat.S_ISLNK(info.external_attr >> 16):
            archive.close()
            raise IntakeError(f"{origin}: {name!r} is a link; nothing imported")
        if name.endswith("/"):
            continue

        def read(cap: int, info: zipfile.ZipInfo = info, name: str = name) -> bytes:
            if info.flag_bits & 0x1:
                raise IntakeError(f"{origin}: {name!r} is encrypted")
            try:
                with archive.open(info) as f:
                    return f.read(cap + 1)
            except (zipfile.BadZipFile, OSError, RuntimeError, NotImplementedError, EOFError) as exc:
                raise IntakeError(f"{origin}: {name!r} cannot be unpacked ({exc})") from None

        files.append(RawFile(Path(origin).name, name, _zip_time(info, zone), info.file_size, read))
    return files


def _file_reader(path: Path) -> Callable[[int], bytes]:
    def read(cap: int) -> bytes:
        flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
        try:
            fd = os.open(path, flags)
        except OSError as exc:
            raise IntakeError(f"{path}: cannot read ({exc.strerror})") from None
        with os.fdopen(fd, "rb") as f:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                raise IntakeError(f"{path}: not a regular file")
            return f.read(cap + 1)
    return read


def folder_files(folder: Path, zone: tzinfo) -> list[RawFile]:
    """The files of a folder: an unpacked download's files, the files of each bulk-download zip in
    it (a ``.zip`` whose own name follows no LMS naming), and of each plain zip (one student's
    files, none named as an LMS names them: ``xnovak.zip``, its ``owner`` the zip's name, its time
    the zip file's modification time). Links are refused."""
    files: list[RawFile] = []
    for root, dirs, names in os.walk(folder, followlinks=False):
        dirs.sort()
        for name in [*dirs, *names]:
            if (Path(root) / name).is_symlink():
                raise IntakeError(f"{Path(root) / name}: is a link; nothing imported")
        for name in sorted(names):
            path = Path(root) / name
            rel = path.relative_to(folder).as_posix()
            if name.lower().endswith(".zip") and parse(rel) is None and parse(name) is None:
                inner = zip_files(path, zone, str(path))
                if inner and not any(parse(f.path) for f in inner):  # one student's zip, named by them
                    when = datetime.fromtimestamp(path.stat().st_mtime, timezone.utc)
                    for f in inner:
                        f.owner, f.time = name[:-4], when
                files += inner
                continue
            info = path.stat()
            files.append(RawFile(folder.name, rel, datetime.fromtimestamp(info.st_mtime, timezone.utc),
                                 info.st_size, _file_reader(path)))
        if len(files) > MAX_ENTRIES:
            raise IntakeError(f"{folder}: more than {MAX_ENTRIES} files; nothing imported")
    return files


def source_files(path: Path, zone: tzinfo) -> list[RawFile]:
    """Every file of the source given to ``harness import`` (a zip or a folder)."""
    if path.is_symlink():
        raise IntakeError(f"{path}: is a link; give the file or folder itself")
    if path.is_dir():
        return folder_files(path, zone)
    if not path.is_file():
        raise IntakeError(f"{path}: no such file or folder")
    return zip_files(path, zone)


def read_capped(raw: RawFile, cap: int) -> bytes | None:
    """The file's bytes, or None if it has more than ``cap`` (whatever its header said)."""
    data = raw.read(cap)
    return None if len(data) > cap else data


__all__ = ["IntakeError", "MAX_ENTRIES", "MAX_TOTAL", "RawFile", "cap_for", "read_capped", "source_files"]

