"""A job's games on Slurm: Dask workers started as batch jobs through ``dask-jobqueue``.

``harness run JOB --slurm`` (or a job's ``cluster: {slurm: ...}`` block) starts a Dask scheduler
in the coordinator, submits ``jobs`` batch jobs of ``cores`` cores each (one worker process per
core, one game at a time: a game keeps one core busy, its two bots taking turns) and plays the
job on them through :class:`~harness.tournament.cluster.DaskExecutor`: every worker runs the
self-check before it takes a game, a worker that arrives late is checked when it arrives, and a
worker lost with its batch job (walltime, preemption, a node gone) costs no bot anything. The
batch jobs are cancelled when the run ends, however it ends.

The workers run this interpreter (``sys.executable``): on a grid, the harness must be installed
at the same path on the compute nodes (a shared home or software folder), as a course's venv is.
Anything else of ``dask-jobqueue``'s (an account, a network interface, extra ``#SBATCH`` lines)
comes from its own configuration file, ``~/.config/dask/jobqueue.yaml``.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import time
from collections.abc import Iterable, Iterator, Sized
from dataclasses import replace
from pathlib import Path
from typing import Any

from harness.tournament.cluster import QUIET, ClusterError, DaskExecutor, quiet_environment
from harness.tournament.clusterconf import SlurmSettings
from harness.tournament.execute import Work
from harness.tournament.job import Job


def slurm_settings(base: SlurmSettings | None, partition: str | None = None, jobs: int | None = None,
                   cores: int | None = None, memory: str | None = None, walltime: str | None = None) -> SlurmSettings:
    """The job's ``cluster.slurm`` keys (or the defaults) with the command line's flags over them."""
    flags = {k: v for k, v in dict(partition=partition, jobs=jobs, cores=cores, memory=memory,
                                   walltime=walltime).items() if v is not None}
    return replace(base or SlurmSettings(), **flags)


def _queue_state(job_ids: list[str]) -> str:
    """What Slurm says of the batch jobs (state and reason), for a line saying why no worker came."""
    if not job_ids:
        return "no batch job was submitted"
    try:
        out = subprocess.run(["squeue", "-h", "-o", "%i %T %r", "-j", ",".join(job_ids)], capture_output=True,
                             text=True, timeout=30).stdout.split("\n")
    except (OSError, subprocess.TimeoutExpired):
        return "squeue did not answer"
    states = [line for line in out if line.strip()]
    return "; ".join(states[:3]) if states else "the batch jobs have ended (see their logs)"


def _validate(script: str) -> None:
    """``sbatch --test-only`` the workers' job script: Slurm's own word on a bad partition, memory
    or time limit comes at once, in one line, before any batch job is submitted."""
    try:
        out = subprocess.run(["sbatch", "--test-only"], input=script, capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise ClusterError(f"--slurm: sbatch did not answer ({type(exc).__name__})") from None
    if out.returncode != 0:
        errors = [line.removeprefix("sbatch: error: ").strip() for line in out.stderr.splitlines() if line.strip()]
        raise ClusterError("--slurm: could not submit the workers: "
                           + ("; ".join(errors[:2]) or f"sbatch exit code {out.returncode}"))


class SlurmExecutor(DaskExecutor):
    """:class:`DaskExecutor` on workers that this executor starts as Slurm batch jobs.

    Nothing is submitted until there is a game to play (:meth:`prepare`): a run that reuses
    every stored game costs the grid nothing. ``start_timeout``: how long to wait for the first
    worker (a busy queue may hold the batch jobs); the run plays on the workers that are there
    and takes the others as they arrive. ``log_directory``: where the batch jobs' output goes
    (default: Slurm's, the working folder).
    """

    def __init__(self, settings: SlurmSettings, start_timeout: float = 300.0, self_check: bool = True,
                 log_directory: Path | None = None, **options: Any) -> None:
        try:
            import dask_jobqueue  # noqa: F401
        except ImportError:
            raise ClusterError("--slurm needs dask-jobqueue: pip install 'bot-harness[slurm]'") from None
        if shutil.which("sbatch") is None:
            raise ClusterError("--slurm: no sbatch on this machine: run the harness on a Slurm login node")
        self.settings, self.start_timeout, self.options = settings, start_timeout, options
        self.self_check = self_check
        self.log_directory = str(log_directory) if log_directory is not None else ""
        self.cluster: Any = None

    def _start(self) -> None:
        """Start the scheduler here and submit the workers' batch jobs (once); wait for workers."""
        if self.cluster is not None:
            return
        import dask
        from dask_jobqueue import SLURMCluster

        settings = self.settings
        extra: dict[str, Any] = {}
        if self.log_directory:
            Path(self.log_directory).mkdir(parents=True, exist_ok=True)
            extra["log_directory"] = self.log_directory
        dask.config.set(QUIET)  # the scheduler runs in this process
        try:
            self.cluster = SLURMCluster(
                cores=settings.cores, processes=settings.cores, memory=settings.memory, walltime=settings.walltime,
                queue=settings.partition, python=sys.executable, job_name="harness-worker",
                scheduler_options={"dashboard_address": None},
                # The bots' memory is capped by the sandbox; a worker's own is small (no game results kept).
                worker_extra_args=["--memory-limit", "0"],
                job_script_prologue=[f"export {k}={v}" for k, v in quiet_environment().items()], **extra)
        except Exception as exc:  # noqa: BLE001 - bad settings, or dask-jobqueue's configuration file
            raise ClusterError(f"--slurm: {type(exc).__name__}: {str(exc).strip()[:200]}") from None
        try:
            _validate(self.cluster.job_script())
            self.cluster.scale(jobs=settings.jobs)
            DaskExecutor.__init__(self, self.cluster.scheduler_address, self_check=self.self_check, **self.options)
            self._wait_for_workers(self.start_timeout)
        except ClusterError:
            self.close()
            raise
        except Exception as exc:  # noqa: BLE001 - sbatch refused the job script, a bad partition, ...
            self.close()
            raise ClusterError(f"--slurm: could not submit the workers: {type(exc).__name__}: "
                               f"{(str(exc).strip().splitlines() or [''])[-1][:200]}") from None

    def prepare(self, job: Job) -> list[str]:
        self._start()
        return super().prepare(job)

    def run(self, tasks: Iterable[Any], work: Work) -> Iterator[tuple[Any, dict[str, Any] | None, str]]:
        if self.cluster is None:
            if isinstance(tasks, Sized) and not len(tasks):
                return
            self._start()
        yield from super().run(tasks, work)

    def job_ids(self) -> list[str]:
        """The Slurm job ids of the workers' batch jobs."""
        if self.cluster is None:
            return []
        return [str(job.job_id) for job in self.cluster.workers.values() if getattr(job, "job_id", None)]

    def _wait_for_workers(self, timeout: float) -> None:
        """Until every worker is up, or ``timeout`` (then at least one, or ClusterError)."""
        wanted = self.settings.jobs * self.settings.cores
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if len(self._names()) >= wanted:
                return
            ids = self.job_ids()
            if ids and not self._names() and _queue_state(ids).startswith("the batch jobs have ended"):
                raise ClusterError(f"--slurm: the workers' batch jobs ended without a worker joining (see their "
                                   f"logs{' in ' + self.log_directory if self.log_directory else ''})")
            time.sleep(0.5)
        if not self._names():
            raise ClusterError(f"--slurm: no worker started within {timeout:g} s ({_queue_state(self.job_ids())})")

    def close(self) -> None:
        cluster, self.cluster = self.cluster, None
        try:
            if getattr(self, "client", None) is not None:
                self.client.close()
        finally:
            if cluster is not None:
                cluster.close()


__all__ = ["SlurmExecutor", "slurm_settings"]
