"""Finding a bot's processes in the process table, whatever their command line.

A bot's process may not look like the harness's worker: under bubblewrap the tree's root is
``bwrap``, and a grandchild could be anything (``sleep``, ``sh``) in another session. So a
process counts as a bot's, started by *this* test process, if any of these holds:

* it is in one of this process's bot cgroups (``harness-<our pid>-...``);
* its environment is a bot's (``TMPDIR`` is a ``harness-bot-<our pid>-...`` folder);
* its working directory or command line names such a folder.

Markers carry our pid, so bots of other test runs on the same machine are not counted.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from harness.sandbox import cgroup


def bot_dir_prefix() -> str:
    return os.path.join(tempfile.gettempdir(), f"harness-bot-{os.getpid()}-")


def bot_processes() -> dict[int, str]:
    """Live (non-zombie) processes that belong to a bot started by this process, and why."""
    own_cgroup = f"/{cgroup.PREFIX}{os.getpid()}-".encode()
    prefix = bot_dir_prefix()
    env_marker = f"TMPDIR={prefix}".encode()
    found: dict[int, str] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == os.getpid():
            continue
        base = Path("/proc", entry)
        try:
            if (base / "stat").read_text().rsplit(")", 1)[1].split()[0] == "Z":
                continue
            if own_cgroup in (base / "cgroup").read_bytes():
                found[int(entry)] = "in a bot's cgroup"
            elif env_marker in (base / "environ").read_bytes():
                found[int(entry)] = "has a bot's environment"
            elif prefix.encode() in (base / "cmdline").read_bytes():
                found[int(entry)] = "names a bot's folder"
            elif os.readlink(base / "cwd").startswith(prefix):
                found[int(entry)] = "works in a bot's folder"
        except (OSError, IndexError):
            continue
    return found


def bot_cgroups() -> list[Path]:
    """Cgroup directories this process made for bots that still exist."""
    roots = [Path("/sys/fs/cgroup", name) for name in ("pids", "cpuacct", "memory", "freezer")]
    mine = f"{cgroup.PREFIX}{os.getpid()}-"
    found = []
    for root in roots:
        try:
            found += [p for p in root.iterdir() if p.name.startswith(mine)]
        except OSError:
            continue
    return found


def bot_dirs() -> set[str]:
    """This process's bots' temporary folders that exist now."""
    name = os.path.basename(bot_dir_prefix())
    return {p for p in os.listdir(tempfile.gettempdir()) if p.startswith(name)}
