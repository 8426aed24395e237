"""The file names of Moodle's and Canvas's bulk downloads, and the roster's students they name.

**Moodle** ("Download all submissions"; ``mod/assign/locallib.php``, ``download_submissions``)
names each file ``<full name>_<participant id>_assignsubmission_<plugin>_`` plus, with
"Download submissions in folders" (the default since Moodle 3.1), ``/`` and the file's own path,
else the file's name right after it: ``Jan Novák_4711_assignsubmission_file_/player.py`` or
``Jan Novák_4711_assignsubmission_file_player.py``. The full name keeps its diacritics (an ``_`` in
it becomes a space); the number is the assignment's participant id, not a user id any roster
holds, so Moodle's students are matched by name. The ``onlinetext`` plugin's files
(``onlinetext.html``) are no part of a bot and are skipped.

**Canvas** (the assignment's "Download Submissions"; canvas-lms ``lib/content_zipper.rb``) names
each file ``<name>[_LATE]_<user id>_<file id>_<file name>``, ``<name>`` being the sortable name
("Novák, Jan") lowercased with everything but letters and digits removed (``novákjan``); ``LATE``
marks a submission Canvas counted late. A file uploaded again under a name the student had
already used is renamed by Canvas with ``-1``, ``-2`` (``player-1.py``): read as ``player.py``.
Canvas's students are matched by user id (the roster's ``canvas id``), else by that name.

Names are compared **without diacritics and case** (Unicode NFKD, the combining marks dropped,
then case-folded; ``ł ø đ æ œ ß`` spelled ``l o d ae oe ss``), so "Novák, Jan", "Jan Novák",
``novakjan`` and ``novákjan`` all name the same student, deterministically and whatever the
zip's tool did to the accents. A Moodle name is compared as a set of words (any order of given
and family names); a Canvas name against the roster name's sortable form, either order. A name
that fits no student, or more than one, is unmapped and listed.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass

from harness.roster import Person

_MOODLE = re.compile(r"^(?P<who>.+?)_(?P<num>\d+)_assignsubmission_(?P<plugin>[a-z0-9]+)_(?P<sep>/?)(?P<rest>.*)$",
                     re.S)
_CANVAS = re.compile(r"^(?P<who>.*?)(?P<late>_LATE)?_(?P<uid>\d+)_(?P<fid>\d+)_(?P<rest>.+)$", re.S)
_CANVAS_TEXT = re.compile(r"^(?P<who>.*?)(?:_LATE)?_(?P<uid>\d+)_(?:text|link)\.html$", re.S)
_RENAMED = re.compile(r"^(?P<stem>.+?)-\d+(?P<ext>\.(?:py|zip))$")
_SPECIAL = str.maketrans({"ł": "l", "Ł": "l", "ø": "o", "Ø": "o", "đ": "d", "Đ": "d", "æ": "ae", "Æ": "ae",
                          "œ": "oe", "Œ": "oe", "ı": "i", "þ": "th", "Þ": "th"})


def fold(text: str) -> str:
    """``text`` without diacritics and case: ``"Nováková, Šárka"`` -> ``"novakova, sarka"``."""
    decomposed = unicodedata.normalize("NFKD", text.translate(_SPECIAL))
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()


def words(text: str) -> frozenset[str]:
    """The folded words of a name, in any order."""
    return frozenset(re.findall(r"\w+", fold(text).replace("_", " ")))


def squashed(text: str) -> str:
    """Canvas's name key: folded, every character that is not a letter or digit removed."""
    return re.sub(r"[\W_]+", "", fold(text))


@dataclass(frozen=True)
class Entry:
    """One file of a bulk download, read from its name."""

    lms: str  # "moodle", "canvas", or "plain" (a zip of one student's files, named by them)
    who: str  # Moodle's full name, Canvas's name key
    number: str  # Moodle's participant id, Canvas's user id
    file: str  # the file's name as the student handed it in ("" if no part of a bot)
    late: bool = False  # Canvas's LATE mark
    skip: str = ""  # why the file is no part of a bot (Moodle's online text, a file in a subfolder)
    file_id: str = ""  # Canvas's id of the uploaded file


def parse(path: str) -> Entry | None:
    """The entry a bulk download's path names, or None if it follows neither LMS's naming."""
    moodle = _MOODLE.match(path)
    if moodle:
        who, num, plugin, rest = moodle["who"], moodle["num"], moodle["plugin"], moodle["rest"]
        if plugin != "file":
            return Entry("moodle", who, num, "", skip=f"Moodle's {plugin} text, no part of a bot")
        if "/" in rest.strip("/"):
            return Entry("moodle", who, num, "", skip="in a subfolder (a bot's files are at one folder level)")
        return Entry("moodle", who, num, rest.strip("/"))
    base = path.rsplit("/", 1)[-1]
    text = _CANVAS_TEXT.match(base)
    if text:
        return Entry("canvas", text["who"], text["uid"], "", skip="Canvas's text entry, no part of a bot")
    canvas = _CANVAS.match(base)
    if canvas:
        name = canvas["rest"]
        renamed = _RENAMED.match(name)
        return Entry("canvas", canvas["who"], canvas["uid"], renamed["stem"] + renamed["ext"] if renamed else name,
                      late=bool(canvas["late"]), file_id=canvas["fid"])
    return None


def canvas_keys(name: str) -> set[str]:
    """The Canvas name keys a roster name may stand for: its sortable form ("Last, First"), and
    both orders of a name written without a comma."""
    if "," in name:
        last, first = name.split(",", 1)
        return {squashed(last + first)}
    parts = name.split()
    if len(parts) < 2:
        return {squashed(name)}
    return {squashed(parts[-1] + "".join(parts[:-1])), squashed("".join(parts))}


class Matcher:
    """Finds the roster's student an entry names (see the module's text for the rules)."""

    def __init__(self, people: Iterable[Person]) -> None:
        self.people = list(people)
        self.by_canvas_id = {p.canvas_id: p for p in self.people if p.canvas_id}
        # Every key computed once (a course of 1,000 students and a download of 2,000 files).
        self.by_canvas_key: dict[str, list[Person]] = {}
        self.by_words: dict[frozenset[str], list[Person]] = {}
        self.by_handle: dict[str, list[Person]] = {}  # the login, the email's local part: folded
        for p in self.people:
            handles = {fold(p.login), *([fold(p.email.split("@")[0])] if p.email else [])}
            for key in canvas_keys(p.name) | {squashed(h) for h in handles}:
                self.by_canvas_key.setdefault(key, []).append(p)
            self.by_words.setdefault(words(p.name), []).append(p)
            for handle in handles:
                self.by_handle.setdefault(handle, []).append(p)

    def _unique(self, found: list[Person], what: str) -> Person | str:
        logins = sorted({p.login for p in found})
        if len(logins) == 1:
            return found[0]
        if logins:
            return f"{what} fits {len(logins)} students of the roster ({', '.join(logins)}); none taken"
        return f"{what} fits no student of the roster"

    def find(self, entry: Entry) -> Person | str:
        """The student, or why there is none (no one, or several)."""
        if entry.lms == "plain":  # a zip named by its student: a login, an email's local part or a name
            key = fold(entry.who)
            found = self.by_handle.get(key) or self.by_canvas_key.get(squashed(entry.who)) or \
                self.by_words.get(words(entry.who), [])
            return self._unique(list(found), f"the zip {entry.who + '.zip'!r}")
        if entry.lms == "canvas":
            if entry.number in self.by_canvas_id:
                return self.by_canvas_id[entry.number]
            key = squashed(entry.who)
            if not key:
                return "no name (Canvas's anonymous grading?)"
            return self._unique(self.by_canvas_key.get(key, []), f"Canvas user {entry.number} {entry.who!r}")
        name = words(entry.who)
        found = list(self.by_words.get(name, []))
        if len(name) == 1:  # a one-word "name": the login or the email's local part
            found += self.by_handle.get(next(iter(name)), [])
        return self._unique(found, f"Moodle name {entry.who!r}")


__all__ = ["Entry", "Matcher", "canvas_keys", "fold", "parse", "squashed", "words"]
