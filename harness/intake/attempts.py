"""Every attempt of every student, kept beside the submissions: nothing is overwritten without a record.

The submissions folder keeps one folder per login with the attempt that is graded, as before;
the history lives in the folder's ``.attempts/`` (the jobs skip folders whose name starts with a
dot)::

    submissions/streky/
      novakjan/player.py                       # the graded attempt
      .attempts/novakjan/attempts.json         # every attempt: time, files, digest, source
      .attempts/novakjan/20261117T185512Z-3f2a9c1b04de/player.py   # each attempt's files

``attempts.json`` lists the attempts oldest first, each with its upload ``time`` (UTC, ISO 8601),
the ``digest`` of its files (:func:`digest`), their names, the ``source`` it came from (the zip,
or ``found in the folder`` for what a folder held before an import replaced it) and Canvas's
``LATE`` mark and file ids and where its time comes from, and names the ``installed`` attempt. An
attempt is recorded once however many downloads hold it: the same files at the same time, or
(Canvas, whose entry times are the download's) the same file ids. What a folder held is recorded
with ``found``: its time is its files' modification time, no upload time, so it is never chosen
over an uploaded attempt and never charged by the deadline.

The deadline reads it back (:func:`recorded_time`): the graded folder's files are digested and
the earliest attempt with that digest gives the time.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from harness.submission import MAX_FILE_BYTES, NAME, SubmissionError, read_regular

HISTORY = ".attempts"
RECORD = "attempts.json"
LOGIN = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_.@+-]{0,99}$")


def digest(files: Mapping[str, bytes]) -> str:
    """The digest of a set of files: their names and contents, in name order."""
    h = hashlib.sha256()
    for name in sorted(files):
        h.update(json.dumps([name, hashlib.sha256(files[name]).hexdigest()]).encode())
    return h.hexdigest()


def folder_files(folder: Path) -> dict[str, bytes]:
    """A submission folder's own files (regular, at its top level, not hidden), by name."""
    files = {}
    for entry in sorted(folder.iterdir()):
        if entry.name.startswith(".") or entry.is_dir() or not NAME.match(entry.name):
            continue
        try:
            files[entry.name] = read_regular(entry, 8 * MAX_FILE_BYTES)
        except SubmissionError:
            continue  # a link or a giant: no part of the digest (the grader refuses it anyway)
    return files


@dataclass
class Attempt:
    """One upload of one student: when, which files (their digest), where from."""

    time: datetime  # aware
    digest: str
    names: list[str]
    source: str
    late_mark: bool = False  # Canvas marked it LATE
    folder: str = ""  # under .attempts/<login>/
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def found(self) -> bool:
        """Found in the folder before an import, not uploaded: its time (the files' own) is no upload time."""
        return bool(self.extra.get("found"))

    def to_json(self) -> dict[str, Any]:
        return {"time": self.time.astimezone(timezone.utc).isoformat(timespec="seconds"), "digest": self.digest,
                "files": self.names, "source": self.source, "late_mark": self.late_mark, "folder": self.folder,
                **self.extra}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Attempt:
        known = {"time", "digest", "files", "source", "late_mark", "folder"}
        return cls(datetime.fromisoformat(str(data["time"])), str(data["digest"]), list(data.get("files", [])),
                   str(data.get("source", "")), bool(data.get("late_mark")), str(data.get("folder", "")),
                   {k: v for k, v in data.items() if k not in known})


class History:
    """The attempts of one login under ``<submissions>/.attempts/<login>/``."""

    def __init__(self, root: Path, login: str) -> None:
        if not LOGIN.match(login):
            raise ValueError(f"{login!r} is not a usable login for a folder name")
        self.root, self.login = root, login
        self.folder = root / HISTORY / login
        self.attempts: list[Attempt] = []
        self.installed: str | None = None
        self._load()

    def _load(self) -> None:
        try:
            data = json.loads((self.folder / RECORD).read_text(encoding="utf-8"))
            self.attempts = [Attempt.from_json(a) for a in data.get("attempts", [])]
            self.installed = data.get("installed")
        except FileNotFoundError:
            pass
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise ValueError(f"{self.folder / RECORD}: unreadable ({exc}); fix or move it, nothing imported") from None

    def _safe_dir(self, path: Path) -> None:
        """Make ``path`` (under the submissions folder); a link on the way is refused."""
        for part in (self.root / HISTORY, self.folder, path):
            if part.is_symlink():
                raise ValueError(f"{part}: is a link; nothing written")
            part.mkdir(exist_ok=True)

    def add(self, attempt: Attempt, files: Mapping[str, bytes]) -> bool:
        """Record an attempt and keep its files; False if it is recorded already: the same files at
        the same time, or (Canvas) the same uploaded files by their ids, from another download."""
        ids = attempt.extra.get("canvas_file_ids")
        for known in self.attempts:
            if known.digest == attempt.digest and (abs((known.time - attempt.time).total_seconds()) < 2
                                                   or (ids and known.extra.get("canvas_file_ids") == ids)):
                return False
        stamp = attempt.time.astimezone(timezone.utc).strftime("%Y%m%dT%H%M%SZ")
        attempt.folder = f"{stamp}-{attempt.digest[:12]}"
        target = self.folder / attempt.folder
        self._safe_dir(self.folder)
        if not target.exists():
            tmp = Path(tempfile.mkdtemp(prefix=".tmp-", dir=self.folder))
            for name, data in files.items():
                assert NAME.match(name) and "/" not in name
                (tmp / name).write_bytes(data)
            os.replace(tmp, target)
        self.attempts.append(attempt)
        self.attempts.sort(key=lambda a: (a.time, a.digest))
        return True

    def files_of(self, attempt: Attempt) -> dict[str, bytes]:
        return folder_files(self.folder / attempt.folder)

    def keep_current(self, now: datetime) -> Attempt | None:
        """Record what ``<submissions>/<login>/`` holds now, if no attempt has its files (so that
        installing another attempt over it loses nothing); its time is its newest file's."""
        current = self.root / self.login
        if not current.is_dir() or current.is_symlink():
            return None
        files = folder_files(current)
        if not files:
            return None
        d = digest(files)
        if any(a.digest == d for a in self.attempts):
            return None
        newest = max((current / n).stat().st_mtime for n in files)
        attempt = Attempt(datetime.fromtimestamp(newest, timezone.utc), d, sorted(files),
                          f"found in {self.login}/ before the import of {now.isoformat(timespec='seconds')}",
                          extra={"found": True})
        self.add(attempt, files)
        return attempt

    def install(self, attempt: Attempt) -> None:
        """Make ``attempt`` the graded one: its files become ``<submissions>/<login>/``, swapped in
        whole (the folder it replaces was recorded by :meth:`keep_current`)."""
        current = self.root / self.login
        if current.is_symlink() or (current.exists() and not current.is_dir()):
            raise ValueError(f"{current}: is a {'link' if current.is_symlink() else 'file'}, not a submission "
                             "folder; move it away (nothing written for this student)")
        tmp = Path(tempfile.mkdtemp(prefix=f".{self.login}-", dir=self.root))
        for name, data in self.files_of(attempt).items():
            (tmp / name).write_bytes(data)
        if current.exists():
            old = Path(tempfile.mkdtemp(prefix=f".{self.login}-old-", dir=self.root))
            os.replace(current, old / "x")
            os.replace(tmp, current)
            shutil.rmtree(old)
        else:
            os.replace(tmp, current)
        self.installed = attempt.digest

    def save(self) -> None:
        self._safe_dir(self.folder)
        data = {"login": self.login, "installed": self.installed, "attempts": [a.to_json() for a in self.attempts]}
        tmp = self.folder / f".{RECORD}.tmp"
        tmp.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        os.replace(tmp, self.folder / RECORD)


def recorded_time(path: Path, login: str) -> datetime | None:
    """When the submission at ``path`` (a login's folder) was handed in: the earliest recorded
    attempt with the same files; None if none is recorded (a folder made by hand)."""
    if not path.is_dir() or not LOGIN.match(login):
        return None
    try:
        history = History(path.parent, login)
    except ValueError:
        return None
    if not history.attempts:
        return None
    try:
        d = digest(folder_files(path))
    except OSError:
        return None
    return min((a.time for a in history.attempts if a.digest == d and not a.found), default=None)


__all__ = ["Attempt", "HISTORY", "History", "RECORD", "digest", "folder_files", "recorded_time"]
