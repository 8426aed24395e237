"""Job formats as plug-ins: one module per format, each owning its keys, its waves, its ranking
and its words (see :mod:`harness.tournament.formats.base`).

The runner (:func:`harness.tournament.execute.run_job`), the readers (:func:`job_results`) and
the publishers (:mod:`harness.report`) ask :func:`format_of` instead of branching on
``job.format``. A new format is a module here with a ``FORMAT`` and a line in :data:`FORMATS`.
A game's grading battery is also a format under the battery's own name (Quoridor's
``sembasic``).
"""

from __future__ import annotations

from typing import Any

from harness.coderules.grading import apply_code_rules
from harness.games import game_names, get_game
from harness.tournament.formats import adaptive, battery, gauntlet, round_robin, shuffled
from harness.tournament.lateness import apply_deadline
from harness.tournament.formats.base import Format
from harness.tournament.job import Job
from harness.tournament.results import JobResults
from harness.tournament.schedule import Roll, load_entrants

FORMATS: dict[str, Format] = {m.FORMAT.name: m.FORMAT for m in (gauntlet, round_robin, adaptive, shuffled, battery)}


def format_names() -> tuple[str, ...]:
    """Every name a job's ``format:`` may take: the formats, then the games' batteries."""
    batteries = (get_game(name).battery for name in game_names())
    return tuple(dict.fromkeys([*FORMATS, *(b.name for b in batteries if b is not None)]))


def format_named(name: str) -> Format:
    """The format called ``name`` (a game's battery is the battery format); KeyError if none."""
    if name in FORMATS:
        return FORMATS[name]
    if name in format_names():
        return FORMATS[battery.FORMAT.name]
    raise KeyError(name)


def format_of(job: Job) -> Format:
    """The format of ``job``."""
    return format_named(job.format)


def make_tasks(job: Job, roll: Roll) -> list[Any]:
    """Every game of a fixed schedule (none for an adaptive or a battery job), in a deterministic order."""
    return format_of(job).tasks(job, roll)


def job_results(job: Job, light: bool = False) -> JobResults:
    """The standings of a job from its store, over the games of its current schedule.

    ``light`` records leave out the moves, transcripts and the output of players without a
    verdict against them (see :meth:`ResultsStore.records`): enough for standings and exports,
    not for the report's replays. The games are read in one pass that folds the standings as it
    goes; ``records`` reads them again from the store when asked (:class:`StoredGames`), so
    memory does not grow with the games' size, only with their number (one key each).

    :class:`StoreError` if the job has never been run.
    """
    results = format_of(job).results(job, load_entrants(job), light)
    apply_code_rules(job, results.roll, results.rows)  # the seed's code rules may take points off
    apply_deadline(job, results.rows)  # a job's deadline charges late attempts (lateness.py)
    return results


__all__ = ["FORMATS", "Format", "format_named", "format_names", "format_of", "job_results", "make_tasks"]
