"""What a shared grader runs beside a job: other harness runs with their bots, busy loops, memory.

Used by the loaded timing tests (tests/sandbox/test_shared_grader.py) and the benchmark that
measures own time on such a machine (bench/bench_shared_grader.py). Every process is started in
a session of its own (as another user's work would be) and stopped with its whole group.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import TracebackType

REPO = Path(__file__).resolve().parents[2]
# A round robin of the Štreky reference players on the course's cards, long enough to outlast
# any measurement: what another course's nightly run looks like.
JOBS = """\
jobs:
  load:
    game: streky
    format: round_robin
    reference: [{repo}/reference_players/streky/brute.py, {repo}/reference_players/streky/strong.py,
                {repo}/reference_players/streky/random.py]
    settings: [{{cards: course}}, {{cards: tournament}}]
    games: 50
    tournament: true
    workers: {workers}
    results: {results}
"""
HOG = "while True: pass"
# Holds ``MiB`` of memory and touches one page in 64 of it now and then: pressure, not a swap storm.
MEMORY = """\
import sys, time
block = bytearray(int(sys.argv[1]) << 20)
while True:
    for i in range(0, len(block), 4096 * 64):
        block[i] = (block[i] + 1) & 255
    time.sleep(0.05)
"""


def load_average() -> float:
    """The machine's one-minute load average."""
    return os.getloadavg()[0]


def runnable(seconds: float = 1.0) -> float:
    """How many tasks are runnable at once now: the median of ``/proc/loadavg``'s running count
    over ``seconds`` (the reader itself not counted).

    The load the one-minute average reports, without its minute-long lag: a test that waited for
    the average to climb from 2 to 10 spent about 110 s only waiting.
    """
    samples = []
    end = time.monotonic() + seconds
    while True:
        with open("/proc/loadavg", encoding="ascii") as f:
            samples.append(int(f.read().split()[3].split("/")[0]) - 1)
        if time.monotonic() >= end:
            break
        time.sleep(0.02)
    samples.sort()
    return float(samples[len(samples) // 2])


class SharedLoad:
    """``runs`` other harness runs (``workers`` games each at once), ``hogs`` busy loops and
    ``memory_mib`` of held memory, for the duration of a ``with`` block.

    ``ready()`` waits until the other runs' bots are playing (their first games stored).
    """

    def __init__(self, runs: int = 2, hogs: int = 4, workers: int = 2, memory_mib: int = 0) -> None:
        self.runs, self.hogs, self.workers, self.memory_mib = runs, hogs, workers, memory_mib
        self.procs: list[subprocess.Popen[bytes]] = []
        self.folder: tempfile.TemporaryDirectory[str] | None = None

    def __enter__(self) -> SharedLoad:
        self.folder = tempfile.TemporaryDirectory(prefix="shared-load-")
        env = {**os.environ, "PYTHONPATH": str(REPO)}
        try:
            for i in range(self.runs):
                run = Path(self.folder.name) / f"run{i}"
                run.mkdir()
                (run / "tournaments.yaml").write_text(JOBS.format(repo=REPO, workers=self.workers,
                                                                   results=run / "results"))
                self.procs.append(subprocess.Popen(
                    [sys.executable, "-m", "harness", "run", "load", "--config", str(run / "tournaments.yaml"),
                     "--quiet", "--no-self-check"], cwd=run, env=env, start_new_session=True,
                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
            for _ in range(self.hogs):
                self.procs.append(subprocess.Popen([sys.executable, "-c", HOG], start_new_session=True))
            if self.memory_mib:
                self.procs.append(subprocess.Popen([sys.executable, "-c", MEMORY, str(self.memory_mib)],
                                                   start_new_session=True))
        except BaseException:
            self.stop()
            raise
        return self

    def ready(self, timeout: float = 120.0) -> bool:
        """Wait until every other run has stored a game (its bots play), at most ``timeout`` s."""
        assert self.folder is not None
        stores = [Path(self.folder.name) / f"run{i}" / "results" / "results.sqlite" for i in range(self.runs)]
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if all(s.exists() and s.stat().st_size > 0 for s in stores):
                return True
            if any(p.poll() is not None for p in self.procs):
                return False
            time.sleep(0.5)
        return False

    def stop(self) -> None:
        """Stop every process started (a harness run first asked to stop, as on Ctrl-C), then the folder."""
        for proc in self.procs:
            if proc.poll() is None:
                try:
                    os.killpg(proc.pid, signal.SIGTERM)
                except ProcessLookupError:
                    pass
        for proc in self.procs:
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                try:
                    os.killpg(proc.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
                proc.wait()
        self.procs = []
        if self.folder is not None:
            self.folder.cleanup()
            self.folder = None

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.stop()
