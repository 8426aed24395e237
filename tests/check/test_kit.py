"""``harness kit``: what a course hands its students, built, installed into a fresh venv and used.

The kit holds only the reference players the course chose (the strong ones' source is absent),
and ``harness check`` inside it agrees with the instructor's ``harness run`` of the same job.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from tests.conftest import REPO

STRONG = [REPO / "reference_players/streky/strong.py", REPO / "reference_players/quoridor/waller.py",
          REPO / "reference_players/blokovanie/strong.py"]


def harness(*args: str, cwd: Path, exe: str | None = None) -> subprocess.CompletedProcess[str]:
    command = [exe] if exe else [sys.executable, "-m", "harness"]
    return subprocess.run([*command, *args], cwd=cwd, capture_output=True, text=True, timeout=900)


def kit(tmp_path: Path, name: str, config: Path = REPO / "tournaments.yaml") -> subprocess.CompletedProcess[str]:
    return harness("kit", name, "--config", str(config), "--out", str(tmp_path / "kit"), cwd=tmp_path)


def files_of(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


def course_file(tmp_path: Path, jobs: dict[str, object]) -> Path:
    path = tmp_path / "tournaments.yaml"
    path.write_text(yaml.safe_dump({"jobs": jobs}, sort_keys=False), encoding="utf-8")
    return path


def test_the_course_kit_holds_its_check_jobs_and_only_the_weak_players(tmp_path: Path) -> None:
    run = kit(tmp_path, "course")
    assert run.returncode == 0, run.stderr
    out = tmp_path / "kit"
    players = sorted(str(p.relative_to(out / "reference_players")) for p in (out / "reference_players").rglob("*.py"))
    assert players == ["__init__.py", "quoridor/random_legal.py", "quoridor/runner.py", "streky/brute.py",
                       "streky/random.py"]
    # The strong players' source is nowhere in the kit, under any name.
    strong = {p.read_bytes() for p in STRONG}
    assert not [name for name, data in files_of(out).items() if data in strong]
    assert "reference players not in the kit: quoridor/waller, streky/strong" in run.stderr
    assert "streky-tournament: left out (round_robin: not what `harness check` plays)" in run.stderr
    # The check jobs are the course's, less the class; installed as the harness's own grading jobs.
    jobs = yaml.safe_load((out / "tournaments.yaml").read_text())["jobs"]
    assert list(jobs) == ["streky-grading", "quoridor-grading"]
    course = yaml.safe_load((REPO / "tournaments.yaml").read_text())["jobs"]
    for name, body in jobs.items():
        expected = {k: v for k, v in course[name].items() if k not in ("submissions", "reference")}
        expected["opponent"] = Path(expected["opponent"]).stem
        assert body == expected
    assert (out / "harness/jobs/grading.yaml").read_text() == (out / "tournaments.yaml").read_text()
    assert not (out / "submissions").exists() and not (out / "tests").exists()
    assert list(out.rglob("__pycache__")) == [] and list(out.rglob("*.egg-info")) == []
    assert "python3 -m venv .venv && .venv/bin/pip install ." in (out / "README.md").read_text()


def test_the_course_chooses_the_players_and_a_check_job_cannot_lose_its_opponent(tmp_path: Path) -> None:
    grading = yaml.safe_load((REPO / "harness/jobs/grading.yaml").read_text())["jobs"]["streky-grading"]
    grading["opponent"] = "brute"
    jobs = {"streky-grading": grading, "handout": {"jobs": ["streky-grading"], "kit": {"players": ["brute", "strong"]}},
            "stingy": {"jobs": ["streky-grading"], "kit": {"players": ["random"]}},
            "hard": {**grading, "opponent": "strong"}}
    config = course_file(tmp_path, jobs)
    run = kit(tmp_path, "handout", config)
    assert run.returncode == 0, run.stderr
    assert sorted(p.name for p in (tmp_path / "kit/reference_players/streky").glob("*.py")) == ["brute.py", "strong.py"]
    shutil.rmtree(tmp_path / "kit")
    run = kit(tmp_path, "stingy", config)
    assert run.returncode == 2 and run.stderr.strip() == (
        "harness kit: streky-grading plays against brute (the course's kit: {players: [...]} leaves it out): hand "
        "it out, or kit a job without it (the kit's check must play what the grader plays)")
    assert not (tmp_path / "kit").exists()
    run = kit(tmp_path, "hard", config)  # no kit key: the strong opponent is not handed out by default
    assert run.returncode == 2 and "hard plays against strong (a strong player, not handed out unless" in run.stderr
    # A name that is no reference player is the jobs file's problem, found by validate too.
    jobs["typo"] = {"jobs": ["streky-grading"], "kit": {"players": ["brutte"]}}
    config = course_file(tmp_path, jobs)
    run = harness("validate", "--config", str(config), cwd=tmp_path)
    assert run.returncode == 1 and "jobs.typo.kit.players[0]: 'brutte' is no reference player of streky" in \
        run.stdout + run.stderr


def test_a_kit_goes_into_an_empty_folder_only(tmp_path: Path) -> None:
    (tmp_path / "kit").mkdir()
    (tmp_path / "kit/notes.txt").write_text("mine")
    run = kit(tmp_path, "streky-grading")
    assert run.returncode == 2 and "the folder is not empty" in run.stderr
    assert (tmp_path / "kit/notes.txt").read_text() == "mine"


def test_check_serves_the_course_file_as_handed_out_without_submissions_or_roster(tmp_path: Path) -> None:
    # The course's own file, copied alone: no submissions folder, no students.csv.
    jobs = yaml.safe_load((REPO / "tournaments.yaml").read_text())["jobs"]
    jobs["priemspel-grading"]["roster"] = "students.csv"
    course_file(tmp_path, jobs)
    bot = REPO / "submissions/priemspel/alice/player.py"
    run = harness("check", "priemspel", str(bot), "--games", "2", cwd=tmp_path)
    assert run.returncode == 0, run.stdout + run.stderr
    words = " ".join(run.stdout.split())
    assert "note: tournaments.yaml: jobs.priemspel-grading.submissions: no such folder: submissions/priemspel: " \
           "left out (check needs no submissions)" in words
    assert "jobs.priemspel-grading.roster: no such file: students.csv: left out (check needs no roster)" in words
    (tmp_path / "students.csv").write_text("login,name\n")  # a roster with no logins
    run = harness("check", "priemspel", str(bot), "--games", "2", cwd=tmp_path)
    assert run.returncode == 0 and "roster: students.csv lists no logins" in " ".join(run.stdout.split())
    # The grader itself still refuses the job: a run needs its class.
    run = harness("run", "priemspel-grading", "--no-self-check", cwd=tmp_path)
    assert run.returncode == 2 and "no such folder: submissions/priemspel" in run.stderr


@pytest.mark.slow
def test_check_inside_an_installed_kit_matches_the_instructors_run(tmp_path: Path) -> None:
    # The course: the shipped Quoridor grading and SemBasic, two students.
    shipped = yaml.safe_load((REPO / "tournaments.yaml").read_text())["jobs"]
    course = tmp_path / "course"
    for login in ("through_walls", "no_crossing"):
        shutil.copytree(REPO / "submissions/quoridor" / login, course / "subs" / login)
    jobs = {name: {**shipped[name], "submissions": "subs"} for name in ("quoridor-grading", "quoridor-sembasic")}
    jobs["quoridor-grading"]["opponent"] = "random_legal"
    jobs["course"] = {"jobs": ["quoridor-grading", "quoridor-sembasic"]}
    config = course_file(course, jobs)
    for name in ("quoridor-grading", "quoridor-sembasic"):
        run = harness("run", name, "--quiet", "--no-self-check", cwd=course)
        assert run.returncode == 0, run.stderr
    harness("export", "quoridor-grading", "--format", "feedback", "--out", "fb", cwd=course)
    sembasic = json.loads(harness("leaderboard", "quoridor-sembasic", "--format", "json", cwd=course).stdout)
    grader = {row["login"]: row for row in sembasic["rows"]}
    # The student's folder: the kit and the bot, nothing else; a fresh venv of Debian's Python.
    student = tmp_path / "student"
    run = harness("kit", "course", "--config", str(config), "--out", str(student / "kit"), cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    python = "/usr/bin/python3.11" if Path("/usr/bin/python3.11").exists() else sys.executable
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    venv = subprocess.run(f"{python} -m venv .venv && .venv/bin/pip install -q .", shell=True, cwd=student / "kit",
                          capture_output=True, text=True, timeout=900, env=env)
    assert venv.returncode == 0, venv.stderr
    exe = str(student / "kit/.venv/bin/harness")
    installed = subprocess.run([str(student / "kit/.venv/bin/python"), "-c",
                                "import reference_players, pathlib; "
                                "p = pathlib.Path(reference_players.__file__).parent; "
                                "print(sorted(str(f.relative_to(p)) for f in p.rglob('*.py')))"],
                               capture_output=True, text=True, cwd=student, env=env)
    assert installed.stdout.strip() == str(["__init__.py", "quoridor/random_legal.py", "quoridor/runner.py"])
    sample = subprocess.run([exe, "check", "quoridor", str(course / "subs/no_crossing"), "--games", "1"], cwd=student,
                            capture_output=True, text=True, timeout=900, env=env)
    assert "Grading job: quoridor-grading (from the course's kit)" in sample.stdout, sample.stdout + sample.stderr
    verdicts = {}
    for login in ("through_walls", "no_crossing"):
        shutil.copy(course / "subs" / login / "player.py", student / "player.py")
        checked = subprocess.run([exe, "check", "quoridor", "player.py", "--json"], cwd=student, capture_output=True,
                                 text=True, timeout=900, env=env)
        assert checked.returncode in (0, 1), checked.stderr
        report = json.loads(checked.stdout)
        verdicts[login] = checked.returncode, report
        assert report["job"]["name"] == "quoridor-grading" and report["job"]["games"] == 30
        feedback = (course / "fb" / f"{login}.txt").read_text()
        bad = [g for g in report["games"] if g["verdict"] != "ok"]
        if bad:  # the same first game, seed, seat and reason as the grader's feedback
            g = bad[0]
            assert (f"First error: game {g['number']} (seed {g['seed']}, seat {g['seat']}), against random_legal: "
                    f"{g['verdict']}: {g['reason']}") in feedback
    for login, (code, report) in verdicts.items():
        # The instructor's verdict: every game ok and SemBasic passed; check's exit code says the same.
        accepted = "0 points" not in (course / "fb" / f"{login}.txt").read_text() and grader[login]["extra"]["passed"]
        assert code == (0 if accepted else 1) and report["passed"] is accepted
        assert report["battery"]["points"] == grader[login]["points"]
    assert [verdicts[login][0] for login in ("through_walls", "no_crossing")] == [1, 1]  # both below the bar
    assert sorted(p.name for p in student.iterdir()) == ["kit", "player.py"]


def test_the_kits_project_installs_as_the_harnesss_own(tmp_path: Path) -> None:
    """The kit's pyproject.toml keeps the repository's packaging (the shims, the package data, the
    dependencies), so a kit installs what `pip install .` of the harness installs, less the players."""
    import tomllib

    assert kit(tmp_path, "priemspel-grading").returncode == 0
    mine = tomllib.loads((tmp_path / "kit/pyproject.toml").read_text())
    repo = tomllib.loads((REPO / "pyproject.toml").read_text())
    assert mine["tool"]["setuptools"] == repo["tool"]["setuptools"]
    assert mine["project"]["scripts"] == repo["project"]["scripts"]
    assert mine["project"]["dependencies"] == repo["project"]["dependencies"]
    assert mine["build-system"] == repo["build-system"]
    assert sorted(p.name for p in (tmp_path / "kit/harness/studentapi").glob("*.py")) == [
        "base.py", "clovece.py", "obstacle.py"]
