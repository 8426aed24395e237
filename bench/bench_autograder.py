"""The Gradescope autograder on half a CPU: how long the grading jobs take in the bundle.

Builds the bundle of each grading job of the repository's ``tournaments.yaml``, installs it
(``setup.sh``, offline) in a temporary ``AUTOGRADER_ROOT``, and runs ``run_autograder`` on a
reference player as the student's upload inside a cgroup v1 ``cpu`` group with a quota of 0.5
CPU: Gradescope's default container. The bots stay in that group (the harness moves them only
into its own pids/cpuacct/memory groups), so the whole grading shares the half CPU. Prints, per
job, the wall time, the ``execution_time`` and score the results report, and the test's status.

    sudo python bench/bench_autograder.py [--jobs streky-grading quoridor-grading] [--quota 0.5]

Without a writable cgroup v1 ``cpu`` hierarchy it runs on the whole machine and says so.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))  # this checkout's harness, run as `python bench/bench_autograder.py`

from harness.report.autograder import offline_setup_env  # noqa: E402
STUDENT = {"streky": "reference_players/streky/strong.py", "quoridor": "reference_players/quoridor/waller.py",
           "priemspel": "reference_players/priemspel/strategie.py"}
CPU = Path("/sys/fs/cgroup/cpu")


def cpu_group(quota: float) -> Path | None:
    """A cgroup v1 cpu group capped at ``quota`` CPUs, or None where there is none to write."""
    if not (CPU / "cpu.cfs_quota_us").exists() or not os.access(CPU, os.W_OK):
        return None
    group = CPU / f"bench-autograder-{os.getpid()}"
    group.mkdir()
    period = int((CPU / "cpu.cfs_period_us").read_text())
    (group / "cpu.cfs_period_us").write_text(str(period))
    (group / "cpu.cfs_quota_us").write_text(str(int(period * quota)))
    return group


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", nargs="+", default=["streky-grading", "quoridor-grading"])
    parser.add_argument("--quota", type=float, default=0.5, help="CPUs the grading gets (default 0.5)")
    args = parser.parse_args()
    group = cpu_group(args.quota)
    print(f"cpu quota: {args.quota:g} CPU (cgroup {group})" if group else "cpu quota: none (no writable cgroup v1 "
          "cpu hierarchy): the whole machine")
    try:
        for name in args.jobs:
            with tempfile.TemporaryDirectory(prefix="bench-autograder-") as tmp:
                root = Path(tmp)
                bundle = root / "autograder.zip"
                subprocess.run([sys.executable, "-m", "harness", "autograder", name, "--out", str(bundle),
                                "--config", str(REPO / "tournaments.yaml")], check=True, cwd=root,
                               stderr=subprocess.DEVNULL)
                with zipfile.ZipFile(bundle) as z:
                    z.extractall(root / "source")
                    document = z.read("harness-job.yaml").decode()
                game = next(line.split(":", 1)[1].strip() for line in document.splitlines()
                            if line.strip().startswith("game:"))
                (root / "python-bin").mkdir()
                env = offline_setup_env(root, root / "python-bin")
                subprocess.run(["bash", str(root / "source/setup.sh")], check=True, env=env, cwd=root,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                (root / "submission").mkdir()
                shutil.copy2(REPO / STUDENT[game], root / "submission" / "player.py")

                def enter() -> None:
                    if group is not None:
                        (group / "cgroup.procs").write_text(str(os.getpid()))

                start = time.monotonic()
                subprocess.run(["bash", str(root / "source/run_autograder")], env=env, cwd=root, check=True,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, preexec_fn=enter)
                wall = time.monotonic() - start
                results = json.loads((root / "results/results.json").read_text())
                test = results["tests"][0]
                print(f"{name}: student {Path(STUDENT[game]).name}: {wall:.1f} s wall, execution_time "
                      f"{results['execution_time']} s, score {results['score']:g} of {test['max_score']:g}, "
                      f"{test['status']}; {test['output'].splitlines()[0]}")
    finally:
        if group is not None:
            for pid in (group / "cgroup.procs").read_text().split():
                (CPU / "cgroup.procs").write_text(pid)
            group.rmdir()


if __name__ == "__main__":
    main()
