"""The charge of a late attempt: started days, points or shares, a cap, a last day; one-line key errors."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from harness.keys import ConfigError, Reader
from harness.tournament.lateness import LatePolicy, accepted, charge, days_late, parse_deadline, parse_late

DUE = datetime(2026, 11, 17, 20, 0, tzinfo=timezone(timedelta(hours=1)))


def r(data: dict) -> Reader:
    return Reader(Path("t.yaml"), "jobs.hw", data)


def test_days_are_started_days_after_the_deadline() -> None:
    assert days_late(DUE, DUE) == 0 and days_late(DUE - timedelta(hours=5), DUE) == 0
    assert days_late(DUE + timedelta(seconds=1), DUE) == 1 and days_late(DUE + timedelta(hours=24), DUE) == 1
    assert days_late(DUE + timedelta(hours=24, seconds=1), DUE) == 2


def test_points_shares_caps_and_the_last_day() -> None:
    at = DUE + timedelta(days=2, hours=1)  # 3 started days
    assert charge(5, at, DUE, LatePolicy(1)).penalty == 3
    assert charge(5, at, DUE, LatePolicy(1, cap=2)).penalty == 2
    assert charge(2, at, DUE, LatePolicy(1)).penalty == 2  # never below 0 points
    assert charge(4, at, DUE, LatePolicy(10, per_day_share=True)).penalty == pytest.approx(1.2)
    assert charge(4, at, DUE, LatePolicy(25, per_day_share=True, cap=50, cap_share=True)).penalty == 2
    last = LatePolicy(1, max_days=2)
    assert not accepted(at, DUE, last)
    assert charge(5, at, DUE, last).penalty == 5 and not charge(5, at, DUE, last).accepted
    assert not accepted(at, DUE, None) and accepted(DUE, DUE, None)  # no late: the deadline closes
    assert charge(5, None, DUE, LatePolicy(1)).penalty == 0  # no recorded time: not charged


def test_the_keys_read_and_their_mistakes_are_one_line() -> None:
    assert parse_deadline(r({}), "2026-11-17 20:00 Europe/Prague").utcoffset() == timedelta(hours=1)
    assert parse_deadline(r({}), "2026-07-17 20:00 Europe/Prague").utcoffset() == timedelta(hours=2)  # summer
    assert parse_deadline(r({}), "2026-11-17T19:00:00Z") == DUE
    assert parse_late(r({}), {"per_day": "10%", "max": "3 days"}) == LatePolicy(10, True, max_days=3)
    assert parse_late(r({}), {"per_day": 0.5, "max": 2}) == LatePolicy(0.5, cap=2)
    for bad in ({"per_day": -1}, {"per_day": "lots"}, {"max": 1}, {"per_day": 1, "until": 3}, {"per_day": "150%"},
                [1], {"per_day": 1, "max": "3 weeks"}):
        with pytest.raises(ConfigError) as exc:
            parse_late(r({}), bad)
        assert str(exc.value).startswith("t.yaml: jobs.hw.late") and "\n" not in str(exc.value)
    for bad in ("tomorrow", 17, "2026-11-17T20:00"):
        with pytest.raises(ConfigError) as exc:
            parse_deadline(r({}), bad)
        assert str(exc.value).startswith("t.yaml: jobs.hw.deadline: ")
