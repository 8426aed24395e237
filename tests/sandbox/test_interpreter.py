"""The judge's clock: one interpreter for every tier, named in every record, chosen by a job,
and compared by ``harness doctor``. Real interpreters, real jobs files, real games."""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from harness.config import load_config
from harness.games import get_game
from harness.match import play_match
from harness.record import Verdict
from harness.sandbox import Limits, container, interpreter
from harness.sandbox.isolation import use_bwrap
from harness.tournament.execute import LocalExecutor, run_job
from harness.tournament.formats import make_tasks
from harness.tournament.schedule import load_entrants
from harness.tournament.store import ResultsStore
from harness.tournament.work import play_task
from tests.conftest import REPO

GAME = get_game("priemspel")
BASIS = (REPO / "reference_players/priemspel/basis.py").read_bytes()
SYSTEM = os.path.realpath(f"/usr/bin/python{interpreter.VERSION}")


@pytest.fixture
def readable_dir() -> Iterator[Path]:
    """A folder every uid can read (a bot's own uid runs what is in it, in the container tier)."""
    path = Path(tempfile.mkdtemp(prefix="harness-test-interpreter-"))
    path.chmod(0o755)
    yield path
    for child in path.iterdir():
        child.unlink()
    path.rmdir()


def script(folder: Path, name: str, body: str) -> Path:
    path = folder / name
    path.write_text("#!/bin/sh\n" + body + "\n")
    path.chmod(0o755)
    return path


@pytest.fixture
def slow_python(readable_dir: Path) -> Path:
    """The system's Python run in development mode (debug hooks on every allocation): a real
    interpreter of the harness's version and bytecode, measurably slower (about 1.5x here)."""
    return script(readable_dir, f"python{interpreter.VERSION}", f'exec {SYSTEM} -X dev "$@"')


needs_system_python = pytest.mark.skipif(not os.path.isfile(SYSTEM) or interpreter.check(SYSTEM) is not None,
                                         reason=f"needs {SYSTEM} of the harness's version (CI installs Debian's)")


@pytest.mark.parametrize("isolation", ["auto", "plain"])
def test_every_tier_runs_the_chosen_interpreter_and_the_record_names_it(isolation: str, no_leftovers: None) -> None:
    record = play_match(GAME, [BASIS, BASIS], seed=1, limits=Limits(isolation=isolation))
    assert [p.verdict for p in record.players] == [Verdict.OK, Verdict.OK]
    tier = container.tier(use_bwrap(isolation))
    chosen = interpreter.describe(interpreter.chosen())
    for player in record.players:
        assert player.interpreter == {**chosen, "tier": tier}
        assert player.interpreter["version"].startswith(interpreter.VERSION + ".") and player.interpreter["build"]
    assert record.host == f"{socket.gethostname()}:{os.getpid()}" and record.machine == socket.gethostname()
    data = record.to_json()
    assert data["players"][0]["interpreter"]["path"] == chosen["path"]


@needs_system_python
def test_the_rule_prefers_the_system_s_own_python() -> None:
    assert interpreter.default() == SYSTEM


def jobs_file(tmp_path: Path, extra: str) -> Path:
    subs = tmp_path / "submissions"
    for login in ("ann", "bob"):
        (subs / login).mkdir(parents=True, exist_ok=True)
        (subs / login / "player.py").write_bytes(BASIS)
    config = tmp_path / "tournaments.yaml"
    config.write_text(f"""
jobs:
  rr:
    game: priemspel
    format: round_robin
    submissions: submissions
    settings: [{{N: 5}}]
    games: 1
    workers: 2
{extra}
""")
    return config


def test_a_job_names_the_interpreter_its_bots_run_on(tmp_path: Path, slow_python: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """The job's key reaches every worker (a pool of spawned processes, as on a cluster) and
    each record names it, in both tiers."""
    job = load_config(jobs_file(tmp_path, f"    interpreter: {slow_python}")).resolve("rr")[0]
    assert job.interpreter == str(slow_python)
    for tier in ("auto", "plain"):
        monkeypatch.setenv("HARNESS_ISOLATION", tier)  # the pool's workers inherit it
        summary = run_job(job, LocalExecutor(2))
        with ResultsStore(job.results, lock=False) as store:
            records = [r for _, r in store.records()]
            store.db.execute("DELETE FROM games")  # type: ignore[union-attr]
            store.db.commit()  # type: ignore[union-attr]
        assert summary.played == len(records) == 2 and summary.faults == 0
        expected = container.tier(use_bwrap("auto"))
        for record in records:
            for player in record.players:
                assert player.verdict is Verdict.OK, player.reason
                assert player.interpreter["path"] == str(slow_python)
                assert player.interpreter["tier"] == expected
            assert record.host.startswith(socket.gethostname() + ":") and record.host != f"{socket.gethostname()}:{os.getpid()}"
    assert interpreter.requested() is None  # this process's own rule is untouched


def test_a_worker_without_the_job_s_interpreter_charges_no_one(tmp_path: Path, slow_python: Path) -> None:
    job = load_config(jobs_file(tmp_path, f"    interpreter: {slow_python}")).resolve("rr")[0]
    task = make_tasks(job, load_entrants(job))[0]
    gone = tmp_path / "elsewhere" / "python3"
    result = play_task(replace(task, interpreter=str(gone)))
    assert [p["verdict"] for p in result["players"]] == ["harness_error", "harness_error"]
    assert result["players"][0]["reason"] == (f"cannot run the bots on the job's interpreter here: {gone} is not an "
                                              f"executable file")


def test_a_job_s_interpreter_that_cannot_run_bots_is_one_line(tmp_path: Path, readable_dir: Path) -> None:
    newer = script(readable_dir, "python-newer", """echo '{"version": "3.99.0", "magic": "00000d0a"}'""")
    cases = {"/bin/true": f"/bin/true does not run as Python {interpreter.VERSION}",
             str(tmp_path / "nope"): f"{tmp_path / 'nope'} is not an executable file",
             str(newer): f"{newer} is Python 3.99.0, not Python {interpreter.VERSION} with the bytecode of the harness's",
             "[3]": f"must be the path of a Python {interpreter.VERSION} interpreter, got [3]"}
    for value, problem in cases.items():
        config = jobs_file(tmp_path, f"    interpreter: {value}")
        problems = load_config(config).problems
        assert list(problems) == ["rr"], problems
        assert problems["rr"].startswith(f"{config}: jobs.rr.interpreter: {problem}"), problems["rr"]
        assert "\n" not in problems["rr"]
        run = subprocess.run([sys.executable, "-m", "harness", "run", "rr", "--config", str(config)],
                             capture_output=True, text=True, timeout=120, cwd=REPO)
        assert run.returncode != 0 and "Traceback" not in run.stderr
        assert f"jobs.rr.interpreter: {problem}" in run.stderr, run.stderr


@needs_system_python
def test_doctor_warns_of_a_slower_build_with_the_measured_factor(tmp_path: Path, slow_python: Path) -> None:
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache"), "PYTHONPATH": str(REPO)}
    outputs = []
    for _ in range(2):  # the second run reads the figures the first one measured
        run = subprocess.run([sys.executable, "-m", "harness", "doctor", "--interpreter", str(slow_python)],
                             capture_output=True, text=True, timeout=300, cwd=REPO, env=env)
        assert run.returncode == 0, run.stderr
        outputs.append(run.stdout)
    assert outputs[0].split("live check")[1].split("\n", 1)[1] == outputs[1].split("live check")[1].split("\n", 1)[1]
    out = outputs[0]
    assert f"interpreter (the judge's clock, every tier): {slow_python} (CPython " in out
    warning = re.search(rf"WARNING: bots run on {re.escape(str(slow_python))}, a build (\d+\.\d\d)x slower than "
                        rf"{re.escape(SYSTEM)} on a fixed CPU workload \((\d+\.\d) ms against (\d+\.\d) ms\)", out)
    assert warning is not None, out
    assert float(warning[1]) >= interpreter.SLOWER and float(warning[2]) > float(warning[3])
    cached = json.loads((tmp_path / "cache" / "harness" / "interpreter-speed.json").read_text())
    # Every interpreter that could run bots here was measured: the harness's own too, where it is
    # another (pyenv's), not the system's behind a venv.
    assert sorted(k.split(":")[0] for k in cached) == sorted({str(slow_python), SYSTEM, interpreter.OWN})
    plain = subprocess.run([sys.executable, "-m", "harness", "doctor"], capture_output=True, text=True, timeout=300,
                           cwd=REPO, env=env)
    assert plain.returncode == 0 and "WARNING: bots run on" not in plain.stdout
    assert f"interpreter (the judge's clock, every tier): {SYSTEM} (CPython " in plain.stdout
    bad = subprocess.run([sys.executable, "-m", "harness", "doctor", "--interpreter", "/bin/true"], capture_output=True,
                         text=True, timeout=300, cwd=REPO, env=env)
    assert bad.returncode != 0 and bad.stderr.strip() == (f"harness doctor: --interpreter: /bin/true does not run as "
                                                          f"Python {interpreter.VERSION}")
