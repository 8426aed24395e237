"""A job's deadline and late policy: the ``deadline:`` and ``late:`` keys, and what they charge.

``deadline:`` is a date and time with its time zone: ``2026-11-17T20:00:00+01:00`` (YAML reads it
as a date-time) or ``"2026-11-17 20:00 Europe/Prague"`` (a zone by name, daylight saving time
included). ``late: {per_day: P, max: M}`` says what an attempt after it costs:

* ``per_day``: points off per started day (24 h) after the deadline (``1``), or a share of the
  points the submission earned (``"10%"``);
* ``max`` (optional): the most it costs, in points (``3``) or a share (``"50%"``), or the last day
  an attempt is accepted at all (``"3 days"``): a later one is not accepted.

A job with a ``deadline`` and no ``late`` has a deadline that closes, as the seed's submission
system did ("odevzdávarena sa v danom čase zatvára"): an attempt after it is not accepted. An
attempt not accepted is never installed by ``harness import`` (the newest accepted one is); one
found graded anyway (a folder copied by hand) gets 0 points.

The time of a graded submission is the time ``harness import`` recorded for the attempt with its
content (:mod:`harness.intake.attempts`): the earliest attempt of identical files, so handing in
the same files again late costs nothing. A submission without a recorded attempt (placed by hand)
has no time and is not charged; the exports say so (``submitted`` empty).
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from harness.keys import ConfigError, Reader

DAY = 86400.0
_ZONED = re.compile(r"^\s*(\d{4}-\d{2}-\d{2}[T ]\d{1,2}:\d{2}(?::\d{2})?)\s+([A-Za-z_]+(?:/[A-Za-z0-9_+-]+)*)\s*$")
_SHARE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*%\s*$")
_DAYS = re.compile(r"^\s*(\d+)\s*(?:d|days?)\s*$")


@dataclass(frozen=True)
class LatePolicy:
    """``late: {per_day, max}``: the charge per started day late, and its cap or last day."""

    per_day: float  # points, or a percentage when ``per_day_share``
    per_day_share: bool = False
    cap: float | None = None  # at most this many points off (a percentage when ``cap_share``)
    cap_share: bool = False
    max_days: int | None = None  # an attempt more days late than this is not accepted

    def describe(self) -> str:
        """``"1 point off per started day late, at most 3 days"``."""
        per = f"{self.per_day:g}% of the points" if self.per_day_share else f"{self.per_day:g} point" + \
            ("" if self.per_day == 1 else "s")
        text = f"{per} off per started day late"
        if self.cap is not None:
            text += f", at most {self.cap:g}{'%' if self.cap_share else ' points'}"
        if self.max_days is not None:
            text += f"; not accepted more than {self.max_days} day{'s' if self.max_days != 1 else ''} late"
        return text


@dataclass(frozen=True)
class Lateness:
    """What the deadline did to one student's graded submission."""

    submitted: datetime | None  # the recorded time of the graded attempt, if any
    days: int = 0  # started days after the deadline (0: on time)
    accepted: bool = True  # False: after a deadline that closes (0 points)
    penalty: float = 0.0  # points taken off


def parse_deadline(r: Reader, raw: Any) -> datetime:
    """``deadline:`` as an aware date-time; :class:`ConfigError` (one line) if it has no time zone."""
    example = "e.g. 2026-11-17T20:00:00+01:00 or '2026-11-17 20:00 Europe/Prague'"
    if isinstance(raw, datetime):
        value = raw
    elif isinstance(raw, date):
        raise r.fail("deadline", f"needs a time and a time zone, not only a date ({example})")
    elif isinstance(raw, str):
        zoned = _ZONED.match(raw)
        try:
            if zoned:
                local = datetime.fromisoformat(zoned.group(1).replace(" ", "T"))
                value = local.replace(tzinfo=ZoneInfo(zoned.group(2)))
            else:
                value = datetime.fromisoformat(raw.strip().replace("Z", "+00:00"))
        except ZoneInfoNotFoundError:
            raise r.fail("deadline", f"unknown time zone {zoned.group(2) if zoned else raw!r}") from None
        except ValueError:
            raise r.fail("deadline", f"not a date and time: {raw!r} ({example})") from None
    else:
        raise r.fail("deadline", f"must be a date and time with a time zone ({example}), got {raw!r}")
    if value.tzinfo is None or value.utcoffset() is None:
        raise r.fail("deadline", f"must say its time zone ({example}), got {raw!s}")
    return value


def _amount(r: Reader, key: str, raw: Any, *, days: bool) -> tuple[float, bool] | int:
    """A number of points, a ``"N%"`` share, or (``days``) a ``"N days"`` count."""
    if type(raw) in (int, float) and raw >= 0 and math.isfinite(raw):
        return float(raw), False
    if isinstance(raw, str):
        share = _SHARE.match(raw)
        if share:
            return float(share.group(1)), True
        count = _DAYS.match(raw)
        if days and count:
            return int(count.group(1))
    what = "points (e.g. 1), a share of the points (e.g. '10%')" + (" or a number of days (e.g. '3 days')"
                                                                     if days else "")
    raise r.fail(f"late.{key}", f"must be {what}, got {raw!r}")


def parse_late(r: Reader, raw: Any) -> LatePolicy:
    """``late: {per_day: P, max: M}``; :class:`ConfigError` (one line) if it is not that."""
    if not isinstance(raw, dict) or "per_day" not in raw or set(raw) - {"per_day", "max"}:
        raise r.fail("late", "must be a mapping {per_day: points or 'N%', max: points, 'N%' or 'N days'}, "
                             f"got {raw!r}")
    per = _amount(r, "per_day", raw["per_day"], days=False)
    assert isinstance(per, tuple)
    policy = LatePolicy(per[0], per[1])
    if "max" in raw:
        cap = _amount(r, "max", raw["max"], days=True)
        if isinstance(cap, int):
            policy = LatePolicy(per[0], per[1], max_days=cap)
        else:
            policy = LatePolicy(per[0], per[1], cap=cap[0], cap_share=cap[1])
    if (policy.per_day_share and policy.per_day > 100) or (policy.cap_share and (policy.cap or 0) > 100):
        raise r.fail("late", "a share is at most 100%")
    return policy


def read_deadline(r: Reader) -> tuple[datetime | None, LatePolicy | None]:
    """A job's ``deadline`` and ``late`` keys (``late`` needs a ``deadline``)."""
    deadline = parse_deadline(r, r.data["deadline"]) if "deadline" in r.data else None
    late = parse_late(r, r.data["late"]) if "late" in r.data else None
    if late is not None and deadline is None:
        raise ConfigError(f"{r.path}: {r.where}.late: needs a deadline (add deadline: ...)")
    return deadline, late


def days_late(submitted: datetime, deadline: datetime) -> int:
    """Started days (24 h) after the deadline: 0 on time, 1 up to a day late, and so on."""
    seconds = (submitted - deadline).total_seconds()
    return 0 if seconds <= 0 else math.ceil(seconds / DAY)


def accepted(submitted: datetime, deadline: datetime, late: LatePolicy | None) -> bool:
    """Whether an attempt at ``submitted`` is accepted (a deadline without ``late`` closes)."""
    days = days_late(submitted, deadline)
    if days == 0:
        return True
    return late is not None and (late.max_days is None or days <= late.max_days)


def charge(points: float, submitted: datetime | None, deadline: datetime, late: LatePolicy | None) -> Lateness:
    """What ``points`` earned by an attempt at ``submitted`` lose to the deadline."""
    if submitted is None:
        return Lateness(None)
    days = days_late(submitted, deadline)
    if days == 0:
        return Lateness(submitted)
    if not accepted(submitted, deadline, late):
        return Lateness(submitted, days, False, points)
    assert late is not None
    off = points * late.per_day / 100 * days if late.per_day_share else late.per_day * days
    if late.cap is not None:
        off = min(off, points * late.cap / 100 if late.cap_share else late.cap)
    return Lateness(submitted, days, True, round(min(points, off), 6))


def shown(moment: datetime, deadline: datetime) -> str:
    """A time as the course reads it: in the deadline's time zone, to the second."""
    return moment.astimezone(deadline.tzinfo).isoformat(timespec="seconds")


def lateness_text(job_deadline: datetime, late: LatePolicy | None, lateness: Lateness) -> str:
    """The student's line: when the graded attempt was handed in and what it cost."""
    due = shown(job_deadline, job_deadline)
    if lateness.submitted is None:
        return f"Deadline {due}; no upload time is recorded for this submission (not charged)."
    at = shown(lateness.submitted, job_deadline)
    if lateness.days == 0:
        return f"Submitted {at}, on time (deadline {due})."
    days = f"{lateness.days} day{'s' if lateness.days != 1 else ''}"
    if not lateness.accepted:
        rule = "the deadline closes" if late is None else late.describe()
        return f"Submitted {at}, {days} after the deadline ({due}): not accepted ({rule}); 0 points."
    assert late is not None
    return (f"Submitted {at}, {days} after the deadline ({due}): {lateness.penalty:g} point"
            f"{'s' if lateness.penalty != 1 else ''} off ({late.describe()}).")


def apply_deadline(job: Any, rows: Sequence[Any]) -> None:  # (a Job and its Rows: job.py imports this module)
    """Charge every student's row of a job with a ``deadline`` (nothing for a job without one).

    Each student's row gets the columns ``submitted`` (the graded attempt's recorded time in the
    deadline's zone, or empty), ``late_days`` and ``late_penalty`` (in ``extra``: the exports show
    them, and only for such jobs), and loses the penalty from its points."""
    if job.deadline is None:
        return
    from harness.intake.attempts import recorded_time

    where = {ref.login: ref.path for ref in job.submissions}
    for row in rows:
        if row.reference:
            continue
        path = where.get(row.login)
        submitted = recorded_time(path, row.login) if path is not None else None
        lateness = charge(row.points, submitted, job.deadline, job.late)
        row.points = round(max(0.0, row.points - lateness.penalty), 6)
        row.extra.update({"submitted": shown(submitted, job.deadline) if submitted else "",
                          "late_days": lateness.days, "late_penalty": _number(lateness.penalty)})


def _number(value: float) -> int | float:
    """A whole number of points as an integer (the CSV shows ``1``, as it shows the points), else rounded."""
    return int(value) if float(value).is_integer() else round(value, 6)


def row_lateness(job: Any, extra: dict[str, Any]) -> Lateness | None:
    """The lateness :func:`apply_deadline` put on a row (None for a job without a deadline)."""
    if job.deadline is None or "late_days" not in extra:
        return None
    submitted = datetime.fromisoformat(extra["submitted"]) if extra.get("submitted") else None
    ok = submitted is None or accepted(submitted, job.deadline, job.late)
    return Lateness(submitted, int(extra["late_days"]), ok, float(extra["late_penalty"]))


__all__ = ["LatePolicy", "Lateness", "accepted", "apply_deadline", "charge", "days_late", "lateness_text",
           "parse_deadline", "parse_late", "read_deadline", "row_lateness", "shown"]
