"""A course roster: every login of the course, and the identities an LMS gradebook needs.

A roster is a text file with one login per line, or a CSV file with a header row that has a
``login`` column. The CSV may add the columns an LMS matches students by (any order, case and
spacing ignored, the names in brackets are accepted too):

- ``name`` (``student``, ``full name``): Canvas's *Student* column;
- ``student id`` (``student_id``, ``sis user id``, ``id number``): Canvas's *SIS User ID*,
  Moodle's *ID number*;
- ``sis login id`` (``sis_login_id``): Canvas's *SIS Login ID*;
- ``section``: Canvas's *Section*;
- ``email`` (``e-mail``, ``email address``): Moodle's *Email address*;
- ``canvas id`` (``canvas_id``, ``canvas user id``): Canvas's own user *ID*.

Other columns are ignored, so a roster exported from the LMS works as it is.
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass
from pathlib import Path

FIELDS = {"login": "login", "name": "name", "student": "name", "full name": "name",
          "student id": "student_id", "sis user id": "student_id", "id number": "student_id",
          "sis login id": "sis_login_id", "section": "section",
          "email": "email", "e-mail": "email", "email address": "email",
          "canvas id": "canvas_id", "canvas user id": "canvas_id"}


class RosterError(ValueError):
    """A roster that cannot be used; the message says why (without the file's name)."""


@dataclass(frozen=True)
class Person:
    """One student of the roster: the login the harness knows, and what the LMS knows."""

    login: str
    name: str = ""
    student_id: str = ""
    sis_login_id: str = ""
    section: str = ""
    email: str = ""
    canvas_id: str = ""


def _field(header: str) -> str | None:
    return FIELDS.get(re.sub(r"[\s_]+", " ", header.strip().lower()))


def read_roster(path: Path) -> list[Person]:
    """The students of a roster file, in its order; :class:`RosterError` if it cannot be used."""
    try:
        text = path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        raise RosterError(f"cannot be read ({getattr(exc, 'strerror', None) or exc})") from None
    rows = [row for row in csv.reader(io.StringIO(text)) if row and row[0].strip() and not row[0].startswith("#")]
    columns = {"login": 0}
    if rows and any(_field(cell) == "login" for cell in rows[0]):
        columns = {}
        for i, cell in enumerate(rows[0]):
            name = _field(cell)
            if name is not None and name not in columns:
                columns[name] = i
        rows = rows[1:]
    people = []
    for row in rows:
        values = {key: row[i].strip() for key, i in columns.items() if i < len(row)}
        if values.get("login"):
            people.append(Person(**values))
    if not people:
        raise RosterError("lists no logins (one per line, or a CSV file with a 'login' column)")
    seen: set[str] = set()
    for p in people:
        if p.login in seen:
            raise RosterError(f"lists {p.login!r} twice")
        seen.add(p.login)
    return people


__all__ = ["Person", "RosterError", "read_roster"]
