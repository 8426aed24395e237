"""``harness kit JOB|GROUP --out DIR``: the folder a course hands its students (see
:mod:`harness.studentkit`): the harness, the course's check jobs, the chosen reference players."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from harness.cli import UsageError
from harness.commands._jobs import add_config, output_folder


def cmd_kit(args: argparse.Namespace) -> int:
    from harness.config import ConfigError, load_config
    from harness.studentkit import KitError, plan_kit, write_kit

    path = Path(args.config)
    if not path.exists():
        raise UsageError(f"{path}: no such jobs file" + (" (give one with --config)" if args.config ==
                                                          "tournaments.yaml" else ""))
    try:  # the kit needs no submissions or roster: a course may build it before it has either
        config = load_config(path, students=False)
        plan = plan_kit(config, args.job)
    except (ConfigError, KitError) as exc:
        raise UsageError(str(exc)) from None
    out = output_folder(args.out, create=False)
    try:
        players = write_kit(plan, path, out)
    except KitError as exc:
        raise UsageError(str(exc)) from None
    for note in plan.notes:
        print(f"harness kit: note: {note}", file=sys.stderr)
    shown = ", ".join(f"{p.parent.name}/{p.stem}" for p in players) or "none"
    print(f"{out}: a kit with the check jobs {', '.join(plan.jobs)} and the reference players {shown} "
          f"(students: python3 -m venv .venv && .venv/bin/pip install . there, then harness check)")
    return 0


def register(sub: Any) -> None:
    """Add ``harness kit``."""
    p = sub.add_parser("kit", help="write the folder a course hands its students: harness check, the games, "
                                   "the course's check jobs and the reference players it chooses")
    p.add_argument("job", help="a job or group of the jobs file (its gauntlets become the kit's check jobs)")
    add_config(p)
    p.add_argument("--out", required=True, metavar="DIR", help="a new or empty folder to write the kit into")
    p.set_defaults(func=cmd_kit)
