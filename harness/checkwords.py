"""What ``harness check`` says in words a student reads: the grading job and the battery's points.

The job is described, not dumped: its settings without the keys left at their defaults
(``"cols": null``), in the game's own words where a value is a structure.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from harness.config import Job


def value_words(value: Any) -> str:
    """A setting's value in words: ``{"random": 4}`` is ``random 4``, a list is its items."""
    if isinstance(value, Mapping):
        return " ".join(f"{k} {value_words(v)}" for k, v in value.items())
    if isinstance(value, (list, tuple)):
        if value and all(not isinstance(v, (list, tuple, Mapping)) for v in value):
            return ", ".join(map(str, value))
        return f"{len(value)} given"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def settings_words(settings: Mapping[str, Any]) -> str:
    """One settings set in words: ``sizex 9, sizey 9, start columns random``; the keys left unset
    (``None``) or empty (no initial walls) are the game's defaults and are not named."""
    parts = [f"{k.replace('_', ' ')} {value_words(v)}" for k, v in sorted(settings.items())
             if v is not None and v != [] and v != {}]
    return ", ".join(parts) or "the game's defaults"


def job_lines(job: Job, games: int, source: str) -> list[str]:
    """The grading job ``check`` plays, in a few lines of words."""
    opponent = "nobody" if job.opponent is None else job.opponent.stem
    sets = job.settings
    lines = [f"Grading job: {job.name} (from {source})",
             f"  {games} games against {opponent}, seats alternating, seeds from {job.seed}"
             + ("" if job.tournament else "; your bot's tournament attribute is False")]
    if len(sets) == 1:
        lines.append(f"  settings: {settings_words(sets[0])}")
    else:
        lines.append(f"  {len(sets)} settings, the games shared among them:")
        lines += [f"    {n}. {settings_words(s)}" for n, s in enumerate(sets, start=1)]
    return lines


def battery_line(result: Any) -> str:
    """``SemBasic: 1 of 2 points (expand_obstacles: 0)``: what the grader's battery would award."""
    battery = result.battery
    lost = [p for p in battery.parts if not result.points_by_part.get(p)]
    why = ("the interface failed" if not result.interface else
           f"lost: {', '.join(lost)}" if lost else "every part passes")
    return f"{battery.title.split(' ')[0]}: {result.points} of {battery.points} points ({why})"


__all__ = ["battery_line", "job_lines", "settings_words", "value_words"]
