"""The same games on a Dask cluster (``distributed``): each task carries its submissions.

Before a job plays, every worker of the cluster runs the timing self-check (the calibration
bot under the job's limits, in its sandbox); a worker that fails it takes no game of the job,
and the run says which workers were refused. A worker lost in mid-game costs no bot anything:
Dask plays the game again elsewhere, or the game ends as ``harness_error`` and the run retries it.
"""

from __future__ import annotations

import traceback
from collections.abc import Iterator, Sequence
from dataclasses import asdict
from typing import Any

from harness.config import Job
from harness.tournament.execute import Executor, Work


class ClusterError(RuntimeError):
    """The cluster cannot be used (unreachable, or no worker can time bots fairly); one line."""


def worker_self_check(limits: dict[str, Any]) -> tuple[bool, str]:
    """Run on a worker: can this machine time bots fairly under ``limits`` now?"""
    from harness.sandbox.calibrate import calibrate
    from harness.sandbox.limits import Limits

    lim = Limits(**limits)
    report = calibrate(lim, calls=3, work=round(lim.move * 0.3, 3))
    return report.fair, ("fair" if report.fair else report.problems[0])


class DaskExecutor(Executor):
    """Games on the Dask scheduler at ``address``; only workers that pass the self-check play."""

    def __init__(self, address: str, timeout: float = 10.0, self_check: bool = True) -> None:
        try:
            from distributed import Client
        except ImportError:
            raise ClusterError("--scheduler needs Dask's distributed: pip install 'bot-harness[dask]'") from None
        self.address, self.self_check = address, self_check
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
            raise ClusterError(f"{job.name}: no Dask worker can time bots fairly now ({len(refused)} refused; "
                               f"first: {refused[0].split(': ', 2)[-1] if refused else '?'})")
        self.workers = fit
        return refused

    def run(self, tasks: Sequence[Any], work: Work) -> Iterator[tuple[Any, dict[str, Any] | None, str]]:
        from distributed import as_completed

        options: dict[str, Any] = {"pure": False}
        if self.workers is not None:
            options.update(workers=self.workers, allow_other_workers=False)
        futures = {self.client.submit(work, t, key=f"game-{t.key}-{id(t)}", **options): t for t in tasks}
        for future in as_completed(futures):
            task = futures[future]
            try:
                yield task, future.result(), ""
            except Exception:  # noqa: BLE001 - a lost worker or any harness failure
                yield task, None, "the harness failed on a Dask worker: " + traceback.format_exc(limit=-1)[-800:]

    def close(self) -> None:
        self.client.close()


__all__ = ["ClusterError", "DaskExecutor", "worker_self_check"]
