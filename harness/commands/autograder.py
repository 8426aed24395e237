"""``harness autograder JOB --out FILE.zip``: a Gradescope autograder that plays the job's grading.

See :mod:`harness.report.autograder` for what the bundle holds and how it is sized.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from harness.cli import UsageError, positive, seconds
from harness.commands._jobs import add_config, jobs_of, output_file
from harness.report.autograder import DEFAULT_BUDGET, DEFAULT_MEMORY_MB


def cmd_autograder(args: argparse.Namespace) -> int:
    from harness.report.autograder import BundleError, build_bundle

    _config, jobs, _errors = jobs_of(args)
    if len(jobs) != 1 or jobs[0].name != args.job:
        raise UsageError(f"{args.job} is a group: an autograder grades one job (name one of "
                         f"{', '.join(j.name for j in jobs)})")
    out = output_file(args.out)
    if out.suffix.lower() != ".zip":
        raise UsageError(f"--out {args.out}: Gradescope takes a .zip file")
    try:
        notes = build_bundle(jobs[0], out, budget=args.budget, memory_mb=args.memory_mb, visibility=args.visibility)
    except BundleError as exc:
        raise UsageError(str(exc)) from None
    for note in notes:
        print(f"harness autograder: note: {note}", file=sys.stderr)
    print(f"{out}: a Gradescope autograder for {args.job} (upload it as the assignment's autograder; "
          f"base image Ubuntu 22.04 or later)")
    return 0


def register(sub: Any) -> None:
    """Add ``harness autograder``."""
    p = sub.add_parser("autograder", help="write a Gradescope autograder (.zip) that plays a job's grading")
    p.add_argument("job", help="a job of the jobs file (a gauntlet, SemBasic or a round robin with reference players)")
    add_config(p)
    p.add_argument("--out", required=True, help="the .zip file to write")
    p.add_argument("--budget", type=seconds, default=DEFAULT_BUDGET, metavar="SECONDS",
                   help=f"stop the grading after this long and report it (default {DEFAULT_BUDGET:g}: Gradescope "
                        "stops at 600)")
    p.add_argument("--memory-mb", type=positive, default=DEFAULT_MEMORY_MB, metavar="MB",
                   help=f"memory per bot, if less than the job's (default {DEFAULT_MEMORY_MB}: the default "
                        "container has 768 MB)")
    p.add_argument("--visibility", choices=["visible", "after_due_date", "after_published", "hidden"],
                   default="visible", help="when students see their results (Gradescope's visibility)")
    p.set_defaults(func=cmd_autograder)
