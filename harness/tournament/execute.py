"""Running a job's games: on a local pool of worker processes or on a Dask cluster.

Only the coordinator (this process) writes the store; workers just play a :class:`Task` and
return its record. A game that ends in ``harness_error`` (the harness's own fault, e.g. a lost
worker) is retried a few times and never charged to a bot.
"""

from __future__ import annotations

import multiprocessing
import traceback
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, replace
from typing import Any

from harness.config import Job
from harness.games import get_game
from harness.match import play_match, sha256
from harness.record import GameRecord, PlayerRecord, Verdict
from harness.sandbox.process import Limits
from harness.tournament.schedule import Task, load_entrants, make_tasks
from harness.tournament.store import ResultsStore


def play_task(task: Task) -> dict[str, Any]:
    """Play one task (in a worker) and return its GameRecord as JSON (picklable, small)."""
    game = get_game(task.game)
    record = play_match(game, [e.source for e in task.entrants], settings=task.settings, seed=task.seed,
                        logins=[e.login for e in task.entrants], limits=Limits(**task.limits),
                        tournament=task.tournament)
    return record.to_json()


def fault_record(task: Task, reason: str) -> GameRecord:
    """The record of a game the harness failed to play (charged to no one)."""
    players = [PlayerRecord(e.login, sha256(e.source), Verdict.HARNESS_ERROR, reason) for e in task.entrants]
    return GameRecord(game=task.game, settings=task.settings, seed=task.seed, players=players,
                      end="harness error")


class Executor:
    """Runs tasks, yielding ``(task, record)`` as games finish (in any order)."""

    def run(self, tasks: list[Task]) -> Iterator[tuple[Task, GameRecord]]:
        raise NotImplementedError

    def close(self) -> None:
        """Release the executor's resources."""


class LocalExecutor(Executor):
    """A pool of worker processes on this machine (one game per worker at a time)."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self.pool: ProcessPoolExecutor | None = None

    def _new_pool(self) -> ProcessPoolExecutor:
        # spawn: workers must not inherit the coordinator's open store, lock or threads.
        return ProcessPoolExecutor(self.workers, mp_context=multiprocessing.get_context("spawn"))

    def run(self, tasks: list[Task]) -> Iterator[tuple[Task, GameRecord]]:
        pending = list(reversed(tasks))
        running: dict[Future[dict[str, Any]], Task] = {}
        self.pool = self._new_pool()
        while pending or running:
            while pending and len(running) < 2 * self.workers:  # bounded: sources stay small
                task = pending.pop()
                running[self.pool.submit(play_task, task)] = task
            done, _ = wait(running, return_when=FIRST_COMPLETED)
            broken = False
            for future in done:
                task = running.pop(future)
                try:
                    yield task, GameRecord.from_json(future.result())
                except BrokenProcessPool:
                    broken = True
                    yield task, fault_record(task, "a worker process of the harness died")
                except Exception:  # noqa: BLE001 - any failure here is the harness's
                    yield task, fault_record(task, "the harness failed: " + traceback.format_exc(limit=-2)[-800:])
            if broken:
                # Every game still running on the dead pool is lost; play them again.
                pending.extend(reversed(list(running.values())))
                running.clear()
                self.pool.shutdown(wait=False, cancel_futures=True)
                self.pool = self._new_pool()
        self.close()

    def close(self) -> None:
        if self.pool is not None:
            self.pool.shutdown(wait=True, cancel_futures=True)
            self.pool = None


class DaskExecutor(Executor):
    """The same games on a Dask cluster (``distributed``): each task carries the sources."""

    def __init__(self, address: str) -> None:
        try:
            from distributed import Client
        except ImportError:
            raise RuntimeError("--scheduler needs Dask's distributed: pip install 'bot-harness[dask]'") from None
        self.client = Client(address)

    def run(self, tasks: list[Task]) -> Iterator[tuple[Task, GameRecord]]:
        from distributed import as_completed

        futures = {self.client.submit(play_task, t, key=f"game-{t.key}-{id(t)}", pure=False): t for t in tasks}
        for future in as_completed(futures):
            task = futures[future]
            try:
                yield task, GameRecord.from_json(future.result())
            except Exception:  # noqa: BLE001 - a lost worker or any harness failure
                yield task, fault_record(task, "the harness failed on a Dask worker: "
                                         + traceback.format_exc(limit=-1)[-800:])

    def close(self) -> None:
        self.client.close()


@dataclass
class RunSummary:
    """What one ``harness run`` of a job did."""

    job: str
    total: int  # games in the schedule
    reused: int  # already stored, not replayed
    played: int
    faults: int  # games that still ended in harness_error after the retries


ProgressFactory = Callable[[int, int, str], Any]  # (total, already done, label) -> progress bar


def run_job(job: Job, executor: Executor, progress: ProgressFactory | None = None,
            before_play: Callable[[Job], None] | None = None) -> RunSummary:
    """Play every game of ``job`` not yet in its store, committing each as it finishes.

    ``before_play`` runs once the store is locked and only if there is a game to play (the
    timing self-check): a run that reuses every game needs no fair clock.
    """
    entrants, opponent = load_entrants(job)
    tasks = make_tasks(job, entrants, opponent)
    with ResultsStore(job.results) as store:
        done = store.done_keys()
        todo = [t for t in tasks if t.key not in done]
        if todo and before_play is not None:
            before_play(job)
        bar = progress(len(tasks), len(tasks) - len(todo), job.name) if progress else None
        attempts = {t.key: 0 for t in todo}
        played = faults = 0
        while todo:
            retry: list[Task] = []
            for task, record in executor.run(todo):
                attempts[task.key] += 1
                if record.harness_fault and attempts[task.key] <= job.retries:
                    retry.append(task)
                    continue
                store.put(task.key, job.name, record, attempts[task.key])
                played += 1
                faults += int(record.harness_fault)
                if bar is not None:
                    bar.update(1)
            todo = retry
        if bar is not None:
            bar.close()
    return RunSummary(job.name, len(tasks), len(tasks) - len(attempts), played, faults)


def with_workers(job: Job, workers: int | None) -> Job:
    """``job`` with another worker count (from the command line)."""
    return job if workers is None else replace(job, workers=workers)


__all__ = ["DaskExecutor", "Executor", "LocalExecutor", "RunSummary", "play_task", "run_job",
           "with_workers"]
