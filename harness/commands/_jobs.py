"""What the job commands share: the jobs file in force, a job's results, safe output paths."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from harness.cli import UsageError
from harness.config import Config, ConfigError, Job, load_config
from harness.sandbox.checks.packages import PackageError, approve
from harness.submission import SubmissionError
from harness.tournament.formats import job_results
from harness.tournament.results import JobResults
from harness.tournament.store import StoreError

DEFAULT_CONFIG = "tournaments.yaml"


def add_config(p: argparse.ArgumentParser) -> None:
    """The ``--config`` option of every job command."""
    p.add_argument("--config", default=DEFAULT_CONFIG,
                   help=f"the jobs file (default: {DEFAULT_CONFIG} in the current folder)")


def config_of(args: argparse.Namespace) -> Config:
    """The jobs file in force; a usage error (one line) if it cannot be read."""
    path = Path(args.config)
    if not path.exists():
        raise UsageError(f"{path}: no such jobs file" + (" (give one with --config)" if args.config == DEFAULT_CONFIG
                                                          else ""))
    try:
        return load_config(path)
    except ConfigError as exc:
        raise UsageError(str(exc)) from None


def jobs_of(args: argparse.Namespace, *, strict: bool = True) -> tuple[Config, list[Job], list[str]]:
    """The jobs of ``args.job`` (a job or a group) and the errors of its unusable members.

    Problems of jobs it does not run are printed as one warning line each. With ``strict``, any
    error of its own is a usage error (one line).
    """
    config = config_of(args)
    try:
        jobs, errors = config.plan(args.job)
    except ConfigError as exc:
        raise UsageError(str(exc)) from None
    for problem in config.unrelated_problems(args.job):
        print(f"harness: warning: {problem}", file=sys.stderr)
    if strict and errors:
        raise UsageError(errors[0])
    return config, jobs, errors


def results_of(job: Job, light: bool = False) -> JobResults:
    """A job's results from its store (``light``: without replays, see :func:`job_results`); a
    usage error if it was never run or its files are unusable."""
    try:
        return job_results(job, light)
    except (StoreError, SubmissionError) as exc:
        raise UsageError(str(exc)) from None


def output_file(text: str) -> Path:
    """A file to write: not a folder, in a folder that exists."""
    path = Path(text)
    if path.is_dir():
        raise UsageError(f"--out {text}: is a folder, expected a file")
    if not path.parent.exists():
        raise UsageError(f"--out {text}: the folder {path.parent} does not exist")
    return path


def output_folder(text: str, *, create: bool = True) -> Path:
    """A folder to write into: not an existing file; made (with its parents) if missing."""
    path = Path(text)
    if path.exists() and not path.is_dir():
        raise UsageError(f"--out {text}: is a file, expected a folder")
    if create:
        try:
            path.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise UsageError(f"--out {text}: cannot create the folder ({exc.strerror})") from None
    return path


def write_text(path: Path, text: str) -> None:
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise UsageError(f"{path}: cannot write ({exc.strerror})") from None


def progress(quiet: bool) -> Any:
    """A tqdm progress bar factory on a terminal; plain progress lines when standard error is no
    terminal (nohup, cron, ``--log``: :class:`harness.terminal.PlainProgress`); None if ``quiet``."""
    if quiet:
        return None
    if not sys.stderr.isatty():
        from harness.terminal import PlainProgress

        return PlainProgress
    from tqdm import tqdm

    def factory(total: int, done: int, label: str) -> Any:
        return tqdm(total=total, initial=done, desc=label, unit="game", dynamic_ncols=True)

    return factory


def packages_of(names: list[str] | None, game: Any) -> tuple[str, ...]:
    """The ``--package`` approvals, each checked like a job's ``bot_packages``."""
    for name in names or []:
        try:
            approve(name, game.submission.forbidden_imports, game.title)
        except PackageError as exc:
            raise UsageError(f"--package {name}: {exc}") from None
    return tuple(sorted(set(names or [])))
