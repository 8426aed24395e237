"""The adaptive schedule's plan cache: each wave's outcome, recorded so a reader need not refit it.

Replaying an adaptive job's waves (:meth:`~harness.tournament.adaptive.Planner.walk`) costs a
rating fit per wave: for the shipped ``streky-tournament`` with 300 students about 1,800 waves,
minutes per read. As the runner completes a wave it records the wave's *plan*: the students
still unsettled, why the schedule stopped (or ``""``), the pairs of the next wave and the fitted
log-strengths (the next wave's fit starts from them). A reader takes the plan instead of fitting.

A plan is keyed by a *digest* of everything it depends on, chained wave by wave:

* before wave 0, :func:`planning_digest`: the job's planning inputs (every field of the job but
  those that cannot change a schedule: its folders, worker count, retries, descriptions), the
  entrants in order with their submissions' digests, the game's setup version, and the source of
  the modules that make the schedule (the planner, the fit, the races, the game keys) and
  numpy's version, so a harness whose rule changed never reads an old rule's plans;
* after wave ``k``, :func:`wave_digest`: the digest before it and, in key order, what the
  planner reads of each of its games (the players, their verdicts, the places, the winner, a
  harness fault).

So a changed submission, job or harness misses from wave 0; a game whose result changed (a
harness fault played again) misses from its wave on; a store written before the cache has no
plans and is replayed. A plan is a pure function of its digest: any process may record it
(``INSERT OR IGNORE``), and a stale one can only be unreachable, never read.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass, fields
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np

from harness.record import GameRecord

if TYPE_CHECKING:
    from harness.tournament.job import Job
    from harness.tournament.schedule import Roll

# Job fields that cannot change a schedule (every other field is hashed, so a field added later
# invalidates plans rather than being silently ignored). The entrants stand in for the folders.
UNPLANNED = frozenset({"workers", "results", "retries", "config_file", "description", "roster_file",
                       "submissions", "reference", "opponent", "analysis", "public",
                       "deadline", "late", "interpreter", "cluster"})
# The modules whose code decides the waves (opening, selection, fit, races, keys).
PLANNING_MODULES = ("harness.tournament.adaptive", "harness.tournament.rating", "harness.tournament.standings",
                    "harness.tournament.schedule", "harness.tournament.plancache")

_code: str | None = None


def code_digest() -> str:
    """A digest of the source of the modules that make the schedule, and numpy's version."""
    global _code
    if _code is None:
        import importlib

        h = hashlib.sha256(np.__version__.encode())
        try:
            for name in PLANNING_MODULES:
                h.update(Path(importlib.import_module(name).__file__ or "").read_bytes())
        except OSError:  # no source to read: plans of this process are never read by another
            import uuid

            h.update(uuid.uuid4().bytes)
        _code = h.hexdigest()
    return _code


def planning_digest(job: Job, roll: Roll) -> str:
    """The digest of an adaptive job's planning inputs (the chain's start, before wave 0)."""
    inputs = {f.name: repr(getattr(job, f.name)) for f in fields(job) if f.name not in UNPLANNED}
    inputs["entrants"] = repr([(e.login, e.sha256, e.reference) for e in roll.entrants])
    inputs["setup_version"] = repr(job.spec.setup_version)
    inputs["code"] = code_digest()
    return hashlib.sha256(json.dumps(inputs, sort_keys=True).encode()).hexdigest()


def wave_digest(before: str, games: Iterable[tuple[str, GameRecord]]) -> str:
    """The chain's digest after a wave: ``before`` and what the planner reads of each game
    (``(key, record)`` in key order)."""
    h = hashlib.sha256(before.encode())
    for key, r in games:
        seen = [key, [(p.login, p.verdict.value) for p in r.players], list(r.places), r.winner, r.harness_fault]
        h.update(json.dumps(seen).encode())
    return h.hexdigest()


@dataclass
class Plan:
    """What wave ``wave``'s results decided."""

    wave: int
    unsettled: list[str]
    stopped: str  # "" while the schedule goes on
    planned: list[list[tuple[int, int]]]  # the pairs (entrant indices) of each wave planned after it
    games: int  # games in the complete waves (a check: a plan of another schedule never matches)


class Plans(Protocol):
    """Where plans are kept: by digest."""

    def get(self, digest: str) -> Plan | None: ...

    def theta(self, digest: str) -> np.ndarray | None: ...

    def put(self, digest: str, plan: Plan, theta: np.ndarray) -> None: ...


class MemoryPlans:
    """Plans in a dict (simulations and tests)."""

    def __init__(self) -> None:
        self.plans: dict[str, tuple[Plan, np.ndarray]] = {}

    def get(self, digest: str) -> Plan | None:
        found = self.plans.get(digest)
        return None if found is None else found[0]

    def theta(self, digest: str) -> np.ndarray | None:
        found = self.plans.get(digest)
        return None if found is None else found[1].copy()

    def put(self, digest: str, plan: Plan, theta: np.ndarray) -> None:
        self.plans.setdefault(digest, (plan, theta.copy()))


class StoredPlans:
    """Plans in the job's results store (table ``waves``).

    ``commit_each``: commit each plan as it is recorded (the runner: a plan is never lost to a
    kill); else they are held in memory and written by :meth:`flush` in one short transaction (a
    reader filling the cache of an old store: holding the write lock through a long replay would
    stall a run writing its games). A store the process may not write is read, never filled.
    """

    def __init__(self, db: sqlite3.Connection, job: str, commit_each: bool = True) -> None:
        self.db, self.job, self.commit_each = db, job, commit_each
        self.held: dict[str, tuple[Plan, np.ndarray]] = {}  # recorded, not yet written (commit_each off)
        self.writable = True
        self.chain: list[str] = []  # every digest asked for, in order: the current schedule's waves
        self.hits = self.misses = 0

    def get(self, digest: str) -> Plan | None:
        self.chain.append(digest)
        row = self.db.execute("SELECT plan FROM waves WHERE digest = ?", (digest,)).fetchone()
        if row is None:
            self.misses += 1
            return None
        try:
            data = json.loads(row[0])
            plan = Plan(int(data["wave"]), list(data["unsettled"]), str(data["stopped"]),
                        [[(int(i), int(j)) for i, j in w] for w in data["planned"]], int(data["games"]))
        except (ValueError, KeyError, TypeError):  # a damaged plan is a miss: the wave is refitted
            self.misses += 1
            return None
        self.hits += 1
        return plan

    def theta(self, digest: str) -> np.ndarray | None:
        row = self.db.execute("SELECT theta FROM waves WHERE digest = ?", (digest,)).fetchone()
        return None if row is None else np.frombuffer(row[0], dtype="<f8").copy()

    def put(self, digest: str, plan: Plan, theta: np.ndarray) -> None:
        if not self.writable:
            return
        self.held[digest] = (plan, np.asarray(theta, dtype="<f8").copy())
        if self.commit_each:
            self.flush()

    def flush(self) -> None:
        """Write the plans recorded and not yet written, in one transaction."""
        if not self.writable or not self.held:
            return
        rows = [(digest, self.job, plan.wave,
                 json.dumps({"wave": plan.wave, "unsettled": sorted(plan.unsettled), "stopped": plan.stopped,
                             "planned": [[list(p) for p in w] for w in plan.planned], "games": plan.games}),
                 theta.tobytes()) for digest, (plan, theta) in self.held.items()]
        self.held = {}
        try:
            self.db.executemany("INSERT OR IGNORE INTO waves VALUES (?,?,?,?,?)", rows)
            self.db.commit()
        except sqlite3.OperationalError:  # read-only store, or another writer holds it too long
            self.writable = False
            self.db.rollback()

    def prune(self) -> int:
        """Forget the job's plans that are not on the current chain (after a run played it to its
        end: earlier days' schedules are unreachable); returns how many were removed."""
        if not self.writable:
            return 0
        self.db.execute("CREATE TEMP TABLE IF NOT EXISTS keep_waves (digest TEXT PRIMARY KEY)")
        self.db.execute("DELETE FROM keep_waves")
        self.db.executemany("INSERT OR IGNORE INTO keep_waves VALUES (?)", ((d,) for d in self.chain))
        cur = self.db.execute("DELETE FROM waves WHERE job = ? AND digest NOT IN (SELECT digest FROM keep_waves)",
                              (self.job,))
        self.db.execute("DELETE FROM keep_waves")
        self.db.commit()
        return int(cur.rowcount)


def plan_stats(plans: Any) -> str:
    """``"1760 waves from the cache, 1 fitted"`` for a StoredPlans, else ``""``."""
    if isinstance(plans, StoredPlans):
        return f"{plans.hits} waves from the cache, {plans.misses} fitted"
    return ""


__all__ = ["MemoryPlans", "Plan", "Plans", "StoredPlans", "code_digest", "plan_stats", "planning_digest",
           "wave_digest"]
