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
import socket
import sys
import traceback
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field, replace
from typing import Any

from harness.config import Job
from harness.games import get_game
from harness.match import play_match
from harness.record import GameRecord, PlayerRecord, Verdict
from harness.sandbox.process import Limits
from harness.tournament.schedule import Roll, Task, load_entrants, make_tasks
from harness.tournament.store import ResultsStore

Work = Callable[[Any], dict[str, Any]]  # a task -> its result as JSON (picklable, small)


def play_task(task: Task) -> dict[str, Any]:
    """Play one task (in a worker) and return its GameRecord as JSON."""
    game = get_game(task.game)
    record = play_match(game, [e.submission for e in task.entrants], settings=task.settings, seed=task.seed,
                        logins=[e.login for e in task.entrants], limits=Limits(**task.limits),
                        tournament=task.tournament)
    record.host = f"{socket.gethostname()}:{os.getpid()}"
    return record.to_json()


def fault_record(task: Task, reason: str) -> GameRecord:
    """The record of a game the harness failed to play (charged to no one)."""
    players = [PlayerRecord(e.login, e.sha256, Verdict.HARNESS_ERROR, reason) for e in task.entrants]
    return GameRecord(game=task.game, settings=task.settings, seed=task.seed, players=players,
                      end="harness error")


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

    An adaptive job plays wave by wave (:mod:`harness.tournament.adaptive`): each wave's games
    not yet stored, until the schedule stops; a resumed run replays the stored waves first.

    ``before_play`` runs once the store is locked and only if there is a game to play (the
    timing self-check): a run that reuses every game needs no fair clock. The run is recorded
    in the store's history with what changed and, if ``standings_of`` is given, the standings.

    ``rejudge`` (a :class:`~harness.tournament.rejudge.Rejudge`): the login's games (or one of
    them) are taken out of the store first, kept as replaced, and played again in this run.
    """
    from harness.tournament.battery import grade_task, grade_tasks

    roll = load_entrants(job)
    grading = job.is_battery
    adaptive = job.format == "adaptive"
    tasks: list[Any] = grade_tasks(job, roll) if grading else [] if adaptive else make_tasks(job, roll)
    snapshot = submissions_snapshot(roll)
    with ResultsStore(job.results) as store:
        previous = _last_snapshot(store)
        rejudged = None
        if rejudge is not None:
            from harness.tournament.rejudge import take_out

            rejudged = take_out(job, tasks, store, rejudge)
        done = set(store.grades([t.key for t in tasks])) if grading else store.done_keys()
        todo = [t for t in tasks if t.key not in done]
        summary = RunSummary(job.name, len(tasks), len(tasks) - len(todo), 0, 0)
        summary.rejudged = rejudged
        info: dict[str, Any] = {"games": len(tasks), "reused": summary.reused, "submissions": snapshot,
                                "changes": compare_snapshots(previous, snapshot), "first": previous is None,
                                **({"rejudged": rejudged} if rejudged else {})}
        run_id = store.start_run(job.name, info)
        status, error = "interrupted", ""
        faults: dict[str, GameRecord] = {}  # games of this run that failed every retry (adaptive: a wave ends)
        prepared = False
        try:
            attempts: dict[str, int] = {}
            work: Work = grade_task if grading else play_task

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
                if grading:
                    if result is None:
                        if attempts[task.key] <= job.retries:
                            return False
                        summary.faults += 1
                        return True
                    store.put_grade(task.key, job.name, task.login, task.submission.sha256, result)
                else:
                    record = fault_record(task, fault) if result is None else GameRecord.from_json(result)
                    if record.harness_fault and attempts[task.key] <= job.retries:
                        return False
                    store.put(task.key, job.name, record, attempts[task.key])
                    summary.faults += int(record.harness_fault)
                    if record.harness_fault:
                        faults[task.key] = record
                summary.played += 1
                if bar is not None:
                    bar.update(1)
                return True

            def play(todo: list[Any], bar: Any) -> None:
                prepare(todo)
                while todo:
                    todo = [task for task, result, fault in executor.run(todo, work)
                            if not settle(task, result, fault, bar)]

            if adaptive:
                from harness.tournament.adaptive import Planner, budget_of, round_robin_games
                from harness.tournament.plancache import StoredPlans

                planner = Planner(job, roll)
                plans = StoredPlans(store.connection, job.name)  # each wave's plan, for readers and resumes
                bar = progress(budget_of(job, roll), 0, job.name) if progress else None
                walk = planner.walk(lambda keys: {**store.found(keys, light=True),
                                                  **{k: faults[k] for k in keys if k in faults}}, plans)
                last = next(walk)
                if executor.live:
                    last = play_live(executor, work, walk, last, prepare, settle, bar)
                while not last.finished:  # wave by wave (an executor that takes no new games while it runs)
                    play(last.pending, bar)
                    last = next(walk)
                if not faults:  # the schedule is the store's own: earlier days' plans are unreachable
                    plans.prune()
                summary.total = last.games
                summary.reused = summary.total - summary.played
                info.update(games=summary.total, reused=summary.reused,
                            adaptive={"waves": last.waves, "stopped": last.stopped, "unsettled": len(last.unsettled),
                                      "round_robin": round_robin_games(job, roll)})
            else:
                bar = progress(len(tasks), summary.reused, job.name) if progress else None
                play(todo, bar)
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


__all__ = ["Executor", "Interrupted", "LocalExecutor", "RunSummary", "interrupt_on_signals", "play_task",
           "run_job", "with_workers"]

