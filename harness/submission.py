"""A student's submission: ``player.py`` and the files beside it, read from a file, a folder or a zip.

The course accepted ``player.py``, or (Quoridor) ``player.zip`` with every file at the root of
the zip. A submission folder ``submissions/<game>/<login>/`` holds ``player.py`` and any other
``.py`` modules beside it (a bot may be a player plus a ``utils.py``), or a ``player.zip`` (in
every game, not only Quoridor).
Every file of a submission is copied into the bot's sandbox, next to ``player.py``, and is
importable there; the static rules apply to each ``.py`` file.

A submission is only its own regular files: a link in a submission folder (to a file or a
folder), or the submission itself given as a link, is refused with its name, as a link in a
zip is, and every file is opened with ``O_NOFOLLOW``, so a link swapped in after the check is
refused too (``unzip`` keeps links: one in an archive must not copy the grader's files in).

A zip is opened without extracting anything to disk and is refused, with one reason, for path
traversal, absolute names, links, nested folders, too many files, too many bytes once unpacked
and a missing ``player.py``. Nothing here runs bot code.
"""

from __future__ import annotations

import errno
import hashlib
import io
import json
import os
import re
import stat
import zipfile
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

MAIN = "player.py"
ZIP = "player.zip"
MAX_FILES = 64  # files in one submission
MAX_BYTES = 8 << 20  # all files of one submission, unpacked
MAX_FILE_BYTES = 4 << 20  # one file
NAME = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_.-]{0,99}$")
# What archivers add on their own; never part of a bot, so skipped rather than refused.
ZIP_JUNK = re.compile(r"^(__MACOSX/|.*\.DS_Store$|.*/$)")


class SubmissionError(ValueError):
    """A submission cannot be used; the message is one line naming the file and the problem."""


@dataclass(frozen=True)
class Submission:
    """The files of one bot: name -> bytes, ``player.py`` among them, at one folder level.

    ``sha256`` identifies the submission's exact content (every file), so changing any file
    replays that student's games; a submission of ``player.py`` alone keeps the digest of that
    file's bytes. ``notes`` says what was left out and why (shown by ``harness check``).
    """

    files: Mapping[str, bytes]
    origin: str = ""  # where it was read from, for messages
    notes: tuple[str, ...] = field(default=(), compare=False)

    def __post_init__(self) -> None:
        if MAIN not in self.files:
            raise SubmissionError(f"{self.origin or 'submission'}: no {MAIN}")

    @classmethod
    def of(cls, value: bytes | Submission, origin: str = "") -> Submission:
        """``value`` as a submission: bytes are the source of a lone ``player.py``."""
        if isinstance(value, Submission):
            return value
        return cls({MAIN: bytes(value)}, origin)

    @property
    def main(self) -> bytes:
        """The bytes of ``player.py``."""
        return self.files[MAIN]

    @property
    def names(self) -> list[str]:
        """The file names, ``player.py`` first, then sorted."""
        return [MAIN, *sorted(n for n in self.files if n != MAIN)]

    @cached_property
    def sha256(self) -> str:
        if len(self.files) == 1:
            return hashlib.sha256(self.main).hexdigest()
        digest = hashlib.sha256()
        for name in sorted(self.files):
            digest.update(json.dumps([name, hashlib.sha256(self.files[name]).hexdigest()]).encode())
        return digest.hexdigest()

    def python_files(self) -> list[tuple[str, bytes]]:
        """The ``.py`` files, ``player.py`` first: what the static rules check."""
        return [(n, self.files[n]) for n in self.names if n.endswith(".py")]

    def to_json(self) -> dict[str, str]:
        """The files as latin-1 text (a lossless, JSON-safe form of any bytes)."""
        return {n: b.decode("latin-1") for n, b in self.files.items()}

    @classmethod
    def from_json(cls, data: Mapping[str, str], origin: str = "") -> Submission:
        return cls({n: t.encode("latin-1") for n, t in data.items()}, origin)


def _check_counts(origin: str, files: Mapping[str, bytes]) -> None:
    if len(files) > MAX_FILES:
        raise SubmissionError(f"{origin}: too many files ({len(files)}; at most {MAX_FILES})")
    total = sum(len(b) for b in files.values())
    if total > MAX_BYTES:
        raise SubmissionError(f"{origin}: too large ({total} bytes of files; at most {MAX_BYTES})")


def _refuse_link(path: Path, origin: str = "") -> None:
    """Raise if ``path`` itself (not what it points to) is a link."""
    try:
        link = stat.S_ISLNK(os.lstat(path).st_mode)
    except OSError as exc:
        raise SubmissionError(f"{path}: cannot read ({exc.strerror})") from None
    if link:
        where = f"{origin}: {path.name!r}" if origin else str(path)
        raise SubmissionError(f"{where} is a link (a submission is only its own regular files)")


def read_regular(path: Path, cap: int = MAX_FILE_BYTES, origin: str = "") -> bytes:
    """The bytes of ``path``, a regular file that is not a link, at most ``cap`` of them.

    Opened with ``O_NOFOLLOW`` (a link is refused even if it replaced the file after a check)
    and ``O_NONBLOCK`` (a FIFO must not hang the grader); the size is judged on the open file.
    """
    where = f"{origin}: {path.name!r}" if origin else str(path)
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise SubmissionError(f"{where} is a link (a submission is only its own regular files)") from None
        raise SubmissionError(f"{path}: cannot read ({exc.strerror})") from None
    with os.fdopen(fd, "rb") as f:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise SubmissionError(f"{where} is not a regular file (a submission is only its own regular files)")
        if info.st_size > cap:
            raise SubmissionError(f"{path}: too large ({info.st_size} bytes; at most {cap})")
        try:
            data = f.read(cap + 1)
        except OSError as exc:
            raise SubmissionError(f"{path}: cannot read ({exc.strerror})") from None
    if len(data) > cap:
        raise SubmissionError(f"{path}: too large (more than {cap} bytes)")
    return data


def read_zip(path: Path) -> Submission:
    """A ``player.zip``: its files must sit at the root of the zip (the Quoridor text)."""
    origin = str(path)
    data = read_regular(path, 4 * MAX_BYTES)
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except zipfile.BadZipFile:
        raise SubmissionError(f"{origin}: not a valid zip file") from None
    files: dict[str, bytes] = {}
    skipped: list[str] = []
    with archive:
        infos = archive.infolist()
        if len(infos) > 4 * MAX_FILES:
            raise SubmissionError(f"{origin}: too many files ({len(infos)} entries; at most {MAX_FILES})")
        for info in infos:
            name = info.filename
            if name.startswith(("/", "\\")) or re.match(r"^[A-Za-z]:", name):
                raise SubmissionError(f"{origin}: {name!r} is an absolute path (files must sit at the root of the zip)")
            parts = re.split(r"[/\\]", name)
            if ".." in parts:
                raise SubmissionError(f"{origin}: {name!r} points outside the zip (path traversal)")
            mode = info.external_attr >> 16
            if stat.S_ISLNK(mode):
                raise SubmissionError(f"{origin}: {name!r} is a link (only regular files are accepted)")
            if ZIP_JUNK.match(name):
                if not name.endswith("/"):
                    skipped.append(name)
                continue
            if len(parts) > 1:
                hint = f"; found {name}" if parts[-1] == MAIN else ""
                raise SubmissionError(f"{origin}: {name!r} is in a folder: the files must sit at the root of "
                                      f"the zip, not in a folder{hint}")
            if not NAME.match(name):
                raise SubmissionError(f"{origin}: {name!r} is not an allowed file name (letters, digits, _ . -)")
            if name in files:
                raise SubmissionError(f"{origin}: {name!r} appears twice")
            if info.flag_bits & 0x1:
                raise SubmissionError(f"{origin}: {name!r} is encrypted")
            if info.file_size > MAX_FILE_BYTES or sum(map(len, files.values())) + info.file_size > MAX_BYTES:
                raise SubmissionError(f"{origin}: too large once unpacked ({name!r} is {info.file_size} bytes; "
                                      f"at most {MAX_BYTES} bytes in all)")
            files[name] = _read_capped(archive, info, origin, MAX_BYTES - sum(map(len, files.values())))
            if len(files) > MAX_FILES:
                raise SubmissionError(f"{origin}: too many files (more than {MAX_FILES})")
    if MAIN not in files:
        found = [i.filename for i in infos if i.filename.rsplit("/", 1)[-1] == MAIN]
        hint = f"; found {found[0]} (the files must sit at the root of the zip)" if found else ""
        raise SubmissionError(f"{origin}: no {MAIN} at the root of the zip{hint}")
    _check_counts(origin, files)
    notes = tuple(f"{n} in {path.name}: skipped (archiver metadata)" for n in skipped)
    return Submission(files, origin, notes)


def _read_capped(archive: zipfile.ZipFile, info: zipfile.ZipInfo, origin: str, room: int) -> bytes:
    """An entry's bytes, never more than ``room``: a header that lies about its size is a zip bomb."""
    try:
        with archive.open(info) as f:
            data = f.read(min(room, MAX_FILE_BYTES) + 1)
    except (zipfile.BadZipFile, OSError, RuntimeError, NotImplementedError, EOFError) as exc:
        raise SubmissionError(f"{origin}: {info.filename!r} cannot be unpacked ({exc})") from None
    if len(data) > min(room, MAX_FILE_BYTES):
        raise SubmissionError(f"{origin}: too large once unpacked ({info.filename!r} unpacks to more than "
                              f"its header says)")
    return data


def imported_names(source: bytes) -> set[str]:
    """Top-level names of absolute imports in ``source`` (empty if it does not parse, or is too
    large or complex to parse within the door's caps: see :mod:`harness.door.modules`, which
    parses it in a capped child, never in this process)."""
    from harness.door.modules import scan

    return {top for _, top, _ in scan(source).imports}


def read_folder(folder: Path, supplied: Iterable[str] = ()) -> Submission:
    """A submission folder: ``player.py`` and the ``.py`` modules beside it, or ``player.zip``."""
    origin = str(folder)
    _refuse_link(folder)
    try:
        entries = sorted(folder.iterdir())
    except OSError as exc:
        raise SubmissionError(f"{folder}: cannot read ({exc.strerror})") from None
    for entry in entries:  # anything a link could bring in, a file or a whole folder
        _refuse_link(entry, origin)
    main = folder / MAIN
    if not main.is_file():
        if (folder / ZIP).is_file():
            return read_zip(folder / ZIP)
        raise SubmissionError(missing_player(folder))
    return _from_files(origin, [p for p in entries if p.suffix == ".py" and not p.is_dir()], supplied)


def read_player_file(path: Path, supplied: Iterable[str] = ()) -> Submission:
    """A bot given as one ``.py`` file: the file, as ``player.py``, plus the modules beside it that
    it imports (directly or through each other). Other files of its folder are left out, so a
    student's scratch files do not count; give the folder to take all of them."""
    seen = {path.stem}
    todo = [read_regular(path)]
    siblings = {p.stem: p for p in path.parent.glob("*.py") if p != path and (p.is_file() or p.is_symlink())}
    picked: list[Path] = []
    while todo:
        for name in sorted(imported_names(todo.pop())):
            if name in siblings and name not in seen:
                seen.add(name)
                picked.append(siblings[name])
                todo.append(read_regular(siblings[name], origin=str(path.parent)))
    return _from_files(str(path), [path, *picked], supplied, main=path)


def _from_files(origin: str, paths: list[Path], supplied: Iterable[str], main: Path | None = None) -> Submission:
    files: dict[str, bytes] = {}
    notes: list[str] = []
    supplied = set(supplied)
    for p in paths:
        name = MAIN if p == main else p.name
        if name != MAIN and p.stem in supplied:
            notes.append(f"{p.name}: not taken (the harness supplies its own {p.name}, as the course's grader did)")
            continue
        if not NAME.match(name):
            notes.append(f"{p.name}: not taken (not an importable module name)")
            continue
        files[name] = read_regular(p, origin=str(p.parent))
    _check_counts(origin, files)
    return Submission(files, origin, tuple(notes))


def missing_player(folder: Path) -> str:
    """Why a submission folder has no usable ``player.py``, with what was found instead."""
    try:
        entries = sorted(folder.iterdir())
    except OSError as exc:
        return f"{folder}: cannot read ({exc.strerror})"
    found = [e for e in entries if e.name.lower() in (MAIN, ZIP) and e.name not in (MAIN, ZIP)]
    nested = [p for p in folder.rglob(MAIN)][:1] + [p for p in folder.rglob(ZIP)][:1]
    if found:
        hint = f"; found {found[0].name} (the name must be exactly {MAIN})"
    elif nested:
        hint = f"; found {nested[0].relative_to(folder)} (it must sit directly in the folder)"
    elif not entries:
        hint = "; the folder is empty"
    else:
        py = [e.name for e in entries if e.suffix == ".py"]
        hint = f"; found {', '.join(py[:3])}" if py else f"; found {len(entries)} other file(s)"
    return f"no {MAIN} in {folder}{hint}"


def read_submission(path: str | Path, supplied: Iterable[str] = ()) -> Submission:
    """A bot from a path: a folder, a ``.zip`` or a ``.py`` file (see the functions above).

    ``supplied`` names the modules the harness gives every bot of the game (its bot API, e.g.
    ``base``): a student's own copy beside ``player.py`` is left out, as on the course's grader.
    """
    path = Path(path)
    if path.is_dir():
        return read_folder(path, supplied)
    if not path.exists() and not path.is_symlink():
        raise SubmissionError(f"{path}: no such file or folder")
    _refuse_link(path)
    if path.suffix.lower() == ".zip":
        return read_zip(path)
    try:
        return read_player_file(path, supplied)
    except OSError as exc:
        raise SubmissionError(f"{path}: cannot read ({exc.strerror})") from None


__all__ = ["MAIN", "Submission", "SubmissionError", "imported_names", "missing_player", "read_submission",
           "read_zip"]
