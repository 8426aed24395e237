"""The container tier: a root harness without bubblewrap (Docker, Gradescope, CI runners).

There, each bot still runs as a uid of its own (:mod:`privileges`) and, where the kernel has
Landlock, under a ruleset of what it may read and write (:mod:`landlock`). The uid must be
able to read the interpreter the bot runs: :func:`bot_python` picks the one every tier prefers
(:func:`harness.sandbox.interpreter.chosen`: a job's, else the system's own of this version,
else the harness's) where the uid can run it, else another same-version interpreter it can
(unless the job named one), else refuses with one line naming the fix. A bot never runs as root.
"""

from __future__ import annotations

import dataclasses
import functools
import glob
import hashlib
import os
import shutil
import subprocess
import sys
import sysconfig
import threading
from collections.abc import Iterable
from pathlib import Path

from harness.sandbox import botside, interpreter, privileges
from harness.sandbox.bot import landlock
from harness.sandbox.checks import packages

FIX = ("install the harness in a venv made from a python every user can read, e.g. "
       f"`/usr/bin/python{sys.version_info[0]}.{sys.version_info[1]} -m venv /opt/harness && "
       "/opt/harness/bin/pip install <the harness>`, and run it from there")


class NoReadablePython(privileges.IsolationUnavailable):
    """No interpreter a bot's uid can read: the harness refuses to play rather than run it as root."""


# The harness's interpreter and its standard library folders: what a bot's uid must read to run it.
OWN_PYTHON = (os.path.realpath(sys.executable), sysconfig.get_paths()["stdlib"], sysconfig.get_paths()["platstdlib"])


VERSION = f"{sys.version_info[0]}.{sys.version_info[1]}"
# Where a system's own Python of this version lives (Debian's package; the official Docker images').
CANDIDATES = (f"/usr/bin/python{VERSION}", f"/usr/local/bin/python{VERSION}")


@functools.cache  # the interpreters do not change while the harness runs
def _alternative(candidates: tuple[str, ...], probe_uid: int) -> tuple[str | None, str]:
    """A same-version interpreter ``probe_uid`` can run, proved by running it as that uid."""
    from importlib.util import MAGIC_NUMBER

    version = VERSION
    whys = []
    for candidate in dict.fromkeys(candidates):
        real = os.path.realpath(candidate)
        if not os.path.isfile(real):
            continue
        why = privileges.plain_obstacle([real])
        if why is not None:
            whys.append(why)
            continue
        probe = ("import sys, importlib.util; print(sys.version_info[:2] == (%d, %d), "
                 "importlib.util.MAGIC_NUMBER.hex())" % sys.version_info[:2])
        try:  # as the bot's kind of uid, the way a bot starts: what it cannot read fails here
            done = subprocess.run([real, "-I", "-S", "-B", "-c", probe], capture_output=True, text=True,
                                  timeout=30, cwd="/", env={"PATH": "/usr/bin:/bin"}, user=probe_uid,
                                  group=probe_uid, extra_groups=[])
        except (OSError, subprocess.SubprocessError) as exc:
            whys.append(f"{real}: {exc}")
            continue
        if done.stdout.split() == ["True", MAGIC_NUMBER.hex()]:
            return real, ""
        whys.append(f"{real} is not Python {version} with this one's bytecode")
    return None, "; ".join(whys) or f"no /usr/bin/python{version}"


def bot_python(needed: Iterable[str | Path] = ()) -> str:
    """The interpreter a plain-mode bot runs as a uid of its own (the harness is root).

    ``needed`` are the other files the bot runs (the compiled bot-side files, its approved
    packages, see :func:`readable_packages`): they must be readable by every uid whatever the
    interpreter. Raises :class:`NoReadablePython` with the one line that names the fix.
    """
    others = privileges.plain_obstacle([str(p) for p in needed])
    if others is not None:
        raise NoReadablePython(f"refusing to run bots as root, and a bot's own uid cannot read what it runs "
                               f"({others}): {FIX}")
    first = interpreter.chosen()  # the interpreter every tier prefers
    own = privileges.plain_obstacle(OWN_PYTHON) if first == OWN_PYTHON[0] else None
    if first == OWN_PYTHON[0] and own is None:
        return first
    # Proved by running it as a bot's uid; a job's own choice stands alone (no other clock).
    found, why = _alternative((first,) if interpreter.requested() else (first, *CANDIDATES, OWN_PYTHON[0]),
                              privileges.UID_BASE)
    if found is not None:
        return found
    whys = "; ".join(dict.fromkeys(w for w in (own, why) if w))
    raise NoReadablePython(f"refusing to run bots as root, and a bot's own uid cannot read this Python "
                           f"({whys}): {FIX}")


_copies: dict[tuple[Path, Path], Path] = {}  # (bot-side folder, package root) -> its readable copy there
_copy_lock = threading.Lock()


def _at_fork_child() -> None:
    global _copy_lock  # a fork while another thread copied must not leave the child waiting for ever
    _copy_lock = threading.Lock()


os.register_at_fork(after_in_child=_at_fork_child)


def readable_packages(found: Iterable[packages.Package], lib: Path) -> list[packages.Package]:
    """``found`` with every root a bot's uid cannot read replaced by a read-only copy inside the
    bot-side folder ``lib`` (made once per harness process, removed with it).

    Sound because the bot's interpreter is the same version with the same bytecode (see
    :func:`bot_python`): extension modules built for it load as installed. The roots of one
    site folder stay side by side (``PIL`` beside ``pillow.libs``: the libraries' relative links).
    """
    out = []
    for package in found:
        roots = []
        for root in package.roots:
            if privileges.plain_obstacle([str(root)]) is None:
                roots.append(root)
                continue
            with _copy_lock:
                copy = _copies.get((lib, root))
                if copy is None or not copy.exists():
                    site = hashlib.sha256(str(root.parent).encode()).hexdigest()[:12]
                    copy = lib / "packages" / site / root.name

                    def add(root: Path = root, copy: Path = copy) -> None:
                        copy.parent.mkdir(parents=True, exist_ok=True)
                        if root.is_dir():
                            shutil.copytree(root, copy, symlinks=True, dirs_exist_ok=True)
                        else:
                            shutil.copy2(root, copy)
                        _read_only(copy.parent.parent)

                    botside.reseal(lib, add)  # the folder is sealed: the harness's own addition keeps it so
                    _copies[(lib, root)] = copy
            roots.append(copy)
        out.append(dataclasses.replace(package, roots=tuple(roots)))
    return out


def _read_only(path: Path) -> None:
    """Folders searchable and files readable by every uid; nothing writable but by root."""
    for folder, _dirs, files in os.walk(path):
        os.chmod(folder, 0o755)
        for name in files:
            if not os.path.islink(os.path.join(folder, name)):
                os.chmod(os.path.join(folder, name), 0o444 | (os.stat(os.path.join(folder, name)).st_mode & 0o111))


@functools.cache  # fixed for the life of the process
def landlock_abi() -> int:
    """The kernel's Landlock ABI (0: none); ``HARNESS_LANDLOCK=0`` turns it off, for a diagnosis."""
    if os.environ.get("HARNESS_LANDLOCK") == "0":
        return 0
    return landlock.abi()


@functools.cache
def _system_reads() -> tuple[str, ...]:
    """What any bot's process reads besides its own files: the system's shared libraries (for
    ``dlopen`` of an extension's library), their cache, the time zone and locales, the harmless devices."""
    libs = ["/lib64", "/usr/lib64", *glob.glob("/usr/lib/*-linux-*"), *glob.glob("/lib/*-linux-*")]
    return tuple(dict.fromkeys([*(p for p in libs if os.path.isdir(p)), "/etc/ld.so.cache", "/etc/localtime",
                                "/usr/lib/locale", "/usr/share/zoneinfo",
                                "/dev/null", "/dev/zero", "/dev/urandom", "/dev/random", "/dev/full"]))


def landlock_args(python: str, reads: Iterable[str | Path], work: Path) -> list[str]:
    """The worker's arguments that apply a Landlock ruleset at its start (none without Landlock).

    ``reads`` are the bot's own folders (code, bot-side files, packages); the worker adds its
    interpreter's standard library itself. The process's own ``/proc/<pid>`` stays readable
    (the worker's clock reads its schedstat).
    """
    version = landlock_abi()
    if version <= 0:
        return []
    read = [python, *_system_reads(), *map(str, reads), "/proc/self"]
    return ["landlock", str(version), *(f"r:{p}" for p in read), f"w:{work}", "w:/dev/null"]


def tier(bwrap: bool) -> str:
    """The isolation tier in force for bots: ``bubblewrap``, ``container`` or ``unprotected``."""
    if bwrap:
        return "bubblewrap"
    return "container" if privileges.is_root() else "unprotected"


__all__ = ["FIX", "NoReadablePython", "bot_python", "landlock_abi", "landlock_args", "readable_packages", "tier"]
