"""The same games on a Dask cluster (``distributed``): each task carries its submissions.

Before a job plays, every worker runs the self-check (:mod:`harness.tournament.workers`: fair
timing, its sandbox tier, its speed against the job's reference); a worker refused takes no game
of the job, and the run says which workers were refused and why, one line each. A worker that
joins later (a Slurm job that started late, a worker restarted by its nanny, every worker after
the scheduler restarted) is checked the same way before it takes a game.

Nothing is lost and nothing is charged for the cluster's faults: a game whose worker died
(SIGKILL, a node gone) or whose scheduler went away is played again (the coordinator holds every
game in flight until its result arrives, and only the coordinator writes the store, so a game is
recorded once); only a game that kills every worker it is sent to ends as ``harness_error``,
which is charged to nobody.

Scale: games go out in *batches* (one Dask task plays several short games one after another,
so the scheduler's per-task cost, about a millisecond, is paid once a batch; games of seconds,
as real students' bots play, go one a task, so no worker idles at the end while another plays
out a batch), and only a few
batches per worker are in flight at a time: the coordinator holds a bounded number of futures
and results whatever the number of games (200,000 for a 300-student course), and the
scheduler's memory does not grow with them either. The executor is *live*: an adaptive job's
next wave joins the queue while the last one plays, so no worker waits for a wave to end.
"""

from __future__ import annotations

import sys
import time
import traceback
from collections import deque
from collections.abc import Iterable, Iterator, Sized
from dataclasses import asdict
from typing import Any

from harness.tournament.execute import Executor, Work
from harness.tournament.job import Job
from harness.tournament.workers import judge_workers, speed_probe, worker_self_check


# Dask's own periodic work (a 10 ms profiler in every worker, a 20 ms event-loop tick, a 100 ms
# memory monitor, a 500 ms system monitor), slowed to what games of seconds need: on 2 idle workers
# it cost 1.8 s of CPU every 30 s, 0.35 s with these (bench/bench_cluster.py --idle).
QUIET: dict[str, object] = {
    "distributed.worker.profile.enabled": False,
    "distributed.worker.memory.monitor-interval": "1s",
    "distributed.admin.tick.interval": "200ms",
    "distributed.admin.system-monitor.interval": "2s",
}


def quiet_environment() -> dict[str, str]:
    """:data:`QUIET` as environment variables, for workers and schedulers started elsewhere."""
    return {"DASK_" + key.upper().replace(".", "__").replace("-", "_"): str(value) for key, value in QUIET.items()}


BATCH_SECONDS = 0.5  # play time a Dask task carries at most, once the games' length is known


class ClusterError(RuntimeError):
    """The cluster cannot be used (unreachable, or no worker can time bots fairly); one line."""


class ClusterUnfit(ClusterError):
    """No worker of a reachable cluster can time bots fairly now: the job is refused, not the command."""


def play_batch(work: Work, tasks: list[Any]) -> list[tuple[dict[str, Any] | None, str]]:
    """Run on a worker: play ``tasks`` one after another; each game's failure is its own."""
    out: list[tuple[dict[str, Any] | None, str]] = []
    for task in tasks:
        try:
            out.append((work(task), ""))
        except Exception:  # noqa: BLE001 - any failure here is the harness's
            out.append((None, "the harness failed on a Dask worker: " + traceback.format_exc(limit=-1)[-800:]))
    return out


def _lost(exc: BaseException) -> str:
    """"scheduler" or "worker" if ``exc`` says the cluster lost the batch, else ""."""
    from concurrent.futures import CancelledError

    from distributed.scheduler import KilledWorker

    if isinstance(exc, CancelledError):
        return "scheduler"
    if isinstance(exc, KilledWorker) or type(exc).__name__ in ("CommClosedError", "StreamClosedError"):
        return "worker"
    return ""


class DaskExecutor(Executor):
    """Games on the Dask scheduler at ``address``; only workers that pass the self-check play.

    ``batch``: most games a Dask task plays (fewer when there are few games a worker);
    ``in_flight``: batches outstanding per worker; ``reconnect``: how long a lost scheduler (or
    a cluster without a fit worker) is waited for before the run stops; ``replays``: how often a
    batch whose worker died is sent out again before its games end as ``harness_error``.
    """

    live = True

    def __init__(self, address: str, timeout: float = 10.0, self_check: bool = True, batch: int = 16,
                 in_flight: int = 2, reconnect: float = 120.0, replays: int = 5) -> None:
        try:
            import dask
            from distributed import Client
        except ImportError:
            raise ClusterError("--scheduler needs Dask's distributed: pip install 'bot-harness[dask]'") from None
        dask.config.set(QUIET)
        self.address, self.self_check, self.timeout = address, self_check, timeout
        self.batch, self.in_flight, self.reconnect, self.replays = batch, in_flight, reconnect, replays
        self.peak = 0  # the most futures this executor has had outstanding at once
        self.replayed = 0  # batches sent out again after their worker or the scheduler was lost
        self.refused: list[str] = []  # every refusal line so far (late joiners too)
        self.workers: list[Any] | None = None  # names of the fit workers (None: no self-check)
        self._verdicts: dict[str, bool] = {}  # worker name -> fit, for every worker checked
        self._job: Job | None = None
        self._reference = 0.0
        self._checked_at = 0.0
        try:
            self.client = Client(address, timeout=f"{timeout}s")
        except Exception as exc:  # noqa: BLE001 - OSError, TimeoutError, ValueError for a bad address
            raise ClusterError(f"cannot reach the Dask scheduler at {address} within {timeout:g} s "
                               f"({type(exc).__name__}: {str(exc).splitlines()[0][:120] if str(exc) else ''})"
                               ) from None

    def _names(self) -> dict[str, Any]:
        """Worker address -> name (a worker restarted by its nanny keeps its name; names may be ints)."""
        info = self.client.scheduler_info(n_workers=-1).get("workers", {})
        return {addr: w.get("name", addr) for addr, w in info.items()}

    def prepare(self, job: Job) -> list[str]:
        if not self.self_check:
            return []
        self._job = job
        self._reference = job.cluster.speed or speed_probe(job.interpreter or "")
        names = self._names()
        if not names:
            raise ClusterError(f"the Dask scheduler at {self.address} has no workers")
        self.workers = []
        lines = self._admit(names)
        if not self.workers:
            raise ClusterUnfit(f"{job.name}: no Dask worker can time bots fairly now ({len(lines)} refused; "
                               f"first: {lines[0].split(' refused: ', 1)[-1] if lines else '?'}). "
                               f"To play anyway: harness run --no-self-check")
        return self.refused  # the run's own list: a worker refused when it joins later is added to it

    def _admit(self, names: dict[str, Any]) -> list[str]:
        """Check the workers not yet checked (by name); the fit join ``self.workers``. Refusal lines."""
        assert self._job is not None and self.workers is not None
        new = {a: n for a, n in names.items() if str(n) not in self._verdicts}
        if not new:
            return []
        try:
            reports = self.client.run(worker_self_check, asdict(self._job.limits), self._job.interpreter,
                                      workers=list(new))
        except Exception:  # noqa: BLE001 - a worker that left while it was checked: checked when it is back
            return []
        verdicts = judge_workers(self._job.name, reports, new, self._reference, self._job.cluster.speed_factor)
        lines = []
        for verdict in verdicts:
            self._verdicts[verdict.name] = verdict.fit
            if verdict.fit:
                self.workers.append(next(n for n in new.values() if str(n) == verdict.name))
            else:
                lines.append(verdict.why)
        self.refused += lines
        return lines

    def _fit_present(self) -> int:
        """How many fit workers the scheduler has now (checking newcomers first)."""
        names = self._names()
        if self.workers is None:
            return len(names)
        self._admit(names)  # a refusal joins self.refused: the run prints it and keeps it in its history
        return sum(1 for n in names.values() if self._verdicts.get(str(n)))

    def _await_cluster(self, why: str) -> None:
        """Wait until the client is connected and a fit worker is there, or raise ClusterError."""
        deadline = time.monotonic() + self.reconnect
        while time.monotonic() < deadline:
            try:
                if self.client.status in ("closed", "closing"):
                    from distributed import Client

                    self.client = Client(self.address, timeout=f"{self.timeout}s")
                if self.client.status == "running" and self._fit_present():
                    return
            except Exception:  # noqa: BLE001 - the scheduler is not back yet
                pass
            time.sleep(0.5)
        raise ClusterError(f"lost the Dask cluster at {self.address} ({why}) and it was not back with a fit "
                           f"worker within {self.reconnect:g} s; the games played so far are stored, "
                           f"run the job again to resume")

    def run(self, tasks: Iterable[Any], work: Work) -> Iterator[tuple[Any, dict[str, Any] | None, str]]:
        """Play ``tasks``: a sequence, any iterable (read lazily, a batch at a time), or the caller's
        own :class:`~collections.deque`, read live (tasks added while this runs are played too)."""
        from itertools import islice

        from distributed import wait

        live = tasks if isinstance(tasks, deque) else None
        source = iter(tasks) if live is None else None
        count = len(tasks) if isinstance(tasks, Sized) and live is None else None
        again: deque[list[Any]] = deque()  # batches lost with their worker or scheduler: sent first
        replays: dict[int, int] = {}
        pending: dict[Any, list[Any]] = {}

        def workers() -> int:
            return len(self.workers) if self.workers is not None else max(1, len(self._names()))

        seconds: list[float] = []  # how long the games so far took, for the size of the next batches

        def next_batch() -> list[Any]:
            if again:
                return again.popleft()
            slots = workers() * self.in_flight
            # Batches save the scheduler's millisecond a task: worth it for short games only. Games
            # of real students' bots last seconds, and a batch of them would leave the other
            # workers idle at the end while one plays out its batch: about BATCH_SECONDS a batch.
            most = self.batch
            if len(seconds) >= 4:
                most = max(1, min(self.batch, int(BATCH_SECONDS / max(sum(seconds) / len(seconds), 1e-3))))
            if live is not None:  # small batches while the queue is short: every worker busy
                size = max(1, min(most, len(live) // (slots * 2) or 1))
                return [live.popleft() for _ in range(min(size, len(live)))]
            size = most if count is None else max(1, min(most, count // (slots * 4) or 1))
            assert source is not None
            return list(islice(source, size))

        def submit() -> bool:
            batch = next_batch()
            if not batch:
                return False
            options: dict[str, Any] = {"pure": False}
            if self.workers is not None:
                options.update(workers=list(self.workers), allow_other_workers=False)
            future = self.client.submit(play_batch, work, batch, key=f"games-{batch[0].key}-{time.monotonic_ns()}",
                                        **options)
            pending[future] = batch
            return True

        def fill() -> None:
            while len(pending) < workers() * self.in_flight and submit():
                pass
            self.peak = max(self.peak, len(pending))

        fill()
        while pending:
            try:
                wait(list(pending), timeout=5, return_when="FIRST_COMPLETED")
            except Exception:  # noqa: BLE001 - a timeout (nothing finished yet) or cancelled futures
                pass
            finished = [f for f in pending if f.status != "pending"]
            if time.monotonic() - self._checked_at > 1:  # newcomers (checked, then given games); none fit left
                self._checked_at = time.monotonic()
                if self.client.status == "running" and not self._fit_present() and not finished:
                    self._await_cluster("no fit worker left")
            if not finished:
                continue
            lost_scheduler = False
            for future in finished:
                batch = pending.pop(future)
                try:
                    results = future.result()
                except BaseException as exc:  # noqa: BLE001 - a lost worker or any harness failure
                    lost = _lost(exc)
                    if lost == "scheduler" or (lost and replays.get(id(batch), 0) < self.replays):
                        replays[id(batch)] = replays.get(id(batch), 0) + 1
                        self.replayed += 1
                        again.append(batch)
                        lost_scheduler |= lost == "scheduler"
                        continue
                    reason = "the harness failed on a Dask worker: " + traceback.format_exc(limit=-1)[-800:]
                    results = [(None, reason)] * len(batch)
                finally:
                    future.release()
                for task, (result, fault) in zip(batch, results):
                    if result is not None and len(seconds) < 64 and isinstance(result.get("duration"), (int, float)):
                        seconds.append(result["duration"])
                    yield task, result, fault
            if lost_scheduler:
                for future, batch in pending.items():  # the scheduler forgot them all
                    future.release()
                    again.append(batch)
                pending.clear()
                print(f"harness: lost the Dask scheduler at {self.address}; the {sum(map(len, again))} game(s) in "
                      f"flight are played again once it is back (waiting up to {self.reconnect:g} s)", file=sys.stderr)
                self._await_cluster("the scheduler's connection was lost")
            fill()

    def close(self) -> None:
        self.client.close()


__all__ = ["QUIET", "ClusterError", "ClusterUnfit", "DaskExecutor", "play_batch", "quiet_environment",
           "worker_self_check"]
