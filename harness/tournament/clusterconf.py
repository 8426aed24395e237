"""A job's ``cluster:`` block: where its games may be played beyond this machine.

    cluster:
      speed_factor: 1.5        # refuse a worker this many times slower (or faster) than the reference
      speed: 0.03              # the reference: CPU seconds of the speed probe (default: the coordinator's)
      slurm:                   # play on Slurm workers started through dask-jobqueue (as --slurm does)
        partition: debug
        jobs: 2                # batch jobs
        cores: 4               # cores per batch job: one worker process (one game at a time) per core
        memory: 8GB            # per batch job
        walltime: "02:00:00"

``harness run JOB --slurm`` (with ``--partition``, ``--jobs``, ``--cores``, ``--memory``) plays any
job on Slurm; the flags override the block's keys.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from harness.keys import Reader

MEMORY = re.compile(r"^\d+(\.\d+)?\s*([KMGT]i?B|[KMGT])$", re.IGNORECASE)
WALLTIME = re.compile(r"^(\d+-)?\d{1,3}(:\d\d){0,2}$")


@dataclass(frozen=True)
class SlurmSettings:
    """The batch jobs that carry a job's Dask workers on Slurm."""

    partition: str | None = None  # None: the cluster's default partition
    jobs: int = 1
    cores: int = 1
    memory: str = "2GB"
    walltime: str = "01:00:00"


@dataclass(frozen=True)
class ClusterSettings:
    """A job's ``cluster:`` keys (all optional)."""

    speed_factor: float = 1.5
    speed: float | None = None  # reference CPU seconds of the speed probe; None: the coordinator's
    slurm: SlurmSettings | None = None


def read_slurm(r: Reader, raw: Any) -> SlurmSettings:
    """``cluster.slurm``: a mapping of the keys of :class:`SlurmSettings`."""
    if not isinstance(raw, dict):
        raise r.fail("slurm", "must be a mapping (partition, jobs, cores, memory, walltime)")
    s = Reader(r.path, f"{r.where}.slurm", raw)
    unknown = set(raw) - {"partition", "jobs", "cores", "memory", "walltime"}
    if unknown:
        raise s.fail(sorted(unknown)[0], "unknown key (known: cores, jobs, memory, partition, walltime)")
    partition = s.get("partition", None)
    if partition is not None and (not isinstance(partition, str) or not partition.strip()):
        raise s.fail("partition", f"must be a partition's name, got {partition!r}")
    memory = str(s.get("memory", SlurmSettings.memory))
    if not MEMORY.match(memory):
        raise s.fail("memory", f"must be an amount like 4GB or 512MB, got {memory!r}")
    walltime = str(s.get("walltime", SlurmSettings.walltime))
    if not WALLTIME.match(walltime):
        raise s.fail("walltime", f"must be a Slurm time like 02:00:00 or 1-00:00:00, got {walltime!r}")
    return SlurmSettings(partition=partition, jobs=s.integer("jobs", 1, minimum=1),
                         cores=s.integer("cores", 1, minimum=1), memory=memory, walltime=walltime)


def read_cluster(r: Reader) -> ClusterSettings:
    """The job's ``cluster:`` block (the defaults if it has none)."""
    raw = r.get("cluster", None)
    if raw is None:
        return ClusterSettings()
    if not isinstance(raw, dict):
        raise r.fail("cluster", "must be a mapping (speed_factor, speed, slurm)")
    c = Reader(r.path, f"{r.where}.cluster", raw)
    unknown = set(raw) - {"speed_factor", "speed", "slurm"}
    if unknown:
        raise c.fail(sorted(unknown)[0], "unknown key (known: slurm, speed, speed_factor)")
    factor = c.number("speed_factor", c.get("speed_factor", 1.5), minimum=1.0, inclusive=False)
    speed = c.get("speed", None)
    return ClusterSettings(speed_factor=factor,
                           speed=None if speed is None else c.number("speed", speed),
                           slurm=read_slurm(c, raw["slurm"]) if "slurm" in raw else None)


__all__ = ["ClusterSettings", "SlurmSettings", "read_cluster", "read_slurm"]
