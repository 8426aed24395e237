"""A Gradescope autograder for one job: the bundle (``harness autograder``) and what runs inside it.

Gradescope's contract (https://gradescope-autograders.readthedocs.io/en/latest/specs/): a zip
with ``setup.sh`` (run once, as root, while Gradescope builds the image; the zip is unpacked in
``/autograder/source``) and ``run_autograder`` (copied to ``/autograder/run_autograder`` and run
for every submission, in ``/autograder``), which must write ``/autograder/results/results.json``
for the student's files in ``/autograder/submission``. Its results format: ``score``,
``execution_time`` (seconds), ``output``, ``visibility`` and ``stdout_visibility`` (``hidden``,
``after_due_date``, ``after_published`` or ``visible``), ``tests`` (each with ``name``,
``score``, ``max_score``, ``status`` ``passed``/``failed``, ``output``, ``visibility``) and
``leaderboard`` (``{name, value}`` entries, an ``order`` of ``asc`` or ``desc``).

The bundle holds a wheel of the harness itself (so installing it does not depend on this
repository), the job as a jobs file, and copies of the job's opponent and reference players.
Every path is under ``AUTOGRADER_ROOT`` (default ``/autograder``), so a test runs the bundle
anywhere.

The bundled job is sized for Gradescope's default container (0.5 vCPU, 768 MB, a 10-minute
cap): one game at a time, calls judged by CPU time (on half a CPU a call's wall-clock time is
about twice its CPU time, so the wall-clock backstop is at least 3x the limit), a smaller
memory cap per bot (two bots and the harness share 768 MB), and a time budget after which the
run stops and ``results.json`` says so. A job that awards points by rank among students
(``tiers``) cannot be graded one submission at a time: its bundle awards no points and shows
the score on Gradescope's leaderboard instead. Every one of these choices is stated in the
results' ``output``.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import signal
import site
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path
from typing import Any

import yaml

from harness.config import Job, locate
from harness.tournament.formats import format_of

JOB_FILE = "harness-job.yaml"  # the bundled job, its paths relative to the bundle's folder
LOGIN = "student"  # the one submission's login inside the run
VENV = "harness-venv"  # under AUTOGRADER_ROOT: the harness's own environment, made by setup.sh
CONTAINER = "Gradescope's default container (0.5 vCPU, 768 MB, a 10-minute cap)"
DEFAULT_BUDGET = 540.0  # seconds of play before the run stops: 10 minutes less room to start and report
DEFAULT_MEMORY_MB = 256  # per bot: the student's bot, its opponent and the harness share 768 MB
MIN_BACKSTOP = 3.0  # on 0.5 vCPU a call's wall-clock time is about twice its CPU time
STOP_GRACE = 20.0  # seconds `harness run` gets to stop its games after SIGTERM
# Import names of approved packages whose distribution is named otherwise.
DISTRIBUTIONS = {"PIL": "pillow", "sklearn": "scikit-learn", "yaml": "pyyaml", "cv2": "opencv-python-headless",
                 "bs4": "beautifulsoup4"}


class BundleError(ValueError):
    """The job cannot become an autograder (one line)."""


# ---- building the bundle (the instructor's machine) ---------------------------------------
def source_tree() -> Path | None:
    """The harness's source checkout (the folder with its ``pyproject.toml``; an editable install),
    or None when the harness was installed from a wheel."""
    import harness

    root = Path(harness.__file__).resolve().parents[1]
    project = root / "pyproject.toml"
    if project.is_file() and 'name = "bot-harness"' in project.read_text(encoding="utf-8"):
        return root
    return None


def build_wheel(dest: Path) -> Path:
    """A wheel of the harness: built by pip from a clean copy of the source checkout (a stale
    ``build/`` folder in it must not ride along), else repacked from the installed files."""
    root = source_tree()
    if root is None:
        return repack_installed(dest)
    with tempfile.TemporaryDirectory(prefix="harness-wheel-") as tmp:
        copy = Path(tmp) / "src"
        ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info", "build", "dist")
        for name in ("harness", "reference_players"):
            shutil.copytree(root / name, copy / name, ignore=ignore)
        for name in ("pyproject.toml", "README.md"):
            shutil.copy2(root / name, copy / name)
        done = subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--wheel-dir",
                               str(dest), str(copy)], capture_output=True, text=True, timeout=600)
        if done.returncode != 0:
            last = (done.stderr.strip().splitlines() or ["(no output)"])[-1]
            raise BundleError(f"pip could not build a wheel of the harness: {last}")
    wheels = sorted(dest.glob("bot_harness-*.whl"))
    if not wheels:
        raise BundleError("pip built no wheel of the harness")
    return wheels[-1]


def repack_installed(dest: Path) -> Path:
    """A wheel of the installed harness, from the files its installation recorded (the inverse of
    pip's install: the package files and the metadata, with a fresh ``RECORD``; see the wheel
    format, https://packaging.python.org/en/latest/specifications/binary-distribution-format/)."""
    import base64
    import hashlib
    from importlib import metadata

    try:
        dist = metadata.distribution("bot-harness")
    except metadata.PackageNotFoundError:
        raise BundleError("the harness is neither a source checkout nor an installed distribution") from None
    info = f"bot_harness-{dist.version}.dist-info"
    tag = next((line.split(":", 1)[1].strip() for line in (dist.read_text("WHEEL") or "").splitlines()
                if line.startswith("Tag:")), "py3-none-any")
    skip = {"RECORD", "INSTALLER", "REQUESTED", "direct_url.json"}  # written by the installer, not the wheel
    wheel = dest / f"bot_harness-{dist.version}-{tag}.whl"
    record = []
    with zipfile.ZipFile(wheel, "w", zipfile.ZIP_DEFLATED) as z:
        for f in dist.files or []:
            parts = f.parts
            if parts[0] == ".." or "__pycache__" in parts or (parts[0].endswith(".dist-info") and f.name in skip):
                continue
            data = Path(str(f.locate())).read_bytes()
            name = "/".join((info, *parts[1:])) if parts[0].endswith(".dist-info") else "/".join(parts)
            z.writestr(name, data)
            digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
            record.append(f"{name},sha256={digest},{len(data)}")
        z.writestr(f"{info}/RECORD", "\n".join([*record, f"{info}/RECORD,,"]) + "\n")
    if not any(r.startswith("harness/cli.py,") for r in record):
        raise BundleError(f"the installed harness lists no files of its own ({dist.locate_file('')})")
    return wheel


def raw_job(job: Job) -> dict[str, Any]:
    """The job's mapping as its jobs file writes it, with the file's ``defaults`` applied."""
    data = yaml.safe_load(job.config_file.read_text(encoding="utf-8"))
    return {**(data.get("defaults") or {}), **data["jobs"][job.name]}


def bundled_job(job: Job, memory_mb: int) -> tuple[dict[str, Any], dict[str, Path], list[str]]:
    """The job as the bundle runs it, the bot files it needs (bundle path -> file), and what changed."""
    body = raw_job(job)
    notes: list[str] = []
    for key in ("submissions", "roster", "results", "workers"):
        body.pop(key, None)
    if body.pop("deadline", None) is not None:  # Gradescope times the uploads itself
        body.pop("late", None)
        notes.append("the job's deadline is not charged here: Gradescope applies the assignment's own due date "
                     "and late settings")
    body["workers"] = 1
    files: dict[str, Path] = {}

    def place(path: Path) -> str:
        name = f"bots/{path.name}"
        n = 1
        while name in files and files[name] != path:
            name, n = f"bots/{n}/{path.name}", n + 1
        files[name] = path
        return name

    if job.opponent is not None:
        body["opponent"] = place(job.opponent)
    if job.reference:
        body["reference"] = [place(p) for p in job.reference]
    limits = dict(body.get("limits") or {})
    if limits.get("policy") == "wall":
        notes.append("calls are judged by CPU time, not wall-clock time as in the course's job: a shared "
                     "half CPU must not cost a bot its game")
    limits["policy"] = "cpu"
    limits["backstop"] = max(float(limits.get("backstop", MIN_BACKSTOP)), MIN_BACKSTOP)
    course_mb = job.limits.memory_bytes >> 20
    if course_mb > memory_mb:
        limits["memory_mb"] = memory_mb
        notes.append(f"each bot may use {memory_mb} MiB of memory (the course's job allows {course_mb} MiB; "
                     "the container has 768 MB for both bots and the harness)")
    limits.pop("isolation", None)  # bubblewrap where the container allows it, else the plain sandbox
    body["limits"] = limits
    if job.awards.policy == "tiers":
        body["awards"] = {"policy": "none"}
        notes.append("the course's job gives points by rank among students, which one submission at a time "
                     "cannot decide: this autograder gives no points and puts the score on the leaderboard")
    return body, files, notes


SETUP_SH = """#!/usr/bin/env bash
# Gradescope runs this once, as root, while it builds the autograder's image. Written by
# `harness autograder`: it installs the harness from the wheel in this bundle, and {packages}.
set -euo pipefail
ROOT="${{AUTOGRADER_ROOT:-/autograder}}"
HERE="$(cd "$(dirname "${{BASH_SOURCE[0]}}")" && pwd)"
PY=""
for candidate in python3.13 python3.12 python3.11 python3; do
  if command -v "$candidate" >/dev/null 2>&1 \\
     && "$candidate" -c 'import sys, venv; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
    PY="$candidate"; break
  fi
done
if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
  if [ -z "$PY" ]; then  # e.g. Ubuntu 22.04 images: Python 3.10 only
    apt-get update -qq && apt-get install -y -qq python3.11 python3.11-venv >/dev/null
    PY=python3.11
  fi
  # bubblewrap isolates each bot where the container allows it; the harness falls back otherwise.
  command -v bwrap >/dev/null 2>&1 || apt-get install -y -qq bubblewrap >/dev/null || true
fi
[ -n "$PY" ] || {{ echo "setup.sh: the harness needs Python 3.11 or later" >&2; exit 1; }}
# HARNESS_VENV_OPTIONS: e.g. --system-site-packages, to install offline from packages already there.
"$PY" -m venv ${{HARNESS_VENV_OPTIONS:-}} "$ROOT/{venv}"
# HARNESS_SITE_PACKAGES: folders of installed packages (':'-separated) the venv sees as well, to
# install offline where the harness's dependencies are in another environment (a venv, say).
if [ -n "${{HARNESS_SITE_PACKAGES:-}}" ]; then
  SITE="$("$ROOT/{venv}/bin/python" -c 'import sysconfig; print(sysconfig.get_path("purelib"))')"
  tr ':' '\\n' <<<"$HARNESS_SITE_PACKAGES" > "$SITE/harness-site-packages.pth"
fi
# The harness itself into the venv even if a copy is visible from outside it, then what it needs.
"$ROOT/{venv}/bin/python" -m pip install --quiet --no-deps --force-reinstall "$HERE"/wheels/*.whl
"$ROOT/{venv}/bin/python" -m pip install --quiet "$HERE"/wheels/*.whl {requirements}
"$ROOT/{venv}/bin/python" -m harness --version
"""

RUN_AUTOGRADER = """#!/usr/bin/env bash
# Gradescope runs this for every submission. Written by `harness autograder`: it plays the job
# {job} on $AUTOGRADER_ROOT/submission and writes $AUTOGRADER_ROOT/results/results.json.
ROOT="${{AUTOGRADER_ROOT:-/autograder}}"
PY="$ROOT/{venv}/bin/python"
[ -x "$PY" ] || PY=python3
mkdir -p "$ROOT/results"
"$PY" -m harness.report.autograder --root "$ROOT" --source "$ROOT/source"
status=$?
# The grading process exits 0 once it has written results.json from its own records. Any other
# status means it died (killed): whatever results.json holds then is not its verdict.
if [ "$status" != 0 ] || [ ! -s "$ROOT/results/results.json" ]; then
  rm -f "$ROOT/results/results.json"
  printf '{{"score": 0, "output": "The grading did not finish (the autograder stopped with status %s): no points '\\
'for unfinished work. If this happens again, please tell the instructor.", "visibility": "visible", '\\
'"stdout_visibility": "hidden", "tests": []}}\\n' "$status" > "$ROOT/results/results.json"
fi
exit 0
"""


def _validate(name: str, body: dict[str, Any], files: dict[str, Path]) -> None:
    """Load the bundled job as the run will (one submission, the bundled bots): :class:`BundleError` if
    it cannot grade one submission (a round robin without reference players, say)."""
    from harness.config import ConfigError, load_config

    with tempfile.TemporaryDirectory(prefix="harness-bundle-check-") as tmp:
        work = Path(tmp)
        for bundled, path in files.items():
            (work / bundled).parent.mkdir(parents=True, exist_ok=True)
            (work / bundled).symlink_to(path)
        (work / "submissions" / LOGIN).mkdir(parents=True)
        config = work / "tournaments.yaml"
        config.write_text(yaml.safe_dump({"jobs": {name: {**body, "submissions": "submissions"}}}), encoding="utf-8")
        try:
            load_config(config).resolve(name)
        except ConfigError as exc:
            problem = str(exc).split(": ", 2)[-1]
            raise BundleError(f"{name} cannot grade one submission at a time: {problem}") from None


def build_bundle(job: Job, out: Path, *, budget: float = DEFAULT_BUDGET, memory_mb: int = DEFAULT_MEMORY_MB,
                 visibility: str = "visible") -> list[str]:
    """Write the autograder zip for ``job`` to ``out``; returns the notes on what the bundle changes."""
    body, files, notes = bundled_job(job, memory_mb)
    _validate(job.name, body, files)
    settings = {"job": job.name, "budget": budget, "visibility": visibility, "notes": notes}
    packages = sorted(set(job.limits.packages))
    requirements = " ".join(DISTRIBUTIONS.get(p, p) for p in packages)
    with tempfile.TemporaryDirectory(prefix="harness-bundle-") as tmp:
        wheel = build_wheel(Path(tmp))
        document = {"autograder": settings, "jobs": {job.name: body}}
        part = out.with_name(out.name + ".part")  # no half-written bundle under the real name
        with zipfile.ZipFile(part, "w", zipfile.ZIP_DEFLATED) as z:
            def script(name: str, text: str) -> None:
                info = zipfile.ZipInfo(name, date_time=(2024, 1, 1, 0, 0, 0))
                info.external_attr = (0o100755 << 16)  # executable, as Gradescope runs them
                info.compress_type = zipfile.ZIP_DEFLATED
                z.writestr(info, text)

            script("setup.sh", SETUP_SH.format(venv=VENV, requirements=requirements,
                                               packages=f"the approved packages ({', '.join(packages)})"
                                               if packages else "nothing else (the game needs no more)"))
            script("run_autograder", RUN_AUTOGRADER.format(venv=VENV, job=job.name))
            z.writestr(JOB_FILE, yaml.safe_dump(document, sort_keys=False, allow_unicode=True))
            z.write(wheel, f"wheels/{wheel.name}")
            for name, path in files.items():
                if path.is_dir():
                    for f in sorted(p for p in path.rglob("*") if p.is_file() and "__pycache__" not in p.parts):
                        z.write(f, f"{name}/{f.relative_to(path)}")
                else:
                    z.write(path, name)
        part.replace(out)
    return notes


# ---- running inside Gradescope ------------------------------------------------------------
def offline_setup_env(root: Path, bin_dir: Path) -> dict[str, str]:
    """The environment for a bundle's ``setup.sh`` to install offline under ``root``, from the
    environment running this interpreter (tests, ``bench/bench_autograder.py``).

    Its venv is made by this interpreter (wrappers in ``bin_dir``, first on PATH under every name
    setup.sh tries) and sees this environment's packages through ``HARNESS_SITE_PACKAGES``.
    ``--system-site-packages`` would not do inside a venv: a venv made from a venv sees the base
    interpreter's packages, not the venv's, and pip then finds no tabulate without an index.
    """
    for name in ("python3.13", "python3.12", "python3.11", "python3"):
        wrapper = bin_dir / name
        wrapper.write_text(f'#!/bin/sh\nexec "{sys.executable}" "$@"\n')
        wrapper.chmod(0o755)
    user = [site.getusersitepackages()] if site.ENABLE_USER_SITE else []
    sites = [p for p in (*site.getsitepackages(), *user) if Path(p).is_dir()]
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    return {**env, "AUTOGRADER_ROOT": str(root), "PATH": f"{bin_dir}{os.pathsep}{env.get('PATH', '')}",
            "HARNESS_SITE_PACKAGES": os.pathsep.join(sites), "PIP_NO_INDEX": "1"}


def _job_document(source: Path) -> dict[str, Any]:
    document = yaml.safe_load((source / JOB_FILE).read_text(encoding="utf-8"))
    if not isinstance(document, dict) or "autograder" not in document:
        raise ValueError(f"{source / JOB_FILE}: not an autograder's job file")
    return document


def _prepare(source: Path, submission: Path, work: Path) -> tuple[Path, str, dict[str, Any]]:
    """The run's jobs file in ``work`` (the submission copied as the one login, the bots from the
    bundle, the store in ``work``), the job's name, and the bundle's settings."""
    document = _job_document(source)
    settings = document["autograder"]
    name = settings["job"]
    body = dict(document["jobs"][name])
    target = work / "submissions" / LOGIN
    if submission.is_dir():
        # Links are copied as links: the harness refuses them itself, with its own reason.
        shutil.copytree(submission, target, symlinks=True)
    else:
        target.mkdir(parents=True)  # nothing was submitted: the harness says the folder is empty
    body["submissions"] = str(work / "submissions")
    body["results"] = str(work / "results")
    if "opponent" in body:
        body["opponent"] = str(locate(source, body["opponent"]))
    if "reference" in body:
        body["reference"] = [str(locate(source, p)) for p in body["reference"]]
    config = work / "tournaments.yaml"
    config.write_text(yaml.safe_dump({"jobs": {name: body}}, sort_keys=False, allow_unicode=True), encoding="utf-8")
    return config, name, settings


def _play(config: Path, name: str, seconds: float, log: Path) -> tuple[int | None, str]:
    """Run ``harness run`` on the job for at most ``seconds``; (its exit code or None if stopped, its stderr)."""
    with open(log, "w+", encoding="utf-8", errors="replace") as err:
        # No timing self-check: on half a CPU its wall/CPU ratio is about 2, near its refusal line, and a
        # refused run would tell the student nothing; calls are judged by CPU time, which a slow
        # container does not inflate.
        proc = subprocess.Popen([sys.executable, "-m", "harness", "run", name, "--config", str(config), "--quiet",
                                 "--workers", "1", "--no-self-check"], stdout=subprocess.DEVNULL, stderr=err,
                                stdin=subprocess.DEVNULL,
                                cwd=config.parent, start_new_session=True)
        try:
            code: int | None = proc.wait(timeout=max(1.0, seconds))
        except subprocess.TimeoutExpired:
            code = None
            os.killpg(proc.pid, signal.SIGTERM)  # the run stops its games and keeps the finished ones
            try:
                proc.wait(timeout=STOP_GRACE)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
        err.seek(0)
        return code, err.read()


def describe(job: Job, settings: dict[str, Any]) -> str:
    """What is judged and how, in words: the job, its games, the clocks, the memory, the container."""
    from harness.pregrade import limits_text
    from harness.sandbox.isolation import use_bwrap

    kind = format_of(job)
    against = kind.against(job)
    try:
        isolation = "bubblewrap (no network, no files but its own)" if use_bwrap("auto") else \
            "a plain process with resource limits (this container does not allow bubblewrap)"
    except Exception:  # noqa: BLE001 - only a description
        isolation = "the harness's sandbox"
    games, checks = kind.extent(job), kind.checks(job)
    lines = [f"Graded by the job {job.name} ({job.spec.title}, {job.format}) {against}{games}.",
             f"Judged: every call of your bot, {limits_text(job.limits, job.spec)}; "
             f"each bot runs as {isolation}; {checks}.",
             f"Sized for {CONTAINER}: one game at a time; the grading stops after {settings['budget']:g} s."]
    lines += [f"Note: {n}." for n in settings.get("notes", [])]
    return "\n".join(lines)


def _failure(reason: str, elapsed: float, visibility: str, about: str = "") -> dict[str, Any]:
    return {"score": 0.0, "execution_time": round(elapsed), "output": "\n".join(x for x in (about, reason) if x),
            "visibility": visibility, "stdout_visibility": "hidden",
            "tests": [{"name": "grading", "score": 0.0, "max_score": 0.0, "status": "failed", "output": reason,
                       "visibility": "visible"}]}


def _for_one_student(text: str) -> str:
    """The export's text without what means nothing for one submission graded alone: its rank among
    the students (always 1) and "points may still change" (the run is over, finished or not)."""
    lines = [line for line in text.splitlines() if not line.startswith("(The job is incomplete")]
    return "\n".join(re.sub(r"; rank \d+;", ";", line) for line in lines)


def grade(root: Path, source: Path) -> dict[str, Any]:
    """Play the bundled job on ``root/submission``; the ``results.json`` document, whatever happens."""
    from harness.config import load_config
    from harness.report.export import gradescope
    from harness.tournament.formats import job_results
    from harness.tournament.store import StoreError

    start = time.monotonic()
    settings: dict[str, Any] = {"budget": DEFAULT_BUDGET, "visibility": "visible"}
    with tempfile.TemporaryDirectory(prefix="autograder-") as tmp:
        work = Path(tmp)
        try:
            config, name, settings = _prepare(source, root / "submission", work)
            job = load_config(config).resolve(name)[0]
        except Exception as exc:  # noqa: BLE001 - a broken bundle: still a results.json with the reason
            return _failure(f"The autograder is broken ({type(exc).__name__}: {exc}): not a verdict against your "
                            "bot; please tell the instructor.", time.monotonic() - start, "visible")
        visibility = settings.get("visibility", "visible")
        about = describe(job, settings)
        budget = float(settings["budget"]) - (time.monotonic() - start)
        code, stderr = _play(config, name, budget, work / "run.log")
        print(stderr, end="")  # the instructor's debugging output ($AUTOGRADER_ROOT/results/stdout)
        elapsed = time.monotonic() - start
        try:
            results = job_results(job)
        except (StoreError, OSError, ValueError) as exc:
            last = next((line for line in reversed(stderr.splitlines()) if line.strip()), str(exc))
            why = ("the grading did not start within the time budget" if code is None else
                   f"the harness could not grade: {last.replace(str(work), '.')}")
            return _failure(f"No result: {why}. This is not a verdict against your bot; please tell the "
                            "instructor.", elapsed, visibility, about)
        last = next((line for line in reversed(stderr.splitlines()) if line.strip()), "")
        if code is not None and code < 0:  # killed by a signal: only a bot (or the machine) sends one
            return _failure(f"The grading did not finish: the harness was killed by "
                            f"{signal.Signals(-code).name if -code in signal.Signals._value2member_map_ else -code} "
                            f"after {results.done} game(s); no points for unfinished work.", elapsed, visibility,
                            about)
        if code not in (0, None) and results.done == 0:
            return _failure(f"No result: the harness could not grade ({last.replace(str(work), '.')}). This is not "
                            "a verdict against your bot; please tell the instructor.", elapsed, visibility, about)
        document = gradescope([results]).get(LOGIN)
        if document is None:
            return _failure("No result: the harness found no submission to grade.", elapsed, visibility, about)
        test = document["tests"][0]
        row = next(r for r in results.rows if r.login == LOGIN)
        if results.incomplete:
            note = (f"The grading stopped after {elapsed:.0f} s ({results.incomplete}): the games that were "
                    f"played are below; no points, because the grading did not finish"
                    + (" (a game was too slow, or the container too busy)" if code is None else ""))
            test["score"] = 0.0
            test["output"] = note + ".\n" + test["output"]
        passed = (not results.incomplete and not row.absent and not row.disqualified
                  and test["score"] >= test["max_score"])
        test["status"] = "passed" if passed else "failed"
        test["output"] = _for_one_student(test["output"]).replace(str(work / "submissions" / LOGIN), "your submission")
        score = min(sum(t["score"] for t in document["tests"]), sum(t["max_score"] for t in document["tests"]))
        document.pop("max_score", None)  # not a field of Gradescope's format: the tests' max_score sum up
        document.update({"score": score, "execution_time": round(elapsed), "visibility": visibility,
                         "stdout_visibility": "hidden",
                         "output": about + "\n" + test["output"].splitlines()[0]})
        if not document.get("leaderboard"):
            document.pop("leaderboard", None)
        return document


UNFINISHED = ("The grading did not finish (the grading process was stopped before it wrote its result): no points "
              "for unfinished work. If this happens again, please tell the instructor.")


def write_results(root: Path, document: dict[str, Any]) -> None:
    """Write ``root/results/results.json`` whole, replacing whatever is there (a file or a link a
    bot planted is replaced, never followed or appended to).

    The folder is the harness's (root's in Gradescope), writable by no one else: a bot runs as
    a uid of its own (or under bubblewrap, which does not show it the folder at all).
    """
    folder = root / "results"
    folder.mkdir(parents=True, exist_ok=True)
    os.chmod(folder, 0o755)
    handle, temporary = tempfile.mkstemp(prefix=".results-", suffix=".json", dir=folder)
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as f:
            f.write(json.dumps(document, indent=1))
        os.chmod(temporary, 0o644)
        os.replace(temporary, folder / "results.json")
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def main(argv: list[str] | None = None) -> int:
    """``python -m harness.report.autograder --root R --source S``: what ``run_autograder`` runs."""
    parser = argparse.ArgumentParser(prog="run_autograder")
    parser.add_argument("--root", default=os.environ.get("AUTOGRADER_ROOT", "/autograder"))
    parser.add_argument("--source")
    args = parser.parse_args(argv)
    root = Path(args.root)
    source = Path(args.source) if args.source else root / "source"
    start = time.monotonic()
    # First a result that gives no points: if anything kills this process (a bot that got hold of
    # a signal), Gradescope finds that one, never a file a bot wrote meanwhile.
    write_results(root, _failure(UNFINISHED, 0.0, "visible"))
    try:
        document = grade(root, source)
    except Exception as exc:  # noqa: BLE001 - Gradescope must get a results.json whatever happens
        document = _failure(f"The autograder failed ({type(exc).__name__}: {exc}): not a verdict against your "
                            "bot; please tell the instructor.", time.monotonic() - start, "visible")
    write_results(root, document)  # last, from the harness's own records
    print(f"results.json: score {document['score']:g}; {document['tests'][0]['status'] if document['tests'] else ''}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
