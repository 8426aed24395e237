"""Prints, as one JSON object, what ``harness leaderboard`` and ``harness export`` write for jobs
of a jobs file, and which interpreter and numpy wrote it: run by ``test_cross_python.py`` under
each Python 3.11 of the machine, so their bytes can be compared.

Usage: ``python cross_python_exports.py CONFIG JOB [JOB ...]``. Every command runs in this one
process through :func:`harness.cli.main` (one interpreter start, not one per command), with
``COLUMNS`` as the caller set it.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import platform
import sys
import sysconfig

BOARDS = ("text", "markdown", "csv", "json")
EXPORTS = ("csv", "canvas", "moodle", "gradescope", "feedback")


def interpreter() -> dict[str, object]:
    """Which Python this is, and where numpy and the harness came from; numpy's compiled core is
    exercised (a linear solve, as the rating fit's Newton steps do) so a wrong ABI fails here."""
    import numpy as np

    import harness

    solved = np.linalg.solve(np.array([[4.0, 1.0], [1.0, 3.0]]), np.array([1.0, 2.0]))
    return {"executable": sys.executable, "base": os.path.realpath(getattr(sys, "_base_executable", sys.executable)),
            "version": sys.version, "build": list(platform.python_build()), "soabi": sysconfig.get_config_var("SOABI"),
            "config_args": sysconfig.get_config_var("CONFIG_ARGS") or "",
            "numpy": np.__version__, "numpy_file": np.__file__, "harness_file": harness.__file__,
            "solve": [float(x).hex() for x in solved]}


def run(argv: list[str]) -> dict[str, object]:
    """``harness ARGV``'s exit code, standard output and error, run in this process."""
    from harness.cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(argv)
    return {"code": code, "stdout": out.getvalue(), "stderr": err.getvalue()}


def outputs(config: str, jobs: list[str]) -> dict[str, dict[str, object]]:
    """Every leaderboard and export of ``jobs``, keyed ``leaderboard-JOB.FORMAT`` / ``export-JOB.FORMAT``
    (the names of ``tests/tournament/legacy/expected/``)."""
    done = {}
    for job in jobs:
        for fmt in BOARDS:
            done[f"leaderboard-{job}.{fmt}"] = run(["leaderboard", job, "--format", fmt, "--config", config])
        for fmt in EXPORTS:
            done[f"export-{job}.{fmt}"] = run(["export", job, "--format", fmt, "--config", config])
    return done


if __name__ == "__main__":
    config, *names = sys.argv[1:]
    json.dump({"python": interpreter(), "outputs": outputs(config, names)}, sys.stdout)
