"""``harness schedule JOB --format cron|systemd``: the nightly run of a job, as cron or systemd want it.

What it prints runs under cron's bare environment (``PATH=/usr/bin:/bin``, ``HOME`` only) and from
any working folder: the harness by the absolute path of the interpreter (or venv) running this
command, the jobs file by its absolute path (a job's results are found relative to it), and a log
that ``harness run --log`` opens itself, making its folder if missing.

``--install`` puts it where it belongs: the user's crontab (other lines kept, its own marked line
replaced) or ``/etc/cron.d`` (``--system``); a systemd service and timer in
``~/.config/systemd/user`` or ``/etc/systemd/system`` (``--system``), then ``daemon-reload`` and
``enable --now`` when systemd runs here. ``--remove`` takes out what ``--install`` put there: its
marked crontab line (other lines kept) or its ``/etc/cron.d`` file; the timer (``disable --now``)
and both unit files, then ``daemon-reload``.
"""

from __future__ import annotations

import argparse
import os
import pwd
import re
import shlex
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import harness
from harness.cli import UsageError
from harness.commands._jobs import add_config, config_of

MARK = "# harness schedule:"  # ends the crontab line this command owns, with the job and the jobs file


@dataclass(frozen=True)
class Plan:
    """What a scheduled run runs, every path absolute."""

    job: str
    config: Path
    log: Path
    command: list[str]  # argv of `harness run`
    env: dict[str, str]  # what the command needs besides cron's bare environment
    hour: int
    minute: int

    @property
    def unit(self) -> str:
        """The systemd unit's name (without .service/.timer)."""
        return unit_name(self.job)

    @property
    def mark(self) -> str:
        return f"{MARK} {self.job} {self.config}"


def harness_argv() -> tuple[list[str], dict[str, str]]:
    """The absolute command that starts this very harness, and the environment it needs.

    The venv's (or interpreter's) ``harness`` script beside ``sys.executable`` when there is one,
    else ``python -m harness``; a harness imported through PYTHONPATH (a checkout) keeps it.
    """
    script = Path(sys.executable).parent / "harness"
    argv = [str(script)] if script.is_file() and os.access(script, os.X_OK) else [sys.executable, "-m", "harness"]
    root = str(Path(harness.__file__).resolve().parent.parent)
    entries = [str(Path(e).resolve()) for e in os.environ.get("PYTHONPATH", "").split(os.pathsep) if e]
    return argv, ({"PYTHONPATH": root} if root in entries else {})


def time_of_day(text: str) -> tuple[int, int]:
    """``HH:MM`` as (hour, minute); a usage error otherwise."""
    match = re.fullmatch(r"(\d{1,2}):(\d{2})", text)
    if not match or int(match[1]) > 23 or int(match[2]) > 59:
        raise UsageError(f"--at {text!r}: expected a time of day as HH:MM, e.g. 06:00")
    return int(match[1]), int(match[2])


def plan_of(args: argparse.Namespace) -> Plan:
    config = config_of(args)
    if args.job not in config.names:
        raise UsageError(f"{config.path}: no job named {args.job!r} (jobs: {', '.join(config.names)})")
    for problem in config.plan(args.job)[1]:  # still scheduled: the run reports it in its log every night
        print(f"harness schedule: warning: {problem}", file=sys.stderr)
    path = config.path.resolve()
    log = Path(args.log).expanduser().resolve() if args.log else path.parent / "results" / f"{args.job}.log"
    argv, env = harness_argv()
    hour, minute = time_of_day(args.at)
    command = [*argv, "run", args.job, "--config", str(path), "--quiet", "--log", str(log)]
    return Plan(args.job, path, log, command, env, hour, minute)


def cron_line(plan: Plan, user: str | None = None) -> str:
    """The crontab line (``user``: the user column of an ``/etc/cron.d`` file)."""
    command = " ".join([*(f"{k}={shlex.quote(v)}" for k, v in plan.env.items()), *map(shlex.quote, plan.command)])
    if "%" in command:  # cron turns % into a newline
        raise UsageError(f"a path holds '%', which cron cannot pass on: {command}")
    return f"{plan.minute} {plan.hour} * * * {user + ' ' if user else ''}{command} {plan.mark}"


def systemd_word(word: str) -> str:
    """One argument of ExecStart=, quoted as systemd reads it (specifiers and variables escaped)."""
    word = word.replace("%", "%%").replace("$", "$$")
    if re.fullmatch(r"[A-Za-z0-9_./:=@+,\-]+", word):
        return word
    return '"' + word.replace("\\", "\\\\").replace('"', '\\"') + '"'


def systemd_units(plan: Plan, user: str | None) -> tuple[str, str]:
    """The service and the timer (``user``: the User= of a system unit)."""
    env = "".join(f"Environment={systemd_word(f'{k}={v}')}\n" for k, v in plan.env.items())
    service = (f"[Unit]\nDescription=harness run {plan.job} ({plan.config})\n\n"
               f"[Service]\nType=oneshot\n{f'User={user}' + chr(10) if user else ''}"
               f"WorkingDirectory={systemd_word(str(plan.config.parent))}\n{env}"
               f"ExecStart={' '.join(map(systemd_word, plan.command))}\n")
    timer = (f"[Unit]\nDescription=Run {plan.unit}.service every day at {plan.hour:02}:{plan.minute:02}\n\n"
             f"[Timer]\nOnCalendar=*-*-* {plan.hour:02}:{plan.minute:02}:00\nPersistent=true\n\n"
             f"[Install]\nWantedBy=timers.target\n")
    return service, timer


def unit_folder(system: bool) -> Path:
    if system:
        return Path("/etc/systemd/system")
    config = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(config) / "systemd" / "user"


def service_user(plan: Plan) -> str:
    """Who a system unit runs as: the owner of the jobs file (who can write its results)."""
    uid = plan.config.stat().st_uid
    try:
        return pwd.getpwuid(uid).pw_name
    except KeyError:
        return str(uid)


def write(path: Path, text: str) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise UsageError(f"{path}: cannot write ({exc.strerror})") from None


def install_crontab(plan: Plan) -> None:
    """Put the line in this user's crontab: other lines kept, an earlier line of this job replaced."""
    if shutil.which("crontab") is None:
        raise UsageError("no crontab command here (install cron, or use --format systemd)")
    current = subprocess.run(["crontab", "-l"], capture_output=True, text=True)
    lines = current.stdout.splitlines() if current.returncode == 0 else []  # 1: no crontab yet
    kept = [line for line in lines if not line.rstrip().endswith(plan.mark)]
    done = subprocess.run(["crontab", "-"], input="\n".join([*kept, cron_line(plan)]) + "\n", capture_output=True,
                          text=True)
    if done.returncode != 0:
        raise UsageError(f"crontab refused the line: {(done.stderr.strip() or 'no reason given').splitlines()[-1]}")
    replaced = " (replacing its earlier line)" if len(kept) < len(lines) else ""
    print(f"harness schedule: installed in the crontab of {pwd.getpwuid(os.getuid()).pw_name}{replaced}; "
          f"it logs to {plan.log}", file=sys.stderr)


def systemd_usable() -> bool:
    """Whether systemd manages this machine (sd_booted) and systemctl is at hand."""
    return Path("/run/systemd/system").is_dir() and shutil.which("systemctl") is not None


def install_systemd(plan: Plan, system: bool, user: str | None) -> int:
    folder = unit_folder(system)
    service, timer = systemd_units(plan, user)
    write(folder / f"{plan.unit}.service", service)
    write(folder / f"{plan.unit}.timer", timer)
    who = f"as {user}" if user else f"as {pwd.getpwuid(os.getuid()).pw_name}, in your user's systemd"
    print(f"harness schedule: wrote {folder / plan.unit}.service and .timer; the run goes {who} and logs to "
          f"{plan.log}", file=sys.stderr)
    ctl = ["systemctl"] if system else ["systemctl", "--user"]
    steps = [[*ctl, "daemon-reload"], [*ctl, "enable", "--now", f"{plan.unit}.timer"]]
    shown = " && ".join(shlex.join(step) for step in steps)
    if not systemd_usable():
        print(f"harness schedule: systemd does not run here; on the machine that runs it: {shown}", file=sys.stderr)
        return 0
    for step in steps:
        done = subprocess.run(step, capture_output=True, text=True)
        if done.returncode != 0:
            why = (done.stderr.strip() or "no reason given").splitlines()[-1]
            print(f"harness schedule: {shlex.join(step)} failed: {why}", file=sys.stderr)
            return 1
    print(f"harness schedule: ran {shown}", file=sys.stderr)
    if not system:
        print("harness schedule: a user timer runs only while you are logged in unless you run "
              f"`loginctl enable-linger {pwd.getpwuid(os.getuid()).pw_name}`", file=sys.stderr)
    return 0


def unit_name(job: str) -> str:
    """The systemd unit's (and /etc/cron.d file's) name of a job: as :attr:`Plan.unit`."""
    return "harness-" + re.sub(r"[^A-Za-z0-9_.\-]", "-", job)


def remove_crontab(job: str, config: Path) -> int:
    """Take this job's marked line out of this user's crontab, every other line kept."""
    if shutil.which("crontab") is None:
        raise UsageError("no crontab command here: nothing of harness schedule to remove from a crontab")
    user = pwd.getpwuid(os.getuid()).pw_name
    current = subprocess.run(["crontab", "-l"], capture_output=True, text=True)
    lines = current.stdout.splitlines() if current.returncode == 0 else []
    mark = f"{MARK} {job} {config}"
    kept = [line for line in lines if not line.rstrip().endswith(mark)]
    if len(kept) == len(lines):
        print(f"harness schedule: the crontab of {user} has no line of {job} ({config}): nothing removed",
              file=sys.stderr)
        return 1
    done = subprocess.run(["crontab", "-"], input="".join(f"{line}\n" for line in kept), capture_output=True,
                          text=True)
    if done.returncode != 0:
        raise UsageError(f"crontab refused the change: {(done.stderr.strip() or 'no reason given').splitlines()[-1]}")
    print(f"harness schedule: removed the line of {job} from the crontab of {user}; "
          f"{len(kept)} other line(s) kept", file=sys.stderr)
    return 0


def remove_systemd(job: str, system: bool) -> int:
    """Stop and disable the job's timer (where systemd runs), delete its two unit files, reload."""
    folder, unit = unit_folder(system), unit_name(job)
    files = [folder / f"{unit}.service", folder / f"{unit}.timer"]
    if not any(f.exists() for f in files):
        print(f"harness schedule: no {unit}.service or .timer in {folder}: nothing removed", file=sys.stderr)
        return 1
    ctl = ["systemctl"] if system else ["systemctl", "--user"]
    usable = systemd_usable()
    if usable:
        subprocess.run([*ctl, "disable", "--now", f"{unit}.timer"], capture_output=True, text=True)
    for f in files:
        try:
            f.unlink(missing_ok=True)
        except OSError as exc:
            raise UsageError(f"{f}: cannot remove ({exc.strerror})") from None
    print(f"harness schedule: removed {folder / unit}.service and .timer", file=sys.stderr)
    if usable:
        subprocess.run([*ctl, "daemon-reload"], capture_output=True, text=True)
        print(f"harness schedule: ran {shlex.join([*ctl, 'disable', '--now', unit + '.timer'])} and daemon-reload",
              file=sys.stderr)
    else:
        print(f"harness schedule: systemd does not run here; on the machine that ran it: "
              f"{shlex.join([*ctl, 'disable', '--now', unit + '.timer'])}", file=sys.stderr)
    return 0


def cmd_remove(args: argparse.Namespace) -> int:
    """``--remove``: what ``--install`` put in place for this job and jobs file (the job may be gone from it)."""
    config = Path(args.config).resolve()
    system = bool(args.system)
    if system and os.geteuid() != 0:
        raise UsageError("--remove --system removes system files: run it as root (sudo), or use --user")
    if args.format == "systemd":
        return remove_systemd(args.job, system)
    if not system:
        return remove_crontab(args.job, config)
    path = Path("/etc/cron.d") / unit_name(args.job)
    if not path.exists():
        print(f"harness schedule: no {path}: nothing removed", file=sys.stderr)
        return 1
    try:
        path.unlink()
    except OSError as exc:
        raise UsageError(f"{path}: cannot remove ({exc.strerror})") from None
    print(f"harness schedule: removed {path}", file=sys.stderr)
    return 0


def cmd_schedule(args: argparse.Namespace) -> int:
    if args.remove:
        return cmd_remove(args)
    plan = plan_of(args)
    system = bool(args.system)
    if (args.install and system) and os.geteuid() != 0:
        raise UsageError("--install --system writes system files: run it as root (sudo), or use --user")
    if args.format == "cron":
        if system:
            text = (f"# /etc/cron.d/{plan.unit}\nSHELL=/bin/sh\nPATH=/usr/bin:/bin\n"
                    f"{cron_line(plan, service_user(plan))}\n")
            if args.install:
                write(Path("/etc/cron.d") / plan.unit, text.split("\n", 1)[1])
                print(f"harness schedule: wrote /etc/cron.d/{plan.unit}; logs to {plan.log}", file=sys.stderr)
                return 0
            print(text, end="")
            return 0
        if args.install:
            install_crontab(plan)
            return 0
        print(cron_line(plan))
        print(f"harness schedule: add it with `crontab -e`, or run this command with --install; it logs to "
              f"{plan.log}", file=sys.stderr)
        return 0
    user = service_user(plan) if system else None
    if args.install:
        return install_systemd(plan, system, user)
    service, timer = systemd_units(plan, user)
    folder = unit_folder(system)
    print(f"# {folder / plan.unit}.service\n{service}\n# {folder / plan.unit}.timer\n{timer}", end="")
    ctl = "systemctl" if system else "systemctl --user"
    who = user if system else f"{pwd.getpwuid(os.getuid()).pw_name} (your user's systemd)"
    print(f"harness schedule: then `{ctl} daemon-reload && {ctl} enable --now {plan.unit}.timer`"
          f" (or run this command with --install); it runs as {who} and logs to {plan.log}", file=sys.stderr)
    return 0


def register(sub: Any) -> None:
    """Add ``harness schedule``."""
    p = sub.add_parser("schedule", help="print (or --install, --remove) a daily cron line or systemd timer "
                                         "that runs a job")
    p.add_argument("job", help="a job (or group of jobs) of the jobs file")
    add_config(p)
    p.add_argument("--format", choices=("cron", "systemd"), required=True, help="a crontab line, or a systemd "
                   "service and timer")
    p.add_argument("--at", default="06:00", metavar="HH:MM", help="the time of day (default 06:00)")
    p.add_argument("--log", metavar="FILE", help="the run's log (default: results/JOB.log beside the jobs file)")
    scope = p.add_mutually_exclusive_group()
    scope.add_argument("--user", action="store_true", help="for the current user (the default)")
    scope.add_argument("--system", action="store_true", help="system-wide: /etc/cron.d or /etc/systemd/system "
                       "(runs as the jobs file's owner)")
    action = p.add_mutually_exclusive_group()
    action.add_argument("--install", action="store_true", help="write it where it belongs instead of printing it")
    action.add_argument("--remove", action="store_true", help="remove what --install put in place for this job and "
                        "jobs file (its crontab line, /etc/cron.d file, or systemd timer and service)")
    p.set_defaults(func=cmd_schedule)
