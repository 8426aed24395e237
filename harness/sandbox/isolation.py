"""Which isolation features are active on this machine, and the one warning when some are not.

``harness doctor`` prints :func:`report`; :class:`~harness.sandbox.process.BotProcess` uses
:func:`use_bwrap` to decide, per bot, between bubblewrap and a plain process, and
:func:`warn_once` to say (once per run) that it fell back.
"""

from __future__ import annotations

import os
import sys
import sysconfig
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from harness.sandbox import botside, bubblewrap, cgroup, privileges

WARNED_ENV = "HARNESS_SANDBOX_WARNED"  # inherited by worker processes of a pool: one line per run
MODES = ("auto", "bwrap", "plain")


class IsolationUnavailable(RuntimeError):
    """``isolation="bwrap"`` was required but bubblewrap does not work here."""


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
    print(f"harness: warning: bots run as plain processes with resource limits only, without "
          f"filesystem/network isolation ({reason}); see `harness doctor`", file=sys.stderr)


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
                      else "bwrap runs as root without --unshare-user; capabilities dropped" if bw.available
                      else "needs bubblewrap")),
        Feature("filesystem: read-only system, only the bot's own files", bw.available,
                "bwrap mount namespace" if bw.available else "audit-hook policy only (best effort)"),
        Feature("network: none (own loopback only)", bw.available,
                "bwrap --unshare-net" if bw.available else "audit-hook policy only (best effort)"),
        Feature("bot runs as an unprivileged uid of its own", _uid_feature(bw)[0], _uid_feature(bw)[1]),
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


def plain_drop_obstacle(game: Any = None, package_roots: tuple[Path, ...] = ()) -> str | None:
    """Why a plain-mode bot cannot drop to a uid of its own here (``None``: it can, or needs not).

    It runs the harness's interpreter, the compiled bot-side files, its game's bot API
    and its approved packages: an ordinary user must be able to read them all.
    """
    needed = [os.path.realpath(sys.executable), sysconfig.get_paths()["stdlib"],
              str(botside.folder()), *map(str, package_roots)]
    if game is not None and game.botapi_dir is not None:
        needed.append(str(game.botapi_dir))
    return privileges.plain_obstacle(needed)


def _uid_feature(bw: bubblewrap.BwrapSupport) -> tuple[bool, str]:
    if not privileges.is_root():
        return True, f"the harness itself is not root (uid {os.geteuid() if hasattr(os, 'geteuid') else '?'})"
    if bw.available:
        if bw.drop:
            return True, f"setpriv in bubblewrap: uid {privileges.UID_BASE}+n, no capabilities, no_new_privs"
        return False, "bubblewrap without setpriv: uid nobody in a user namespace, root outside it"
    why = plain_drop_obstacle()
    if why is None:
        return True, f"plain process started as uid {privileges.UID_BASE}+n"
    return False, f"plain mode: bots run as root, because {why}"


def plain_gaps() -> list[str]:
    """What plain mode (no bubblewrap) does not stop: said plainly by ``harness doctor``.

    The guard shares the bot's process, so a bot determined enough to disarm it (its objects
    are reachable from Python) is stopped only by the kernel: its uid, rlimits and cgroups.
    """
    gaps = ["a bot can tell which paths exist (os.path.exists and os.stat are not audited)",
            "a bot that disarms the guard can read every file its uid can read, write where its uid "
            "can write, and use the network",
            "no PID namespace: a bot sees the machine's processes in /proc"]
    if privileges.is_root():
        why = plain_drop_obstacle()
        if why is not None:
            gaps.append(f"bots run as root ({why}): a disarmed guard leaves root's powers")
    if "pids" not in cgroup.support().controllers:
        gaps.append("no pids cgroup: a process a disarmed bot starts in a new session can outlive its game")
    return gaps


__all__ = ["Feature", "IsolationUnavailable", "MODES", "effective_mode", "plain_drop_obstacle", "plain_gaps",
           "report", "use_bwrap", "warn_once"]
