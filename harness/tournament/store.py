"""The results store: one SQLite file per job folder; every game is committed as it finishes.

Schema (versioned in ``meta``): one row per played game, keyed by the game key (see
:mod:`harness.tournament.schedule`), holding the full GameRecord as JSON. A file lock next to
the database stops two runs of the same job at once. SQLite's journal makes each commit
atomic, so a run killed at any moment (even ``kill -9``) loses at most the games in flight.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Iterable, Iterator
from pathlib import Path
from types import TracebackType

from filelock import FileLock, Timeout

from harness.record import GameRecord

SCHEMA_VERSION = 1

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
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.executescript(SCHEMA)
            row = self.db.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone()
            if row is None:
                self.db.execute("INSERT INTO meta VALUES ('schema_version', ?)", (str(SCHEMA_VERSION),))
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

    def records(self, keys: Iterable[str] | None = None) -> Iterator[tuple[str, GameRecord]]:
        """Stored games (all, or those with the given keys), in the order they finished."""
        rows = self._db.execute("SELECT key, record FROM games ORDER BY finished, key")
        wanted = set(keys) if keys is not None else None
        for key, text in rows:
            if wanted is None or key in wanted:
                yield key, GameRecord.from_json(json.loads(text))

    def count(self) -> int:
        return int(self._db.execute("SELECT COUNT(*) FROM games").fetchone()[0])


def open_readonly(folder: Path) -> ResultsStore:
    """A store for reading while a run may be writing (no run lock taken)."""
    if not (Path(folder) / "results.sqlite").exists():
        raise StoreError(f"{folder}: no results yet (run the job first)")
    return ResultsStore(folder, lock=False)


__all__ = ["ResultsStore", "StoreError", "open_readonly", "SCHEMA_VERSION"]
