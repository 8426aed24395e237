"""The Gradescope autograder, end to end: ``harness autograder`` writes the zip; its ``setup.sh``
installs the bundled wheel into a fresh venv (offline: no index, the dependencies seen from the
environment running the tests, see :func:`offline_setup_env`);
its ``run_autograder`` grades real submissions in a temporary ``AUTOGRADER_ROOT`` and writes
``results.json`` as Gradescope's specification has it
(https://gradescope-autograders.readthedocs.io/en/latest/specs/).
"""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any

import pytest
import yaml

from harness.report.autograder import offline_setup_env
from tests.conftest import BOTS, REPO

BASIS = REPO / "reference_players/priemspel/basis.py"
MARKER = "OWN-OUTPUT-51c2"
VISIBILITY = {"hidden", "after_due_date", "after_published", "visible"}
SLOW = b'''import time


class Player:
    """Legal, but 0.4 s per move: a job of many games outlasts a small time budget."""

    def __init__(self, name):
        self.name = name

    def zet(self, spel):
        time.sleep(0.4)
        return 1 if spel.positie < 2 else 2 if (spel.positie + 2) in (3, 5, 7, 11, 13) else 1
'''


def harness(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "harness", *args], cwd=cwd, capture_output=True, text=True,
                          timeout=600)


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A bundle of a PriemSpel grading job, unpacked in a fresh root and set up by its own setup.sh."""
    course = tmp_path_factory.mktemp("course")
    (course / "subs" / "ann").mkdir(parents=True)
    (course / "subs" / "ann" / "player.py").write_bytes(BASIS.read_bytes())
    (course / "tournaments.yaml").write_text("""
jobs:
  grading:
    game: priemspel
    format: gauntlet
    submissions: subs
    opponent: reference_players/priemspel/strategie.py
    settings: [{N: 5}, {start: 10, N: 4}]
    games: 2
    awards: {policy: pass_fail, points: 2}
    limits: {policy: wall}
""")
    done = harness(course, "autograder", "grading", "--out", str(course / "autograder.zip"))
    assert done.returncode == 0, done.stderr
    assert "calls are judged by CPU time" in done.stderr and "256 MiB" in done.stderr
    root = tmp_path_factory.mktemp("autograder")
    with zipfile.ZipFile(course / "autograder.zip") as z:
        names = z.namelist()
        assert {"setup.sh", "run_autograder", "harness-job.yaml", "bots/strategie.py"} <= set(names)
        assert any(n.startswith("wheels/bot_harness-") and n.endswith(".whl") for n in names)
        for name in ("setup.sh", "run_autograder"):  # executable inside the zip, as Gradescope runs them
            assert (z.getinfo(name).external_attr >> 16) & stat.S_IXUSR
        z.extractall(root / "source")
    for name in ("setup.sh", "run_autograder"):
        (root / "source" / name).chmod(0o755)
    shutil.copy2(root / "source" / "run_autograder", root / "run_autograder")  # as Gradescope places it
    env = offline_setup_env(root, tmp_path_factory.mktemp("python-bin"))  # see its docstring: works in a venv
    setup = subprocess.run(["bash", str(root / "source" / "setup.sh")], cwd=root, env=env, capture_output=True,
                           text=True, timeout=600)
    assert setup.returncode == 0, setup.stderr
    where = subprocess.run([str(root / "harness-venv/bin/python"), "-c", "import harness; print(harness.__file__)"],
                           cwd=root, env=env, capture_output=True, text=True, timeout=60)
    assert where.stdout.startswith(str(root / "harness-venv")), where  # the bundle's wheel, not this checkout
    return root


def test_an_installed_harness_bundles_a_wheel_of_itself(installed: Path, tmp_path: Path) -> None:
    """`pip install .` (CI, an instructor's machine) has no source tree: the wheel is repacked from
    the installed files, and holds the same files as the one pip built from the checkout."""
    course = tmp_path
    (course / "subs").mkdir()
    (course / "tournaments.yaml").write_text("jobs:\n  g: {game: priemspel, format: gauntlet, submissions: subs, "
                                             "opponent: reference_players/priemspel/basis.py}\n")
    done = subprocess.run([str(installed / "harness-venv/bin/harness"), "autograder", "g", "--out", "b.zip"],
                          cwd=course, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr

    def wheel_files(zip_path: Path) -> tuple[str, set[str]]:
        with zipfile.ZipFile(zip_path) as bundle:
            [name] = [n for n in bundle.namelist() if n.startswith("wheels/")]
            (tmp_path / "w.whl").write_bytes(bundle.read(name))
        with zipfile.ZipFile(tmp_path / "w.whl") as wheel:
            return name, {n for n in wheel.namelist() if not n.endswith("/RECORD")}

    built = next((installed / "source" / "wheels").glob("*.whl"))
    name, repacked = wheel_files(course / "b.zip")
    assert name == f"wheels/{built.name}"
    with zipfile.ZipFile(built) as wheel:
        assert repacked == {n for n in wheel.namelist() if not n.endswith("/RECORD")}
    with zipfile.ZipFile(tmp_path / "w.whl") as wheel:
        record = wheel.read(next(n for n in wheel.namelist() if n.endswith("/RECORD"))).decode()
    assert "harness/report/autograder.py,sha256=" in record and "INSTALLER" not in record


def grade(root: Path, files: dict[str, bytes] | None, source: Path | None = None) -> dict[str, Any]:
    """Run the bundle's run_autograder on ``files`` (None: no submission folder at all)."""
    shutil.rmtree(root / "submission", ignore_errors=True)
    shutil.rmtree(root / "results", ignore_errors=True)
    if files is not None:
        (root / "submission").mkdir()
        for name, data in files.items():
            (root / "submission" / name).write_bytes(data)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env["AUTOGRADER_ROOT"] = str(root)
    script = root / "run_autograder"
    if source is not None:  # a bundle with other settings: its own copy of run_autograder's command
        command = [str(root / "harness-venv/bin/python"), "-m", "harness.report.autograder", "--root", str(root),
                   "--source", str(source)]
    else:
        command = [str(script)]
    done = subprocess.run(command, cwd=root, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    return json.loads((root / "results" / "results.json").read_text())


def check_format(results: dict[str, Any]) -> dict[str, Any]:
    """Every field as Gradescope's specification types it; the one test."""
    assert isinstance(results["score"], float) and isinstance(results["execution_time"], int)
    assert results["visibility"] in VISIBILITY and results["stdout_visibility"] in VISIBILITY
    assert isinstance(results["output"], str) and results["output"]
    assert "max_score" not in results  # not a top-level field of the format
    [test] = results["tests"]
    assert set(test) >= {"name", "score", "max_score", "status", "output", "visibility"}
    assert test["status"] in ("passed", "failed") and test["visibility"] in VISIBILITY
    assert isinstance(test["score"], float) and 0 <= test["score"] <= test["max_score"]
    assert results["score"] == test["score"]
    for item in results.get("leaderboard", []):
        assert set(item) <= {"name", "value", "order"} and isinstance(item["name"], str)
    return test


def test_a_legal_bot_passes_with_what_was_judged_and_how(installed: Path) -> None:
    results = grade(installed, {"player.py": BASIS.read_bytes()})
    test = check_format(results)
    assert (test["name"], test["score"], test["max_score"], test["status"]) == ("grading", 2.0, 2.0, "passed")
    assert results["score"] == 2.0 and results["stdout_visibility"] == "hidden"
    assert test["output"].startswith("grading: 4 games, ") and test["output"].endswith("; 2 points.")
    assert "rank" not in test["output"]  # a rank among one student means nothing
    about = results["output"]
    assert "job grading (PriemSpel, gauntlet) against strategie" in about
    assert "1 s of CPU time" in about and "stopped after 3 s of wall-clock time" in about
    assert "0.5 vCPU, 768 MB" in about and "not wall-clock time as in the course's job" in about
    assert [i["name"] for i in results["leaderboard"]] == ["grading score", "grading wins"]
    assert 0 <= results["execution_time"] < 600


def test_a_bot_with_a_bad_answer_fails_with_its_first_error_and_own_output(installed: Path) -> None:
    source = (BOTS / "priemspel/wrong_type.py").read_text()
    noisy = source.replace("self.name = name", f"self.name = name\n        print('{MARKER}')")
    results = grade(installed, {"player.py": noisy.encode()})
    test = check_format(results)
    assert (test["score"], test["max_score"], test["status"]) == (0.0, 2.0, "failed") and results["score"] == 0
    assert "disqualified: bad_answer" in test["output"] and "First error: game 1" in test["output"]
    assert MARKER in test["output"]
    # The report the bundle builds is deleted with its temporary folder: the position is drawn
    # inline instead of naming a replay file the student cannot open.
    assert "games/" not in test["output"] and ".html" not in test["output"]
    assert "The position it was given:" in test["output"]
    # ... and the replay travels in results.json as text: the game of the first error, move by move.
    replay = test["output"].split("Game 1 (seed ", 1)[1].split("move by move (> marks your moves):\n", 1)[1]
    assert "REJECTED" in replay and "  result: strategie wins: student bad_answer" in replay, replay
    assert test["output_format"] == "text"


@pytest.mark.parametrize("files, reason", [
    ({"Player.py": BASIS.read_bytes()}, "no player.py in your submission; found Player.py"),
    ({"player.py": (BOTS / "priemspel/syntax_error.py").read_bytes()}, "syntax"),
    ({}, "the folder is empty"),
    (None, "the folder is empty"),
])
def test_a_broken_submission_still_gets_a_results_file_with_the_reason(installed: Path, files: dict[str, bytes] | None,
                                                                      reason: str) -> None:
    results = grade(installed, files)
    test = check_format(results)
    assert (test["score"], test["status"]) == (0.0, "failed")
    assert reason.lower() in test["output"].lower(), test["output"]
    assert "autograder-" not in test["output"] and "submissions/student" not in test["output"]  # the run's own folder


def test_the_global_time_budget_still_writes_a_result_with_the_reason(installed: Path, tmp_path: Path) -> None:
    source = tmp_path / "source"
    shutil.copytree(installed / "source", source)
    document = yaml.safe_load((source / "harness-job.yaml").read_text())
    document["autograder"]["budget"] = 4.0
    document["jobs"]["grading"]["games"] = 20  # 40 games of 0.4 s moves: far more than 4 s
    (source / "harness-job.yaml").write_text(yaml.safe_dump(document))
    results = grade(installed, {"player.py": SLOW}, source=source)
    test = check_format(results)
    assert (test["score"], test["status"]) == (0.0, "failed")
    assert "The grading stopped after" in test["output"] and "of 40 games" in test["output"]
    assert "may still change" not in test["output"]  # the run is over
    assert "the grading stops after 4 s" in results["output"]
    assert results["execution_time"] < 60


def test_a_job_that_cannot_grade_one_submission_is_refused_in_one_line(tmp_path: Path) -> None:
    (tmp_path / "subs" / "ann").mkdir(parents=True)
    (tmp_path / "subs" / "ann" / "player.py").write_bytes(BASIS.read_bytes())
    (tmp_path / "subs" / "ben").mkdir()
    (tmp_path / "subs" / "ben" / "player.py").write_bytes(BASIS.read_bytes())
    (tmp_path / "tournaments.yaml").write_text("""
jobs:
  tour: {game: priemspel, format: round_robin, submissions: subs, games: 1}
  grading: {game: priemspel, format: gauntlet, submissions: subs, opponent: reference_players/priemspel/basis.py}
  both: {jobs: [tour, grading]}
""")
    for args, problem in [
        (("tour", "--out", "a.zip"), "harness autograder: tour cannot grade one submission at a time: too few bots "
                                     "for this format (found 1 submissions and 0 reference players; PriemSpel needs 2)"),
        (("both", "--out", "a.zip"), "harness autograder: both is a group: an autograder grades one job (name one of "
                                     "tour, grading)"),
        (("grading", "--out", "a.tar"), "harness autograder: --out a.tar: Gradescope takes a .zip file"),
        (("grading", "--out", "no/a.zip"), "harness autograder: --out no/a.zip: the folder no does not exist"),
    ]:
        done = harness(tmp_path, "autograder", *args)
        assert (done.returncode, done.stderr.strip()) == (2, problem)
        assert not (tmp_path / "a.zip").exists()


def test_a_broken_bundle_still_writes_a_result_that_blames_the_autograder(installed: Path, tmp_path: Path) -> None:
    source = tmp_path / "source"
    shutil.copytree(installed / "source", source)
    (source / "bots" / "strategie.py").unlink()  # the job's opponent is gone
    results = grade(installed, {"player.py": BASIS.read_bytes()}, source=source)
    test = check_format(results)
    assert (results["score"], test["status"]) == (0.0, "failed")
    assert test["output"].startswith("The autograder is broken (ConfigError: ")
    assert "no such file: " in test["output"] and "not a verdict against your bot" in test["output"]


def test_a_sembasic_bundle_gives_its_points_part_by_part(installed: Path, tmp_path: Path) -> None:
    (tmp_path / "subs").mkdir()
    (tmp_path / "tournaments.yaml").write_text("jobs:\n  basic: {game: quoridor, format: sembasic, submissions: subs}\n")
    done = harness(tmp_path, "autograder", "basic", "--out", "basic.zip")
    assert done.returncode == 0, done.stderr
    with zipfile.ZipFile(tmp_path / "basic.zip") as z:
        z.extractall(tmp_path / "source")
    source = (REPO / "submissions/quoridor/no_path_check/player.py").read_bytes()
    results = grade(installed, {"player.py": source}, source=tmp_path / "source")
    test = check_format(results)
    assert (test["name"], test["score"], test["max_score"], test["status"]) == ("basic", 1.0, 2.0, "failed")
    assert test["output"].startswith("basic: 1 of 2 points (expand_obstacles: ")
    assert "checks (interface, expand_player, expand_obstacles)" in results["output"]
    assert "SemBasic" in results["output"] and "seed" not in results["output"]
    assert "leaderboard" not in results  # SemBasic ranks no one


def test_a_bot_cannot_write_its_own_results(installed: Path) -> None:
    """The bot knows where Gradescope reads the results; what it writes there never survives."""
    forged = '{"score": 100, "tests": [], "output": "forged"}'
    source = BASIS.read_text().replace("    def __init__(self, name):\n", f"""    def __init__(self, name):
        for path in ({str(installed / "results" / "results.json")!r}, {str(installed / "forged.json")!r}):
            try:
                with open(path, "w") as f:
                    f.write({forged!r})
            except OSError:
                pass
""", 1)
    assert source != BASIS.read_text()
    results = grade(installed, {"player.py": source.encode()})
    test = check_format(results)  # the harness's own document, with its one test
    assert results["score"] == test["score"] in (0.0, 2.0) and "forged" not in results["output"]
    assert not (installed / "forged.json").exists()  # the bot sees nothing of the grader's files


FORGE_AND_KILL = '''"""Disarms the guard, writes a full-marks results.json where Gradescope reads it, then kills the
harness (its parent in plain mode) and its own process group."""
import os
import signal


def disarm():
    import sys
    for frame in sys._current_frames().values():
        while frame is not None:
            guard = getattr(frame.f_locals.get("self"), "guard", None)
            if guard is not None:
                guard.armed = False
                return True
            frame = frame.f_back
    return False


class Player:
    def __init__(self, name):
        self.name = name

    def zet(self, spel):
        print("disarmed:", disarm())
        try:
            with open(@RESULTS@, "w") as f:
                f.write('{"score": 100.0, "output": "forged", "tests": [{"name": "grading", "score": 100.0, '
                        '"max_score": 2.0, "status": "passed", "output": "forged"}]}')
        except OSError as exc:  # a uid of its own cannot write the harness's folder
            print("forge:", exc)
        for kill in (lambda: os.kill(os.getppid(), signal.SIGKILL), lambda: os.killpg(0, signal.SIGKILL)):
            try:
                kill()
            except OSError as exc:
                print("kill:", exc)
        return 1
'''


@pytest.mark.parametrize("isolation", ["plain", "auto"])
def test_a_disarmed_bot_that_forges_results_and_kills_the_harness_gets_no_points(
        installed: Path, isolation: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """As in a Gradescope container (root, HARNESS_ISOLATION=plain: no bubblewrap) and under
    bubblewrap: the forged file never survives, and a killed harness gives no points."""
    monkeypatch.setenv("HARNESS_ISOLATION", isolation)
    source = FORGE_AND_KILL.replace("@RESULTS@", repr(str(installed / "results" / "results.json")))
    results = grade(installed, {"player.py": source.encode()})
    test = check_format(results)
    assert results["score"] == test["score"] == 0.0 and test["status"] == "failed"
    assert "forged" not in json.dumps(results)
    # As a uid of its own (the container tier: no bot runs as root) it cannot kill the harness,
    # only itself: its own crash is charged, and the harness writes the result from its records.
    assert "crash: the bot's process was killed by SIGKILL" in test["output"], test["output"]
    assert sorted(p.name for p in (installed / "results").iterdir()) == ["results.json"]
    # Only the harness writes there: a bot's own uid (the uid drop) can read, not write.
    for path, mode in ((installed / "results", 0o755), (installed / "results" / "results.json", 0o644)):
        assert (stat.S_IMODE(path.stat().st_mode), path.stat().st_uid) == (mode, os.geteuid())


def test_a_grading_process_that_dies_leaves_a_result_with_no_points(installed: Path, tmp_path: Path) -> None:
    """If the grading process itself is killed (only a bot running as root could), run_autograder
    replaces whatever results.json holds by a result with no points."""
    fake = tmp_path / "bin"
    fake.mkdir()
    # A grading "process" that writes a full-marks file and is then killed, as a bot could make it.
    (fake / "python").write_text("#!/bin/sh\n"
                                 f"echo '{{\"score\": 100.0, \"tests\": [], \"output\": \"forged\"}}' > "
                                 f"{installed / 'results' / 'results.json'}\nkill -9 $$\n")
    (fake / "python").chmod(0o755)
    script = (installed / "run_autograder").read_text().replace('PY="$ROOT/harness-venv/bin/python"',
                                                                f'PY="{fake / "python"}"')
    assert str(fake) in script
    (tmp_path / "run_autograder").write_text(script)
    shutil.rmtree(installed / "results", ignore_errors=True)
    done = subprocess.run(["bash", str(tmp_path / "run_autograder")], cwd=installed, capture_output=True, text=True,
                          env={**os.environ, "AUTOGRADER_ROOT": str(installed)}, timeout=60)
    assert done.returncode == 0, done.stderr
    results = json.loads((installed / "results" / "results.json").read_text())
    assert results["score"] == 0 and "forged" not in json.dumps(results)
    assert "did not finish (the autograder stopped with status 137)" in results["output"]
