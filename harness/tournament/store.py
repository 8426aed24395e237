"""The results store: one SQLite file per job folder; every game is committed as it finishes.

Schema (versioned in ``meta``): ``games``, one row per played game, keyed by the game key (see
:mod:`harness.tournament.schedule`), holding the full GameRecord as JSON; ``grades``, one row
per graded submission of a job that grades submissions rather than playing games (SemBasic);
``runs``, one row per ``harness run`` of the job (its history); ``replaced``, every record a
re-judging took out of ``games`` or ``grades``, with who re-judged it and when
(:mod:`harness.tournament.rejudge`); ``waves``, an adaptive job's
plan cache (:mod:`harness.tournament.plancache`; a store without it is replayed, then filled). A file lock next to the
database stops two runs of the same job at once. SQLite's journal makes each commit atomic, so
a run killed at any moment (even ``kill -9``) loses at most the games in flight. A store of
schema 1 (games only) or 2 (before ``replaced``) is upgraded in place when opened: the new
tables are added, nothing stored changes.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Iterable, Iterator
from pathlib import Path
from types import TracebackType
from typing import Any

from filelock import FileLock, Timeout

from harness.record import GameRecord, Verdict

SCHEMA_VERSION = 3

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS games (
    key TEXT PRIMARY KEY,
    job TEXT NOT NULL,
    game TEXT NOT NULL,
    seed INTEGER NOT NULL,
    logins TEXT NOT NULL,          -- JSON list, seat order
    shas TEXT NOT NULL,            -- JSON list, seat order
    verdicts TEXT NOT NULL,        -- JSON list, seat order
    winner INTEGER,
    harness_fault INTEGER NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 1,
    finished REAL NOT NULL,
    record TEXT NOT NULL           -- the full GameRecord as JSON
);
CREATE INDEX IF NOT EXISTS games_job ON games (job);
CREATE TABLE IF NOT EXISTS grades (
    key TEXT PRIMARY KEY,          -- the submission's login, sha256 and the grading's parameters
    job TEXT NOT NULL,
    login TEXT NOT NULL,
    sha TEXT NOT NULL,
    finished REAL NOT NULL,
    result TEXT NOT NULL           -- the grading's result as JSON
);
CREATE TABLE IF NOT EXISTS waves (
    digest TEXT PRIMARY KEY,       -- of the job's planning inputs and the results of the waves so far
    job TEXT NOT NULL,
    wave INTEGER NOT NULL,
    plan TEXT NOT NULL,            -- JSON: what the wave decided (see harness.tournament.plancache)
    theta BLOB NOT NULL            -- the wave's fitted log-strengths, float64 little-endian
);
CREATE TABLE IF NOT EXISTS runs (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    job TEXT NOT NULL,
    started REAL NOT NULL,
    ended REAL,                    -- NULL while running, or if the run was killed
    status TEXT NOT NULL,          -- running | complete | interrupted | failed
    summary TEXT NOT NULL          -- JSON: games, submissions changed, standings, error
);
CREATE TABLE IF NOT EXISTS replaced (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    key TEXT NOT NULL,             -- the game's (or grading's) key: its new record is stored under it
    job TEXT NOT NULL,
    kind TEXT NOT NULL,            -- game | grade
    login TEXT NOT NULL,           -- the login re-judged
    by TEXT NOT NULL,              -- who re-judged it (the OS user, or --by)
    at REAL NOT NULL,              -- when
    stored REAL NOT NULL,          -- when the replaced record had been stored
    record TEXT NOT NULL           -- the replaced record (a GameRecord or a grading) as JSON
);
"""


class StoreError(RuntimeError):
    """The store cannot be used: locked by another run, or of an unknown schema version."""


class ResultsStore:
    """A job's results: ``with ResultsStore(folder) as store: ...``."""

    def __init__(self, folder: Path, *, lock: bool = True) -> None:
        self.folder = Path(folder)
        self.path = self.folder / "results.sqlite"
        self._lock = FileLock(str(self.folder / "run.lock")) if lock else None
        self.db: sqlite3.Connection | None = None

    def __enter__(self) -> ResultsStore:
        self.folder.mkdir(parents=True, exist_ok=True)
        if self._lock is not None:
            try:
                self._lock.acquire(timeout=0)
            except Timeout:
                raise StoreError(f"{self.folder}: another run of this job is in progress "
                                 f"(lock file {self._lock.lock_file})") from None
        try:
            self.db = sqlite3.connect(self.path, timeout=30)
            try:
                self.db.execute("PRAGMA journal_mode=WAL")
                self.db.executescript(SCHEMA)
            except sqlite3.DatabaseError as exc:
                raise StoreError(f"{self.path}: not a results store ({exc}); move it away to start afresh") from None
            row = self.db.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone()
            if row is None:
                self.db.execute("INSERT INTO meta VALUES ('schema_version', ?)", (str(SCHEMA_VERSION),))
                self.db.commit()
            elif int(row[0]) in (1, 2):  # versions 2 and 3 only added tables (created above)
                self.db.execute("UPDATE meta SET value = ? WHERE key = 'schema_version'", (str(SCHEMA_VERSION),))
                self.db.commit()
            elif int(row[0]) != SCHEMA_VERSION:
                raise StoreError(f"{self.path}: schema version {row[0]}, this harness reads {SCHEMA_VERSION}")
        except BaseException:
            self.close()
            raise
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()

    def close(self) -> None:
        if self.db is not None:
            self.db.close()
            self.db = None
        if self._lock is not None and self._lock.is_locked:
            self._lock.release()

    @property
    def _db(self) -> sqlite3.Connection:
        if self.db is None:
            raise StoreError("the store is not open")
        return self.db

    @property
    def connection(self) -> sqlite3.Connection:
        """The open database (for the plan cache's own table)."""
        return self._db

    def done_keys(self) -> set[str]:
        """Keys of games stored without a harness fault (they are never played again)."""
        return {k for (k,) in self._db.execute("SELECT key FROM games WHERE harness_fault = 0")}

    def put(self, key: str, job: str, record: GameRecord, attempts: int = 1) -> None:
        """Store one finished game and commit at once (replacing an earlier faulty attempt)."""
        self._db.execute(
            "INSERT OR REPLACE INTO games VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
            (key, job, record.game, record.seed, json.dumps([p.login for p in record.players]),
             json.dumps([p.sha256 for p in record.players]),
             json.dumps([p.verdict.value for p in record.players]), record.winner,
             int(record.harness_fault), attempts, time.time(), json.dumps(record.to_json())))
        self._db.commit()

    def fault(self, key: str) -> GameRecord | None:
        """The game stored under ``key`` if it ended in a harness fault (to be played again), else None."""
        row = self._db.execute("SELECT record FROM games WHERE key = ? AND harness_fault = 1", (key,)).fetchone()
        return None if row is None else self._parse(key, row[0])

    def records(self, keys: Iterable[str] | None = None, *, light: bool = False) -> Iterator[tuple[str, GameRecord]]:
        """Stored games (all, or those with the given keys), in the order they finished.

        ``light``: without what standings and exports never read (the moves, the transcript, and
        the output of players without a verdict against them), so holding every game of a large
        store stays small.
        """
        # Light: SQLite's JSON functions cut the moves out in C, so Python parses only the rest.
        column = "json_remove(record, '$.moves', '$.transcript', '$.limits')" if light else "record"
        rows = self._db.execute(f"SELECT key, {column} FROM games ORDER BY finished, key")
        wanted = set(keys) if keys is not None else None
        shared: dict[str, str] = {}  # one copy of each login, digest and bot name over the whole store
        for key, text in rows:
            if wanted is None or key in wanted:
                yield key, self._parse(key, text, light, shared)

    def found(self, keys: Iterable[str], light: bool = False) -> dict[str, GameRecord]:
        """The stored games (without a harness fault) among ``keys``, by key: one indexed query
        per few hundred keys, so a schedule that asks wave by wave never reads the whole store.
        ``light`` as in :meth:`records`."""
        wanted = list(dict.fromkeys(keys))
        out: dict[str, GameRecord] = {}
        column = "json_remove(record, '$.moves', '$.transcript', '$.limits')" if light else "record"
        for start in range(0, len(wanted), 500):
            chunk = wanted[start:start + 500]
            marks = ",".join("?" * len(chunk))
            for key, text in self._db.execute(
                    f"SELECT key, {column} FROM games WHERE harness_fault = 0 AND key IN ({marks})", chunk):
                out[key] = self._parse(key, text, light)
        return out

    def _parse(self, key: str, text: str, light: bool = False, shared: dict[str, str] | None = None) -> GameRecord:
        try:
            data = json.loads(text)
            if light:
                data["moves"], data["transcript"], data["limits"] = [], [], {}
                for player in data["players"]:
                    if not Verdict(player["verdict"]).charged:
                        player["stdout"] = player["stderr"] = player["traceback"] = ""
                    if shared is not None:  # every game repeats them: keep one copy
                        for name in ("login", "sha256", "bot_name"):
                            player[name] = shared.setdefault(player[name], player[name])
            return GameRecord.from_json(data)
        except (ValueError, KeyError, TypeError) as exc:
            raise StoreError(f"{self.path}: the stored game {key} is damaged ({type(exc).__name__}: "
                             f"{str(exc)[:100]})") from None

    def count(self) -> int:
        return int(self._db.execute("SELECT COUNT(*) FROM games").fetchone()[0])

    # ---- grades (submissions graded one by one, e.g. SemBasic) ---------------------------
    def put_grade(self, key: str, job: str, login: str, sha: str, result: dict[str, Any]) -> None:
        """Store one submission's grading and commit at once."""
        self._db.execute("INSERT OR REPLACE INTO grades VALUES (?,?,?,?,?,?)",
                         (key, job, login, sha, time.time(), json.dumps(result)))
        self._db.commit()

    def grades(self, keys: Iterable[str] | None = None) -> dict[str, dict[str, Any]]:
        """Stored gradings by key (all, or those with the given keys)."""
        wanted = set(keys) if keys is not None else None
        return {k: json.loads(t) for k, t in self._db.execute("SELECT key, result FROM grades")
                if wanted is None or k in wanted}

    # ---- re-judging (records replaced, kept with who and when) -------------------------------
    def keys_with(self, login: str) -> list[str]:
        """Keys of the stored games ``login`` played in, in the order they finished."""
        rows = self._db.execute("SELECT key, logins FROM games ORDER BY finished, key")
        return [key for key, logins in rows if login in json.loads(logins)]

    def replace_later(self, keys: Iterable[str], *, grades: bool, login: str, by: str) -> int:
        """Move the stored records with ``keys`` to ``replaced`` (with ``by`` and the time), in
        one transaction, so the next run plays (or grades) them again; returns how many moved."""
        table, kind = ("grades", "grade") if grades else ("games", "game")
        column = "result" if grades else "record"
        now, moved = time.time(), 0
        with self._db:  # one transaction: a record is either still stored or already kept as replaced
            for key in keys:
                row = self._db.execute(f"SELECT job, finished, {column} FROM {table} WHERE key = ?", (key,)).fetchone()
                if row is None:
                    continue
                self._db.execute("INSERT INTO replaced (key, job, kind, login, by, at, stored, record) "
                                 "VALUES (?,?,?,?,?,?,?,?)", (key, row[0], kind, login, by, now, row[1], row[2]))
                self._db.execute(f"DELETE FROM {table} WHERE key = ?", (key,))
                moved += 1
        return moved

    def replaced(self) -> list[dict[str, Any]]:
        """Every replaced record, oldest first: key, kind, login, by, at, stored, and the record as JSON."""
        return [{"key": k, "job": j, "kind": kind, "login": login, "by": by, "at": at, "stored": stored,
                 "record": json.loads(record)}
                for k, j, kind, login, by, at, stored, record in self._db.execute(
                    "SELECT key, job, kind, login, by, at, stored, record FROM replaced ORDER BY id")]

    # ---- runs (the job's history) --------------------------------------------------------
    def start_run(self, job: str, summary: dict[str, Any]) -> int:
        """Record that a run starts; returns its id."""
        cur = self._db.execute("INSERT INTO runs (job, started, ended, status, summary) VALUES (?,?,NULL,?,?)",
                               (job, time.time(), "running", json.dumps(summary)))
        self._db.commit()
        return int(cur.lastrowid or 0)

    def end_run(self, run_id: int, status: str, summary: dict[str, Any]) -> None:
        """Record how a run ended (complete, interrupted, failed) and what it saw."""
        self._db.execute("UPDATE runs SET ended = ?, status = ?, summary = ? WHERE id = ?",
                         (time.time(), status, json.dumps(summary), run_id))
        self._db.commit()

    def runs(self) -> list[dict[str, Any]]:
        """Every run of the job, oldest first: id, started, ended, status and its summary."""
        return [{"id": i, "job": j, "started": s, "ended": e, "status": st, **json.loads(summary)}
                for i, j, s, e, st, summary in
                self._db.execute("SELECT id, job, started, ended, status, summary FROM runs ORDER BY id")]


def open_readonly(folder: Path) -> ResultsStore:
    """A store for reading while a run may be writing (no run lock taken)."""
    if not (Path(folder) / "results.sqlite").exists():
        raise StoreError(f"{folder}: no results yet (run the job first)")
    return ResultsStore(folder, lock=False)


__all__ = ["ResultsStore", "StoreError", "open_readonly", "SCHEMA_VERSION"]
