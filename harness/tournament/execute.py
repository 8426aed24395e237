"""Running a job's games: on a local pool of worker processes or on a Dask cluster.

Only the coordinator (this process) writes the store; workers just play a :class:`Task` (or
grade a submission) and return the result. A game that ends in ``harness_error`` (the
harness's own fault, e.g. a lost worker) is retried a few times and never charged to a bot.

Shutdown: the pool's workers ignore Ctrl-C and die with the coordinator (``PR_SET_PDEATHSIG``),
so do the bots they run; when the coordinator is interrupted (Ctrl-C, SIGTERM, SIGHUP) it kills
its workers at once, keeps every finished game, records the run as interrupted and exits
non-zero; the next run resumes. Each run is recorded in the store (the job's history).
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import sys
import traceback
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field, replace
from typing import Any

from harness.record import GameRecord
from harness.tournament.formats import format_of
from harness.tournament.job import Job
from harness.tournament.schedule import Roll, load_entrants
from harness.tournament.store import ResultsStore
from harness.tournament.work import Work, fault_record, play_task


def die_with_parent() -> None:
    """In a pool worker: die with the coordinator (Linux), and leave Ctrl-C to the coordinator."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if sys.platform.startswith("linux"):
        import ctypes

        parent = os.getppid()
        try:
            ctypes.CDLL(None, use_errno=True).prctl(1, int(signal.SIGKILL))  # 1 = PR_SET_PDEATHSIG
        except (OSError, AttributeError):
            return
        if os.getppid() != parent:  # the coordinator died before the request took effect
            os._exit(1)


class Executor:
    """Runs tasks, yielding ``(task, result JSON or None, fault reason)`` as they finish, any order.

    A ``live`` executor given a :class:`~collections.deque` takes its tasks from it as it goes,
    so the caller may add tasks while it iterates (an adaptive schedule's next wave).
    """

    live = False

    def run(self, tasks: Sequence[Any], work: Work) -> Iterator[tuple[Any, dict[str, Any] | None, str]]:
        raise NotImplementedError

    def close(self) -> None:
        """Release the executor's resources (promptly: running work is abandoned)."""

    def prepare(self, job: Job) -> list[str]:
        """Before a job plays: lines to report (e.g. cluster workers refused by the self-check)."""
        return []


class LocalExecutor(Executor):
    """A pool of worker processes on this machine (one game per worker at a time)."""

    live = True

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self.pool: ProcessPoolExecutor | None = None

    def _new_pool(self) -> ProcessPoolExecutor:
        # spawn: workers must not inherit the coordinator's open store, lock or threads.
        return ProcessPoolExecutor(self.workers, mp_context=multiprocessing.get_context("spawn"),
                                   initializer=die_with_parent)

    def run(self, tasks: Sequence[Any], work: Work) -> Iterator[tuple[Any, dict[str, Any] | None, str]]:
        # A deque is the caller's own, read live: tasks it adds while we iterate are played too.
        pending = tasks if isinstance(tasks, deque) else deque(tasks)
        running: dict[Future[dict[str, Any]], Any] = {}
        if self.pool is None:  # kept between calls: an adaptive job's waves share one pool
            self.pool = self._new_pool()
        while pending or running:
            while pending and len(running) < 2 * self.workers:  # bounded: sources stay small
                task = pending.popleft()
                running[self.pool.submit(work, task)] = task
            done, _ = wait(running, return_when=FIRST_COMPLETED)
            broken = False
            for future in done:
                task = running.pop(future)
                try:
                    yield task, future.result(), ""
                except BrokenProcessPool:
                    broken = True
                    yield task, None, "a worker process of the harness died"
                except Exception:  # noqa: BLE001 - any failure here is the harness's
                    yield task, None, "the harness failed: " + traceback.format_exc(limit=-2)[-800:]
            if broken:
                # Every game still running on the dead pool is lost; play them again.
                pending.extendleft(reversed(list(running.values())))
                running.clear()
                self._kill()
                self.pool = self._new_pool()

    def _kill(self) -> None:
        pool, self.pool = self.pool, None
        if pool is None:
            return
        # The pool's feeder thread may be blocked writing tasks (bots' code: tens of KiB each)
        # into a full pipe that only the workers killed below would read; shutdown() joins that
        # thread, and so does the interpreter's exit: a run hung for good on Ctrl-C, SIGTERM or
        # a lost worker. Not joined, it ends with the process (it is a daemon thread).
        queue = getattr(pool, "_call_queue", None)
        if queue is not None:
            queue.cancel_join_thread()
        for process in list(getattr(pool, "_processes", {}).values()):  # their bots die with them
            try:
                process.kill()
            except (OSError, AttributeError):
                pass
        pool.shutdown(wait=True, cancel_futures=True)

    def close(self) -> None:
        self._kill()


@dataclass
class RunSummary:
    """What one ``harness run`` of a job did."""

    job: str
    total: int  # games (or gradings) in the schedule
    reused: int  # already stored, not replayed
    played: int
    faults: int  # games that still ended in harness_error after the retries
    refused: list[str] = field(default_factory=list)  # lines from the executor's preparation
    rejudged: dict[str, Any] | None = None  # what --rejudge took out (see harness.tournament.rejudge)


ProgressFactory = Callable[[int, int, str], Any]  # (total, already done, label) -> progress bar


def submissions_snapshot(roll: Roll) -> dict[str, str]:
    """login -> sha256 of each student's submission ("" for a student without a usable one)."""
    snap = {e.login: e.sha256 for e in roll.entrants if not e.reference}
    snap.update({a.login: "" for a in roll.absent})
    return snap


def compare_snapshots(before: dict[str, str] | None, now: dict[str, str]) -> dict[str, list[str]]:
    """Which submissions were added, changed and removed since the previous run."""
    before = before or {}
    return {"added": sorted(k for k in now if k not in before or (now[k] and not before[k])),
            "changed": sorted(k for k in now if before.get(k) and now[k] and before[k] != now[k]),
            "removed": sorted(k for k in before if k not in now or (before[k] and not now[k]))}


def _last_snapshot(store: ResultsStore) -> dict[str, str] | None:
    for run in reversed(store.runs()):
        if run.get("submissions") is not None and run["status"] in ("complete", "interrupted"):
            return dict(run["submissions"])
    return None


def run_job(job: Job, executor: Executor, progress: ProgressFactory | None = None,
            before_play: Callable[[Job], None] | None = None,
            standings_of: Callable[[Job], list[dict[str, Any]]] | None = None,
            rejudge: Any = None) -> RunSummary:
    """Play every game of ``job`` not yet in its store, committing each as it finishes.

    The job's format (:mod:`harness.tournament.formats`) gives the run's schedule as waves: a
    fixed schedule is one wave of the games not yet stored; an adaptive one plans wave by wave
    until it stops, a resumed run replaying the stored waves first. A live executor plays every
    wave through one queue (:func:`play_live`), any other wave by wave.

    ``before_play`` runs once the store is locked and only if there is a game to play (the
    timing self-check): a run that reuses every game needs no fair clock. The run is recorded
    in the store's history with what changed and, if ``standings_of`` is given, the standings.

    ``rejudge`` (a :class:`~harness.tournament.rejudge.Rejudge`): the login's games (or one of
    them) are taken out of the store first, kept as replaced, and played again in this run.
    """
    roll = load_entrants(job)
    snapshot = submissions_snapshot(roll)
    with ResultsStore(job.results) as store:
        previous = _last_snapshot(store)
        rejudged = None
        if rejudge is not None:
            from harness.tournament.rejudge import take_out

            rejudged = take_out(job, roll, store, rejudge)
        schedule = format_of(job).schedule(job, roll, store)
        summary = RunSummary(job.name, schedule.total, schedule.reused, 0, 0)
        info: dict[str, Any] = {"games": schedule.total, "reused": schedule.reused, "submissions": snapshot,
                                "changes": compare_snapshots(previous, snapshot), "first": previous is None,
                                **({"rejudged": rejudged} if rejudged else {})}
        summary.rejudged = rejudged
        run_id = store.start_run(job.name, info)
        status, error = "interrupted", ""
        faults: dict[str, GameRecord] = {}  # games of this run that failed every retry (adaptive: a wave ends)
        prepared = False
        try:
            attempts: dict[str, int] = {}
            work: Work = schedule.work

            def prepare(todo: Sequence[Any]) -> None:
                nonlocal prepared
                if todo and not prepared:
                    prepared = True
                    if before_play is not None:
                        before_play(job)
                    summary.refused = executor.prepare(job)

            def settle(task: Any, result: dict[str, Any] | None, fault: str, bar: Any) -> bool:
                """Store a finished task; False if it is to be played again (a harness fault)."""
                attempts[task.key] = attempts.get(task.key, 0) + 1
                settled = schedule.settle(task, result, fault, attempts[task.key])
                if settled.retry:
                    return False
                summary.faults += int(settled.fault)
                if settled.fault and settled.record is not None:
                    faults[task.key] = settled.record
                if settled.played:
                    summary.played += 1
                    if bar is not None:
                        bar.update(1)
                return True

            bar = progress(schedule.expected, schedule.reused, job.name) if progress else None
            walk = schedule.waves(faults)
            last = next(walk)
            if executor.live:
                last = play_live(executor, work, walk, last, prepare, settle, bar)
            while not last.finished:  # wave by wave (an executor that takes no new games while it runs)
                pending = last.pending
                prepare(pending)
                while pending:
                    pending = [task for task, result, fault in executor.run(pending, work)
                               if not settle(task, result, fault, bar)]
                last = next(walk)
            summary.total, summary.reused = schedule.finish(last, summary.played, faults, info)
            if bar is not None:
                bar.close()
            status = "complete"
        except BaseException as exc:
            status = "interrupted" if isinstance(exc, KeyboardInterrupt) else "failed"
            error = "" if isinstance(exc, KeyboardInterrupt) else f"{type(exc).__name__}: {exc}"[:500]
            raise
        finally:
            # A signal now (a second Ctrl-C, or the first one just as the last game ended) must not
            # cut the run's record short: it is held until the record is written.
            held = HeldSignals()
            try:
                executor.close()
                info.update(played=summary.played, faults=summary.faults, refused=summary.refused, error=error)
                if status == "complete" and standings_of is not None:
                    try:
                        info["standings"] = standings_of(job)
                    except Exception as exc:  # noqa: BLE001 - history must not break a finished run
                        info["error"] = f"standings: {exc}"[:500]
                store.end_run(run_id, status, info)
            finally:
                # A run already stopping drops it; a run that finished stops now (no report build).
                held.release(deliver=status == "complete")
    return summary


def play_live(executor: Executor, work: Work, walk: Iterator[Any], last: Any,
              prepare: Callable[[Sequence[Any]], None],
              settle: Callable[[Any, dict[str, Any] | None, str, Any], bool], bar: Any) -> Any:
    """Play an adaptive schedule through one live queue (:attr:`Executor.live`): the games of
    every wave planned are queued, and as soon as the games the planner waits for are stored it
    is asked again, and the wave it plans joins the queue while the one before still plays: no
    worker waits for a wave's last game or for the fit. Returns the walk's last progress.
    """
    queue: deque[Any] = deque()
    queued: set[str] = set()
    done: set[str] = set()  # settled in this run: stored, or failed every retry

    def take(progress: Any) -> int:
        fresh = [t for t in progress.pending if t.key not in queued]
        queued.update(t.key for t in fresh)
        queue.extend(fresh)
        return len(fresh)

    take(last)
    prepare(list(queue))
    while not last.finished:
        for task, result, fault in executor.run(queue, work):
            if not settle(task, result, fault, bar):
                queue.append(task)  # played again: the executor takes it from the live queue
                continue
            done.add(task.key)
            while not last.finished and last.waiting <= done:
                last = next(walk)
                take(last)
        if not last.finished:
            # Every queued game is settled, so the walk has what it waited for: it must move on.
            last = next(walk)
            if not take(last) and not last.finished:
                raise RuntimeError(f"the adaptive schedule waits for games it does not give: {sorted(last.waiting)[:3]}")
    return last


class HeldSignals:
    """Holds Ctrl-C, SIGTERM and SIGHUP from construction until ``release`` (main thread only).

    A held signal is remembered, not lost: ``release(deliver=True)`` raises it again once the
    handlers are back, so a run asked to stop while it was writing its record still stops.
    """

    KINDS = tuple(s for s in (signal.SIGINT, signal.SIGTERM, getattr(signal, "SIGHUP", None)) if s is not None)

    def __init__(self) -> None:
        import threading

        self.caught: list[int] = []
        self.saved: dict[int, Any] = {}
        if threading.current_thread() is threading.main_thread():
            # An ignored signal (e.g. SIGINT of a job started in the background) stays ignored.
            self.saved = {s: signal.signal(s, self._remember) for s in self.KINDS
                          if signal.getsignal(s) is not signal.SIG_IGN}

    def _remember(self, signum: int, _frame: Any) -> None:
        self.caught.append(signum)

    def release(self, deliver: bool) -> None:
        """Restore the handlers; with ``deliver``, raise the first held signal through them."""
        for sig, handler in self.saved.items():
            signal.signal(sig, handler)
        self.saved = {}
        if deliver and self.caught:
            signal.raise_signal(self.caught[0])


def with_workers(job: Job, workers: int | None) -> Job:
    """``job`` with another worker count (from the command line)."""
    return job if workers is None else replace(job, workers=workers)


class Interrupted(KeyboardInterrupt):
    """SIGTERM or SIGHUP: treated exactly like Ctrl-C."""


def interrupt_on_signals() -> None:
    """Make SIGTERM and SIGHUP (``systemctl stop``, a cron timeout, a closed terminal) stop a run
    the way Ctrl-C does: promptly, keeping every finished game, exit code non-zero.

    A signal the run was started with ignored stays ignored, as Python leaves SIGINT: under
    ``nohup`` a closed terminal must not stop the run.
    """
    def handler(signum: int, _frame: Any) -> None:
        raise Interrupted(signal.Signals(signum).name)

    for sig in (signal.SIGTERM, getattr(signal, "SIGHUP", None)):
        if sig is not None and signal.getsignal(sig) is not signal.SIG_IGN:
            signal.signal(sig, handler)


__all__ = ["Executor", "Interrupted", "LocalExecutor", "RunSummary", "fault_record", "interrupt_on_signals", "play_task",
           "run_job", "with_workers"]

