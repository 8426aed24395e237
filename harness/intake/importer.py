"""``harness import``: a Moodle or Canvas bulk download into a job's submissions folder.

Each file of the download is read from its name (:mod:`harness.intake.names`), mapped to a login
through the roster, and read (capped) from the zip (:mod:`harness.intake.archive`). A student's
files of one download form one attempt, at the newest of their times; a file name present twice
(Canvas's ``player.py`` and ``player-1.py``: a renamed resubmission) makes one attempt per
version, oldest first. Every attempt is recorded with its time (:mod:`harness.intake.attempts`),
and the newest one the deadline accepts is installed as ``<into>/<login>/``: with ``late:`` the
newest of all (charged when the job is graded), with a deadline that closes the newest on time.
Only ``.py`` files and ``player.zip`` are a bot's; other files are skipped and counted.

**Times.** Moodle's entry time is the file's upload. Canvas writes the time it made the zip, so a
Canvas attempt's time is when it was first downloaded: an upper bound of its upload. An attempt
Canvas did not mark ``LATE`` was on time by Canvas's own due date, so its time is capped at the
deadline; a ``LATE`` one is charged from its download time: download at least daily after the
deadline (a folder of the downloads keeps each attempt's first appearance) to charge it to the day.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone, tzinfo
from pathlib import Path
from typing import Any

from harness.intake.archive import MAX_TOTAL, IntakeError, RawFile, cap_for, read_capped, source_files
from harness.intake.attempts import LOGIN, Attempt, History, digest, folder_files
from harness.intake.names import Entry, Matcher, parse
from harness.roster import Person
from harness.submission import NAME, ZIP
from harness.tournament.lateness import LatePolicy, accepted, days_late, shown


# Where an attempt's time comes from (recorded with it). Moodle adds each file to the zip from its
# stored content file (``stored_file::archive_file``), so the entry's time is the upload's; Canvas's
# rubyzip writes each entry with the time the zip was made (``get_output_stream`` without a time).
TIME_FROM = {"moodle": "the zip entry's time (Moodle: when the file was uploaded)",
             "canvas": "the zip entry's time (Canvas: when the download was made, an upper bound)",
             "plain": "the plain zip file's modification time (when it was saved here)"}


@dataclass
class ImportReport:
    """What an import did: one line per student, per unmapped name, per problem."""

    students: list[str] = field(default_factory=list)
    unmapped: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    skipped: dict[str, int] = field(default_factory=dict)  # why -> how many files
    attempts_new: int = 0
    installed: int = 0

    def lines(self) -> list[str]:
        skipped = [f"skipped {n} file{'s' if n != 1 else ''}: {why}" for why, n in sorted(self.skipped.items())]
        return [*self.students, *self.unmapped, *self.problems, *skipped]


def _bot_file(name: str) -> bool:
    return bool(NAME.match(name)) and (name.endswith(".py") or name == ZIP)


@dataclass
class _Version:
    time: datetime
    data: bytes
    late_mark: bool
    source: str
    lms: str
    file_id: str = ""


def _attempts(files: dict[str, list[_Version]]) -> list[tuple[datetime, dict[str, bytes], bool, str, str,
                                                               list[str]]]:
    """A student's files of one download as attempts: the i-th attempt takes the i-th version of
    each file (its last, if it has fewer); oldest first."""
    for versions in files.values():
        versions.sort(key=lambda v: v.time)
    count = max(len(v) for v in files.values())
    out = []
    for i in range(count):
        chosen = {name: versions[min(i, len(versions) - 1)] for name, versions in files.items()}
        own = [v for name, v in chosen.items() if len(files[name]) > i] or list(chosen.values())
        out.append((max(v.time for v in own), {n: v.data for n, v in chosen.items()},
                    any(v.late_mark for v in chosen.values()), own[0].source, own[0].lms,
                    sorted(v.file_id for v in chosen.values() if v.file_id)))
    return out


def plain_entry(raw: RawFile) -> Entry:
    """A file of a plain zip (one student's files): its owner is the zip's name."""
    if "/" in raw.path.strip("/"):
        return Entry("plain", raw.owner, "", "", skip="in a subfolder (a bot's files are at one folder level)")
    return Entry("plain", raw.owner, "", raw.path.strip("/"))


def choose(attempts: Sequence[Attempt], deadline: datetime | None, late: LatePolicy | None) -> Attempt | None:
    """The attempt to grade: the newest uploaded one the deadline accepts (any, without a deadline);
    what a folder held before an import only when nothing was uploaded."""
    uploaded = [a for a in attempts if not a.found] or list(attempts)  # a folder's old content: no upload time
    ok = [a for a in uploaded if deadline is None or accepted(a.time, deadline, late)]
    return ok[-1] if ok else None


def import_download(source: Path, into: Path, people: Iterable[Person], *, zone: tzinfo,
                    deadline: datetime | None = None, late: LatePolicy | None = None,
                    now: datetime | None = None) -> ImportReport:
    """Import ``source`` (a zip or a folder) into ``into``; :class:`IntakeError` (one line) if the
    source is refused as a whole (then nothing is written)."""
    now = now or datetime.now(timezone.utc)
    report = ImportReport()
    raws = source_files(source, zone)
    matcher = Matcher(people)
    by_login: dict[str, dict[str, dict[str, list[_Version]]]] = defaultdict(lambda: defaultdict(dict))
    unmapped: dict[str, str] = {}
    total = 0
    wanted: list[tuple[str, str, RawFile, Entry]] = []
    for raw in raws:  # every check before anything is written: a refused file stops nothing else
        entry = parse(raw.path) if not raw.owner else plain_entry(raw)
        if entry is None:
            why = "named in neither Moodle's nor Canvas's way"
            report.skipped[why] = report.skipped.get(why, 0) + 1
            continue
        if entry.skip:
            report.skipped[entry.skip] = report.skipped.get(entry.skip, 0) + 1
            continue
        who = matcher.find(entry)
        if isinstance(who, str):
            key = f"{entry.lms} {entry.who!r} ({entry.number})"
            unmapped.setdefault(key, f"unmapped: {raw.source}: {raw.path!r}: {who}")
            continue
        if not LOGIN.match(who.login):
            report.problems.append(f"{who.login!r}: not usable as a folder name; skipped")
            continue
        if not _bot_file(entry.file) and entry.file.lower().endswith((".py", ".zip")):  # meant as the bot's
            report.problems.append(f"{who.login}: {raw.source}: {entry.file!r} is not a name a bot's file may have "
                                   f"(letters, digits, _ . -; the zip is player.zip); skipped")
            continue
        if not _bot_file(entry.file):
            why = "no part of a bot (a bot is .py files or player.zip)"
            report.skipped[why] = report.skipped.get(why, 0) + 1
            continue
        total += min(raw.size, cap_for(entry.file))
        wanted.append((who.login, entry.file, raw, entry))
    if total > MAX_TOTAL:
        raise IntakeError(f"{source}: {total} bytes of bot files (at most {MAX_TOTAL}); nothing imported")
    read = 0
    for login, name, raw, entry in wanted:
        data = read_capped(raw, cap_for(name))
        if data is None:
            report.problems.append(f"{login}: {raw.source}: {raw.path!r} is larger than {cap_for(name)} bytes "
                                   "unpacked; skipped")
            continue
        read += len(data)
        if read > MAX_TOTAL:
            raise IntakeError(f"{source}: more than {MAX_TOTAL} bytes unpacked; stopped")
        by_login[login][raw.source].setdefault(name, []).append(_Version(raw.time, data, entry.late, raw.source,
                                                                                   entry.lms, entry.file_id))
    report.unmapped = list(unmapped.values())
    into.mkdir(parents=True, exist_ok=True)
    for login in sorted(by_login):
        try:
            report.students.append(_install(into, login, by_login[login], deadline, late, now, report))
        except ValueError as exc:  # this student's history or folder is unusable: the others go on
            report.problems.append(f"{login}: {exc}")
    return report


def _install(into: Path, login: str, sources: dict[str, dict[str, list[_Version]]], deadline: datetime | None,
             late: LatePolicy | None, now: datetime, report: ImportReport) -> str:
    """Record one student's attempts and install the one to grade; the student's line."""
    history = History(into, login)
    history.keep_current(now)
    new = 0
    for files in sources.values():
        for time, content, late_mark, source, lms, ids in _attempts(files):
            extra: dict[str, Any] = {"imported": now.isoformat(timespec="seconds"), "time_from": TIME_FROM[lms]}
            if ids:
                extra["canvas_file_ids"] = ids
            if lms == "canvas" and not late_mark and deadline is not None and time > deadline:
                time, extra["time_from"] = deadline, "the deadline: Canvas did not mark it LATE (downloaded later)"
            attempt = Attempt(time, digest(content), sorted(content), source, late_mark, extra=extra)
            new += history.add(attempt, content)
    report.attempts_new += new
    chosen = choose(history.attempts, deadline, late)
    where = deadline or history.attempts[-1].time
    count = f"{len(history.attempts)} attempt{'s' if len(history.attempts) != 1 else ''} ({new} new)"
    if chosen is None:
        history.save()
        return (f"{login}: {count}; every one is after the deadline {shown(deadline or now, where)} and not "
                "accepted: nothing installed")
    current = into / login
    same = current.is_dir() and digest(folder_files(current)) == chosen.digest
    if not same:
        history.install(chosen)
        report.installed += 1
    history.installed = chosen.digest
    history.save()
    when = shown(chosen.time, where)
    lateness = ""
    if deadline is not None:
        days = days_late(chosen.time, deadline)
        lateness = ", on time" if days == 0 else f", {days} day{'s' if days != 1 else ''} late"
    newer = [a for a in history.attempts if a.time > chosen.time and not a.found]
    left = f"; {len(newer)} later attempt{'s' if len(newer) != 1 else ''} not accepted" if newer else ""
    return f"{login}: {count}; graded: {when}{lateness}{' (installed)' if not same else ' (already in place)'}{left}"


__all__ = ["ImportReport", "choose", "import_download"]
