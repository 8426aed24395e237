"""Which isolation features are active on this machine, and the one warning when some are not.

``harness doctor`` prints :func:`report`; :class:`~harness.sandbox.process.BotProcess` uses
:func:`use_bwrap` to decide, per bot, between bubblewrap and a plain process, and
:func:`warn_once` to say (once per run) that it fell back.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass

from harness.sandbox import botside, bubblewrap, cgroup, container, privileges, syscalls
from harness.sandbox.bot import seccomp
from harness.sandbox.privileges import IsolationUnavailable

WARNED_ENV = "HARNESS_SANDBOX_WARNED"  # inherited by worker processes of a pool: one line per run
MODES = ("auto", "bwrap", "plain")


def effective_mode(mode: str) -> str:
    """``mode`` after the operator's override ``HARNESS_ISOLATION`` (which only replaces "auto")."""
    if mode not in MODES:
        raise ValueError(f"isolation must be one of {', '.join(MODES)}, got {mode!r}")
    forced = os.environ.get("HARNESS_ISOLATION")  # e.g. for debugging a bot outside the sandbox
    return forced if forced in MODES and mode == "auto" else mode


def use_bwrap(mode: str) -> bool:
    """True if a bot should run under bubblewrap for the isolation ``mode`` asked for."""
    mode = effective_mode(mode)
    if mode == "plain":
        return False
    sup = bubblewrap.support()
    if sup.available:
        return True
    if mode == "bwrap":
        raise IsolationUnavailable(f"bubblewrap isolation was required but is unavailable: {sup.reason}")
    warn_once(sup.reason)
    return False


def warn_once(reason: str) -> None:
    """Print the fallback warning, once per run (inherited through the environment)."""
    if os.environ.get(WARNED_ENV):
        return
    os.environ[WARNED_ENV] = "1"
    held = ("each as a uid of its own, under Landlock where the kernel has it" if privileges.is_root()
            else "with resource limits and the guard only")
    print(f"harness: warning: bots run as plain processes without bubblewrap's namespaces ({reason}), "
          f"{held}; see `harness doctor`", file=sys.stderr)


@dataclass(frozen=True)
class Feature:
    """One line of ``harness doctor``: a feature, whether it is active, and how."""

    name: str
    active: bool
    how: str


def report(mode: str = "auto") -> list[Feature]:
    """Every isolation and timing feature, active or not, for bots run with isolation ``mode``."""
    bw = bubblewrap.support()
    if bw.available and not use_bwrap(mode):  # e.g. HARNESS_ISOLATION=plain
        bw = bubblewrap.BwrapSupport(None, reason=f"available ({bw.version}) but not used: isolation is plain")
    cg = cgroup.support()
    locked = _landlock_feature(bw)[0]
    linux = sys.platform.startswith("linux")
    try:
        import resource  # noqa: F401

        rlimits = True
    except ImportError:
        rlimits = False
    features = [
        Feature("bubblewrap", bw.available,
                f"{bw.version or 'bwrap'} at {bw.path}" + (f" ({bw.reason})" if bw.reason else "")
                if bw.available else bw.reason),
        Feature("user namespace (bot runs as nobody, no capabilities)", bw.available and bw.userns,
                "bwrap --unshare-user --uid 65534 --disable-userns" if bw.userns
                else ("not needed: the harness is root and drops each bot to a uid of its own (below)" if bw.drop
                      else "needs bubblewrap")),
        Feature("filesystem: read-only system, only the bot's own files", bw.available or locked,
                "bwrap mount namespace" if bw.available else "Landlock (below) and the audit-hook policy" if locked
                else "audit-hook policy only (best effort)"),
        Feature("network: none (own loopback only)", bw.available,
                "bwrap --unshare-net" if bw.available else "TCP: Landlock (below); other sockets: audit-hook policy "
                "only" if locked else "audit-hook policy only (best effort)"),
        Feature("bot runs as an unprivileged uid of its own", *_uid_feature(bw)),
        Feature("Landlock (files, TCP, signals and abstract sockets)", *_landlock_feature(bw)),
        Feature("seccomp filter (system calls no bot needs, EPERM)", *_seccomp_feature(bw)),
        Feature("PID and IPC namespaces", bw.available,
                "bwrap --unshare-pid --unshare-ipc" if bw.available else "needs bubblewrap"),
        Feature("process/thread cap (pids cgroup)", "pids" in cg.controllers,
                f"cgroup v{cg.version}: {cg.where}" if "pids" in cg.controllers
                else f"audit-hook policy only ({cg.reason})"),
        Feature("CPU time of the whole process tree (cpuacct)", "cpu" in cg.controllers,
                f"cgroup v{cg.version}" if "cpu" in cg.controllers
                else ("/proc/<pid>/stat cross-check of the bot's own report" if linux
                      else "the bot process's own report only")),
        Feature("memory cap", rlimits or "memory" in cg.controllers,
                ", ".join(x for x in ("RLIMIT_AS" if rlimits and sys.platform != "darwin" else "",
                                      "memory cgroup" if "memory" in cg.controllers else "") if x)
                or "not enforced on this platform"),
        Feature("file size and open-files caps", rlimits, "RLIMIT_FSIZE, RLIMIT_NOFILE" if rlimits else "none"),
        Feature("output caps (kept, per call, per game)", True, "enforced by the parent"),
        Feature("stop every process of a bot between its turns", "pids" in cg.controllers,
                ("SIGSTOP of the worker while it is alone, else the cgroup freezer" if "freezer" in cg.controllers
                 else "SIGSTOP of the worker while it is alone, else of every process in its cgroup")
                if "pids" in cg.controllers else ("SIGSTOP of the worker only (processes it starts in new "
                                                  "sessions run on)" if os.name == "posix" else "not available")),
        Feature("wall clocks count the bot's own time, not its wait for a CPU", linux,
                "/proc/<pid>/task/<tid>/schedstat run-queue wait" if linux
                else "not on this platform: a loaded machine slows bots down"),
        Feature("audit-hook policy (processes, files, network, imports)", True, "always, inside the bot's process"),
    ]
    return features


def _uid_feature(bw: bubblewrap.BwrapSupport) -> tuple[bool, str]:
    if not privileges.is_root():
        return False, (f"no: bots run as the harness's own user (uid "
                       f"{os.geteuid() if hasattr(os, 'geteuid') else '?'}), which is not root")
    if bw.available:
        return True, f"setpriv in bubblewrap: uid {privileges.UID_BASE}+n, no capabilities, no_new_privs"
    try:
        python = container.bot_python([botside.folder()])
    except container.NoReadablePython as exc:
        return False, f"bots are refused, never run as root: {exc}"
    return True, f"plain process started as uid {privileges.UID_BASE}+n, running {python}"


def _landlock_feature(bw: bubblewrap.BwrapSupport) -> tuple[bool, str]:
    version = container.landlock_abi()
    if version <= 0:
        return False, "not in this kernel (Linux 5.13+), or turned off (HARNESS_LANDLOCK=0)"
    if bw.available:
        return False, f"not needed: bubblewrap's namespaces confine the bot (kernel ABI {version})"
    if not privileges.is_root():
        return False, f"not applied outside the container tier (kernel ABI {version})"
    what = ["read the interpreter, packages, bot API and its code; write its own folder"]
    what += ["no TCP bind or connect"] if version >= 4 else []
    what += ["signals and abstract unix sockets scoped to the bot"] if version >= 6 else []
    return True, f"ABI {version}: " + "; ".join(what)


def _seccomp_feature(bw: bubblewrap.BwrapSupport) -> tuple[bool, str]:
    if not syscalls.enabled():
        return False, "turned off (HARNESS_SECCOMP=0)"
    try:
        size = len(syscalls.program()) // 8
    except OSError as exc:
        return False, f"{exc}: every bot is refused (harness_error); HARNESS_SECCOMP=0 runs them without it"
    how = "loaded by bubblewrap (--seccomp)" if bw.available else "installed by the worker before any bot code"
    return True, f"{seccomp.machine()}, {size} BPF instructions, {how}; what it refuses is listed below"


def seccomp_refuses() -> tuple[str, ...]:
    """What the seccomp filter refuses, one line per family (none where it is not applied)."""
    if not syscalls.enabled():
        return ()
    try:
        syscalls.program()
    except OSError:
        return ()
    return seccomp.DENIED


def tier(mode: str = "auto") -> str:
    """The tier bots run in with isolation ``mode``, and what holds them there, in one line."""
    try:
        bwrap = use_bwrap(mode)
    except IsolationUnavailable:
        return "none: bubblewrap is required and unavailable, so no bot starts"
    name = container.tier(bwrap)
    if name == "bubblewrap":
        return f"bubblewrap (namespaces, a uid of its own, {'seccomp, ' if seccomp_refuses() else ''}cgroups, rlimits, the guard)"
    if name == "unprotected":
        return ("unprotected (the harness is not root: rlimits and the guard only, enough against accidents, "
                "not against an attacker)")
    version = container.landlock_abi()
    return (f"container (root, no bubblewrap: a uid of its own, Landlock "
            f"{f'ABI {version}' if version > 0 else 'off (not in this kernel, or HARNESS_LANDLOCK=0)'}, "
            f"{'seccomp' if seccomp_refuses() else 'no seccomp'}, rlimits, cgroups where writable, the guard)")


def plain_gaps() -> list[str]:
    """What plain mode (no bubblewrap) does not stop, in the tier it would be: said plainly by
    ``harness doctor``.

    The guard shares the bot's process, so a bot determined enough to disarm it (its objects
    are reachable from Python) is stopped only by the kernel: its uid, Landlock, rlimits and cgroups.
    """
    gaps = ["a bot can tell which paths exist (os.path.exists and os.stat are not audited)"]
    if privileges.is_root() and container.landlock_abi() > 0:
        gaps += [] if seccomp_refuses() else [
            "no seccomp filter: a bot that disarms the guard can still use UDP, unix sockets with a path it can "
            "reach, SysV IPC (shared by every uid, outliving the game) and fallocate"]
        gaps += ["no PID namespace: a bot can tell which processes exist (os.stat of /proc/<pid>)"]
    elif privileges.is_root():
        gaps += ["no Landlock in this kernel: a bot that disarms the guard can read every file any user can "
                 "read, write where any user can write, and use the network",
                 "no PID namespace: a bot sees the machine's processes in /proc"]
    else:
        gaps += ["the harness is not root: its bots run as its own user, and one that disarms the guard can "
                 "read, write and connect wherever that user can",
                 "no PID namespace: a bot sees the machine's processes in /proc"]
    if "pids" not in cgroup.support().controllers:
        gaps.append("no pids cgroup: a process a disarmed bot starts in a new session can outlive its game")
    return gaps


__all__ = ["Feature", "IsolationUnavailable", "MODES", "effective_mode", "plain_gaps",
           "report", "seccomp_refuses", "tier", "use_bwrap", "warn_once"]
