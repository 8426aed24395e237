"""The same games on a Dask cluster (``distributed``): each task carries its submissions.

Before a job plays, every worker of the cluster runs the timing self-check (the calibration
bot under the job's limits, in its sandbox); a worker that fails it takes no game of the job,
and the run says which workers were refused. A worker lost in mid-game costs no bot anything:
Dask plays the game again elsewhere, or the game ends as ``harness_error`` and the run retries it.

Scale: games go out in *batches* (one Dask task plays several short games one after another,
so the scheduler's per-task cost, about a millisecond, is paid once a batch), and only a few
batches per worker are in flight at a time: the coordinator holds a bounded number of futures
and results whatever the number of games (200,000 for a 300-student course), and the
scheduler's memory does not grow with them either.
"""

from __future__ import annotations

import traceback
from collections.abc import Iterable, Iterator, Sized
from dataclasses import asdict
from typing import Any

from harness.tournament.job import Job
from harness.tournament.execute import Executor, Work


class ClusterError(RuntimeError):
    """The cluster cannot be used (unreachable, or no worker can time bots fairly); one line."""


class ClusterUnfit(ClusterError):
    """No worker of a reachable cluster can time bots fairly now: the job is refused, not the command."""


def worker_self_check(limits: dict[str, Any]) -> tuple[bool, str]:
    """Run on a worker: can this machine time bots fairly under ``limits`` now?"""
    from harness.sandbox.checks.calibrate import self_check
    from harness.sandbox.limits import Limits

    report = self_check(Limits(**limits))
    return report.fair, ("fair" if report.fair else report.problems[0])


def play_batch(work: Work, tasks: list[Any]) -> list[tuple[dict[str, Any] | None, str]]:
    """Run on a worker: play ``tasks`` one after another; each game's failure is its own."""
    out: list[tuple[dict[str, Any] | None, str]] = []
    for task in tasks:
        try:
            out.append((work(task), ""))
        except Exception:  # noqa: BLE001 - any failure here is the harness's
            out.append((None, "the harness failed on a Dask worker: " + traceback.format_exc(limit=-1)[-800:]))
    return out


class DaskExecutor(Executor):
    """Games on the Dask scheduler at ``address``; only workers that pass the self-check play.

    ``batch``: most games a Dask task plays (fewer when there are few games a worker);
    ``in_flight``: batches outstanding per worker.
    """

    def __init__(self, address: str, timeout: float = 10.0, self_check: bool = True, batch: int = 16,
                 in_flight: int = 2) -> None:
        try:
            from distributed import Client
        except ImportError:
            raise ClusterError("--scheduler needs Dask's distributed: pip install 'bot-harness[dask]'") from None
        self.address, self.self_check = address, self_check
        self.batch, self.in_flight = batch, in_flight
        self.peak = 0  # the most futures this executor has had outstanding at once
        try:
            self.client = Client(address, timeout=f"{timeout}s")
        except Exception as exc:  # noqa: BLE001 - OSError, TimeoutError, ValueError for a bad address
            raise ClusterError(f"cannot reach the Dask scheduler at {address} within {timeout:g} s "
                               f"({type(exc).__name__}: {str(exc).splitlines()[0][:120] if str(exc) else ''})"
                               ) from None
        self.workers: list[Any] | None = None

    def _names(self) -> dict[str, Any]:
        """Worker address -> name (a worker restarted by its nanny keeps its name; names may be ints)."""
        info = self.client.scheduler_info().get("workers", {})
        return {addr: w.get("name", addr) for addr, w in info.items()}

    def prepare(self, job: Job) -> list[str]:
        if not self.self_check:
            return []
        names = self._names()
        if not names:
            raise ClusterError(f"the Dask scheduler at {self.address} has no workers")
        reports = self.client.run(worker_self_check, asdict(job.limits))
        fit = [names.get(addr, addr) for addr, (ok, _) in reports.items() if ok]
        refused = [f"{job.name}: worker {names.get(addr, addr)} refused: cannot time bots fairly: {why}"
                   for addr, (ok, why) in sorted(reports.items()) if not ok]
        if not fit:
            raise ClusterUnfit(f"{job.name}: no Dask worker can time bots fairly now ({len(refused)} refused; "
                               f"first: {refused[0].split(': ', 2)[-1] if refused else '?'}). "
                               f"To play anyway: harness run --no-self-check")
        self.workers = fit
        return refused

    def run(self, tasks: Iterable[Any], work: Work) -> Iterator[tuple[Any, dict[str, Any] | None, str]]:
        """Play ``tasks`` (a sequence, or any iterable: then read lazily, a batch at a time)."""
        from itertools import islice

        from distributed import as_completed

        options: dict[str, Any] = {"pure": False}
        if self.workers is not None:
            options.update(workers=self.workers, allow_other_workers=False)
        workers = len(self.workers) if self.workers is not None else max(1, len(self._names()))
        # Small batches when there are few games (every worker busy), up to ``batch`` games.
        count = len(tasks) if isinstance(tasks, Sized) else None
        size = self.batch if count is None else max(1, min(self.batch, count // (workers * self.in_flight * 4) or 1))
        source = iter(tasks)
        batches = iter(lambda: list(islice(source, size)), [])
        pending: dict[Any, list[Any]] = {}
        done = as_completed()

        def submit() -> bool:
            batch = next(batches, None)
            if batch is None:
                return False
            future = self.client.submit(play_batch, work, batch, key=f"games-{batch[0].key}-{id(batch)}", **options)
            pending[future] = batch
            done.add(future)
            return True

        while len(pending) < workers * self.in_flight and submit():
            pass
        self.peak = max(self.peak, len(pending))
        for future in done:
            batch = pending.pop(future)
            try:
                results = future.result()
            except Exception:  # noqa: BLE001 - a lost worker or any harness failure: every game of the batch
                reason = "the harness failed on a Dask worker: " + traceback.format_exc(limit=-1)[-800:]
                results = [(None, reason)] * len(batch)
            future.release()
            submit()
            self.peak = max(self.peak, len(pending))
            for task, (result, fault) in zip(batch, results):
                yield task, result, fault

    def close(self) -> None:
        self.client.close()


__all__ = ["ClusterError", "ClusterUnfit", "DaskExecutor", "play_batch", "worker_self_check"]
