"""Real-speed bots on a Dask cluster: games/s and the share of the cores spent in bots' own thinking.

    python bench/bench_cluster.py                       # 1 and 2 workers, then Slurm if it is up
    python bench/bench_cluster.py --modes 2 --adaptive  # also: an adaptive job, waves pipelined or not

The bots (``tests/bots/priemspel/thinks.py``) think 0.2-0.5 s of their own CPU time a move
(CPU-bound pure Python, as a student's search), under the 1 s limit, then move as the seed's
basic player: a PriemSpel round robin of ``--bots`` of them on N = 5, ``--games`` seeds a pair.

Each mode runs a Dask scheduler and its workers as processes of their own (``dask scheduler``,
``dask worker --nthreads 1``, one worker process per core given: a game keeps one core busy, its
two bots taking turns), reached over TCP on loopback; ``slurm`` starts them as Slurm batch jobs
through ``harness.tournament.slurm`` (``.ci/slurm-up`` makes a one-node Slurm of this machine).
The coordinator is this process: it plays the job with :func:`run_job`, as ``harness run
--scheduler`` does. Printed per mode:

* games/s over the run (the workers already up: their start is printed apart);
* **thinking / core time**: the bots' CPU time in their moves (from the records, measured by the
  kernel) divided by wall-clock time x the cores the workers were given. The rest is the
  harness: bot starts, referees, the store, scheduling gaps; and anything else the machine ran;
* **thinking / run CPU** (not for Slurm): the same CPU time divided by all the CPU time the run's
  processes used (coordinator, scheduler, workers and their bots): what the harness itself costs,
  whatever else the machine runs.

``--adaptive``: an adaptive job of ``--adaptive-bots`` thinking bots on the 2 workers, played with
the executor live (the next wave queued while the last plays) and wave by wave: the workers' idle
share (1 - time in games / (wall x workers)) of each.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from harness.config import load_config  # noqa: E402
from harness.tournament.cluster import DaskExecutor, quiet_environment  # noqa: E402
from harness.tournament.execute import Executor, run_job  # noqa: E402
from harness.tournament.store import ResultsStore  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
THINKS = (REPO / "tests/bots/priemspel/thinks.py").read_text()


def make_job(folder: Path, bots: int, games: int, fmt: str = "round_robin", extra: str = "") -> Path:
    for n in range(bots):
        (folder / "subs" / f"t{n:02d}").mkdir(parents=True)
        (folder / "subs" / f"t{n:02d}" / "player.py").write_text(THINKS)
    config = folder / "tournaments.yaml"
    config.write_text(f"""
jobs:
  bench:
    game: priemspel
    format: {fmt}
    submissions: subs
    settings: [{{N: 5}}]
    games: {games}
    awards: {{policy: tiers, tiers: [{{top: 0.2, points: 2}}, {{top: 0.5, points: 1}}]}}
{extra}""")
    return config


def tree_cpu(root: int) -> float:
    """CPU seconds of ``root`` and every living descendant, each with the children it has reaped
    (/proc/PID/stat: utime, stime, cutime, cstime): read before the processes end."""
    tick = os.sysconf("SC_CLK_TCK")
    stats: dict[int, tuple[int, float]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                fields = open(f"/proc/{entry}/stat").read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            stats[int(entry)] = (int(fields[1]), sum(int(x) for x in fields[11:15]) / tick)
    total, todo = 0.0, [root]
    while todo:
        pid = todo.pop()
        total += stats.get(pid, (0, 0.0))[1]
        todo += [child for child, (parent, _) in stats.items() if parent == pid]
    return total


def children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def self_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


class LocalDask:
    """``dask scheduler`` and one ``dask worker`` with ``workers`` processes, on loopback."""

    def __init__(self, workers: int, port: int, defaults: bool = False, tier: str = "auto") -> None:
        self.address = f"tcp://127.0.0.1:{port}"
        dask = [sys.executable, "-m"]
        env = {**os.environ, **({} if defaults else quiet_environment()),
               **({"HARNESS_ISOLATION": tier} if tier != "auto" else {})}
        quiet: dict[str, object] = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL, "env": env}
        self.processes = [subprocess.Popen([*dask, "distributed.cli.dask_scheduler", "--host", "127.0.0.1", "--port",
                                            str(port), "--no-dashboard", "--no-show"], **quiet)]
        self.processes.append(subprocess.Popen([*dask, "distributed.cli.dask_worker", self.address, "--nworkers",
                                                str(workers), "--nthreads", "1", "--no-dashboard",
                                                "--memory-limit", "0"], **quiet))
        self.workers = workers

    def executor(self) -> DaskExecutor:
        deadline = time.monotonic() + 60
        while True:
            try:
                executor = DaskExecutor(self.address, self_check=False)
                break
            except Exception:  # noqa: BLE001 - the scheduler is still starting
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)
        executor.client.wait_for_workers(self.workers, timeout=120)
        return executor

    def close(self) -> None:
        for process in reversed(self.processes):  # workers first: a graceful end reaps their children
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(timeout=60)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def thinking(results: Path) -> tuple[int, float, float, float]:
    """(games, bots' CPU seconds in their moves, in all their calls, seconds the workers spent in games)."""
    with ResultsStore(results, lock=False) as store:
        records = [r for _, r in store.records()]
    return (len(records), sum(m.cpu or 0.0 for r in records for m in r.moves),
            sum(p.cpu for r in records for p in r.players), sum(r.duration for r in records))


def warm_up() -> None:
    """On a worker: import what playing a game imports."""
    import harness.games.priemspel  # noqa: F401
    import harness.match  # noqa: F401
    import harness.tournament.work  # noqa: F401
    from harness.sandbox.checks.calibrate import calibrate  # noqa: F401


def play(folder: Path, executor: Executor, live: bool = True) -> tuple[float, Path]:
    config = load_config(folder / "tournaments.yaml")
    job = config.jobs["bench"]
    executor.live = live  # wave by wave when False (an adaptive job only)
    started = time.perf_counter()
    run_job(job, executor)
    return time.perf_counter() - started, job.results


def mode(name: str, args: argparse.Namespace, cores: int) -> None:
    folder = Path(tempfile.mkdtemp(prefix=f"bench-cluster-{name}-"))
    make_job(folder, args.bots, args.games)
    started = time.perf_counter()
    cluster: LocalDask | None = None
    if name == "slurm":
        from harness.tournament.clusterconf import SlurmSettings
        from harness.tournament.slurm import SlurmExecutor

        executor: Executor = SlurmExecutor(SlurmSettings(jobs=2, cores=1, memory="2GB"), self_check=False,
                                           log_directory=folder / "slurm")
        executor._start()  # the batch jobs (a run submits them with its first game): timed as "workers up"
    else:
        cluster = LocalDask(int(name), 8790 + int(name), defaults=args.dask_defaults, tier=args.tier)
        executor = cluster.executor()
    up = time.perf_counter() - started
    # Warm the workers up (the harness's and the game's imports, once a worker: 0.5-1 s of CPU
    # that a course's thousands of games do not notice) and start counting from here.
    executor.client.run(warm_up)
    tree0 = tree_cpu(os.getpid())
    try:
        wall, results = play(folder, executor)
        tree = tree_cpu(os.getpid())  # everything of the run still alive, with what each has reaped
    finally:
        executor.close()
        if cluster is not None:
            cluster.close()
    games, cpu, calls, busy = thinking(results)
    print(f"{name:>5} worker(s){' (Slurm)' if name == 'slurm' else ''}: {games} games in {wall:.1f} s = "
          f"{games / wall:.3f} games/s (workers up in {up:.1f} s; load average {os.getloadavg()[0]:.1f}); "
          f"thinking {cpu:.1f} s CPU = {100 * cpu / (wall * cores):.1f} % of {cores} core(s) x wall; "
          f"workers in games {100 * busy / (wall * cores):.1f} % of the run", flush=True)
    if cluster is not None:
        used = tree - tree0
        # Under bubblewrap the bots' processes are not reaped into this tree: add their calls' CPU.
        total = used if used >= calls else used + calls
        how = "bots included" if used >= calls else "bots: their calls' CPU added"
        print(f"      CPU of the run's processes {total:.1f} s ({how}): thinking is {100 * cpu / total:.1f} % of it; "
              f"the harness and Dask "
              f"{total - cpu:.1f} s = {(total - cpu) / games:.2f} s a game", flush=True)
    shutil.rmtree(folder, ignore_errors=True)


def idle(args: argparse.Namespace) -> None:
    """Dask's own CPU on 2 idle workers for 30 s, with its defaults and with the harness's QUIET."""
    for defaults in (True, False):
        cluster = LocalDask(2, 8797, defaults=defaults)
        executor = cluster.executor()
        try:
            before = sum(tree_cpu(p.pid) for p in cluster.processes) + self_cpu()
            time.sleep(30)
            spent = sum(tree_cpu(p.pid) for p in cluster.processes) + self_cpu() - before
        finally:
            executor.close()
            cluster.close()
        print(f"idle scheduler, 2 workers and client, Dask's {'defaults' if defaults else 'QUIET settings'}: "
              f"{spent:.2f} s CPU in 30 s", flush=True)


def adaptive(args: argparse.Namespace) -> None:
    for live in (False, True):
        folder = Path(tempfile.mkdtemp(prefix="bench-cluster-adaptive-"))
        make_job(folder, args.adaptive_bots, 2, fmt="adaptive", extra=f"    budget: {args.adaptive_budget}\n")
        cluster = LocalDask(2, 8795, defaults=args.dask_defaults, tier=args.tier)
        executor = cluster.executor()
        executor.client.run(warm_up)
        try:
            wall, results = play(folder, executor, live=live)
        finally:
            executor.close()
            cluster.close()
        games, cpu, _, busy = thinking(results)
        print(f"adaptive, {'live (waves pipelined)' if live else 'wave by wave'}: {games} games in {wall:.1f} s "
              f"({games / wall:.3f} games/s); workers idle {100 * (1 - busy / (wall * 2)):.1f} % of the run; "
              f"thinking {100 * cpu / (wall * 2):.1f} % of 2 cores x wall", flush=True)
        shutil.rmtree(folder, ignore_errors=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bots", type=int, default=4)
    ap.add_argument("--games", type=int, default=2, help="seeds per ordered pair")
    ap.add_argument("--modes", default="1,2,slurm", help="comma-separated: 1, 2 (workers), slurm; '' for none")
    ap.add_argument("--adaptive", action="store_true")
    ap.add_argument("--adaptive-bots", type=int, default=6)
    ap.add_argument("--adaptive-budget", type=float, default=0.5, help="share of the round robin's games")
    ap.add_argument("--nice", type=int, default=None,
                    help="run the cluster at this niceness (root: -20), so that on a machine shared with other "
                         "work the figures are the harness's, not the other tenants' load")
    ap.add_argument("--dask-defaults", action="store_true", help="workers with Dask's own defaults, not QUIET")
    ap.add_argument("--tier", default="auto", choices=("auto", "plain", "bwrap"),
                    help="the workers' HARNESS_ISOLATION (plain: the container tier as root; its bots' CPU is "
                         "then counted in the run's)")
    ap.add_argument("--idle", action="store_true", help="also: Dask's own CPU on idle workers, defaults vs QUIET")
    args = ap.parse_args()
    if args.nice is not None:
        os.setpriority(os.PRIO_PROCESS, 0, args.nice)  # inherited by the scheduler, workers and bots
    print(f"{os.cpu_count()} CPUs; nice {os.getpriority(os.PRIO_PROCESS, 0)}; load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}", flush=True)
    for name in filter(None, args.modes.split(",")):
        if name == "slurm" and subprocess.run(["sinfo", "-h"], capture_output=True).returncode != 0 \
                if shutil.which("sinfo") else name == "slurm":
            print("slurm: no Slurm here (bash .ci/slurm-up makes a one-node one, as root)")
            continue
        mode(name, args, cores=2 if name == "slurm" else int(name))
    if args.idle:
        idle(args)
    if args.adaptive:
        adaptive(args)


if __name__ == "__main__":
    main()
