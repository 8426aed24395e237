"""Isolation of a bot's process with bubblewrap (``bwrap``), when it is installed and works.

The bot runs in new PID, network, IPC, UTS, cgroup and mount namespaces. Where the harness
runs as root, the sandbox is built as root and ``setpriv`` drops the bot to a uid of its own
(:mod:`harness.sandbox.privileges`): no capabilities, no groups, ``no_new_privs``. Otherwise
(where the kernel allows unprivileged user namespaces) it gets a new user namespace in which
it is ``nobody`` (uid 65534) with no capabilities and cannot create further namespaces. It sees:

* a read-only root made of ``/usr`` (and the ``/bin``, ``/lib*`` links), the Python
  interpreter's own prefix (with every ``site-packages`` hidden under an empty read-only
  tmpfs: a bot imports the standard library and its game's bot API, nothing installed),
  ``/etc/ld.so.cache`` and ``/etc/localtime``;
* the harness's bot-side files, compiled (:mod:`harness.sandbox.botside`), read-only;
* the installed packages its game and job approve (e.g. Pillow for Štreky), read-only at their
  own paths, through a folder of links on its ``sys.path`` (:mod:`harness.sandbox.checks.packages`);
* its game's bot API folder and its own ``player.py``, read-only;
* one writable directory, its working directory: an empty tmpfs capped in size;
* a fresh ``/proc`` (its own PID namespace only) and a minimal read-only ``/dev``.

No other submission, no results store, no home directory, no network (only a loopback
interface of its own). ``--die-with-parent`` kills the sandbox if the harness dies.

Paths inside the sandbox are the same as outside, so the process table shows the worker's
real path, and the bot's working directory keeps its ``harness-bot-...`` name.
"""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from harness.sandbox import botside, interpreter, privileges

NOBODY = 65534


@dataclass(frozen=True)
class BwrapSupport:
    """Whether bubblewrap works here, and how."""

    path: str | None  # the bwrap executable, or None when unusable
    userns: bool = False  # True if the bot gets its own user namespace (uid nobody, no capabilities)
    drop: str | None = None  # setpriv, when the harness is root and drops each bot to a uid of its own
    version: str = ""
    reason: str = ""  # why not, or what is degraded

    @property
    def available(self) -> bool:
        return self.path is not None


_SUPPORT: BwrapSupport | None = None


def support() -> BwrapSupport:
    """Probe once per process: does a real sandboxed Python start under bwrap here?"""
    global _SUPPORT
    if _SUPPORT is None:
        _SUPPORT = _probe()
    return _SUPPORT


def python_executable() -> str:
    """The interpreter the bot runs: the one every tier runs (:func:`harness.sandbox.interpreter.chosen`)."""
    return interpreter.chosen()


def _probe() -> BwrapSupport:
    if not sys.platform.startswith("linux"):
        return BwrapSupport(None, reason=f"bubblewrap is Linux-only (this is {sys.platform})")
    exe = shutil.which("bwrap")
    if exe is None:
        return BwrapSupport(None, reason="bwrap is not installed (Debian/Ubuntu: apt-get install bubblewrap)")
    try:
        version = subprocess.run([exe, "--version"], capture_output=True, text=True, timeout=10).stdout.strip()
    except (OSError, subprocess.SubprocessError) as exc:
        return BwrapSupport(None, reason=f"bwrap does not run: {exc}")
    errors = []
    # Root builds the sandbox and drops the bot (setpriv); others need a user namespace. Root
    # without setpriv gets no bubblewrap: a user namespace would map the bot to root outside, and
    # no bot ever runs as root (plain mode then starts it as a uid of its own: the container tier).
    drop = privileges.setpriv() if privileges.is_root() else None
    if privileges.is_root() and drop is None:
        return BwrapSupport(None, reason="setpriv (util-linux) is not installed: a root harness needs it to run "
                                         "bots under bubblewrap as uids of their own")
    attempts: list[tuple[bool, str | None]] = [(False, drop)] if drop else [(True, None)]
    for userns, dropping in attempts:
        with tempfile.TemporaryDirectory(prefix="harness-probe-") as tmp:
            code, work = Path(tmp, "code"), Path(tmp, "work")
            code.mkdir()
            work.mkdir()
            (code / "probe.py").write_text("import sys, os\nopen('x', 'w').write('ok')\nsys.exit(0)\n")
            # The real layout: the folder of compiled bot-side files bound where it is.
            argv = command(exe, userns=userns, code_dir=code, work_dir=work, botapi_dir=None,
                           lib_dir=botside.folder(), work_bytes=1 << 20,
                           drop=(dropping, privileges.pick_uid()) if dropping else None)
            argv += [python_executable(), "-I", "-S", "-B", str(code / "probe.py")]
            try:
                done = subprocess.run(argv, capture_output=True, text=True, timeout=30, cwd="/",
                                      env={"PATH": "/usr/bin:/bin"})
            except (OSError, subprocess.SubprocessError) as exc:
                errors.append(str(exc))
                continue
        if done.returncode == 0:
            return BwrapSupport(exe, userns=userns, version=version, reason="", drop=dropping)
        errors.append(done.stderr.strip().splitlines()[-1] if done.stderr.strip() else f"exit {done.returncode}")
    return BwrapSupport(None, version=version, reason="bwrap cannot create the sandbox here: " + "; ".join(errors))


@functools.cache  # fixed for the life of the process; each bot's start would otherwise pay ~1 ms
def _site_dirs() -> tuple[str, ...]:
    """Folders of installed packages, to hide inside the sandbox."""
    found = set()
    for key in ("purelib", "platlib"):
        for scheme_vars in ({}, {"base": sys.base_prefix, "platbase": sys.base_exec_prefix}):
            try:
                found.add(os.path.realpath(sysconfig.get_paths(vars=scheme_vars)[key]))
            except (KeyError, ValueError):
                pass
    for extra in ("/usr/lib/python3/dist-packages", "/usr/local/lib/python3/dist-packages",
                  f"/usr/lib/python{sys.version_info[0]}.{sys.version_info[1]}/site-packages",
                  f"/usr/local/lib/python{sys.version_info[0]}.{sys.version_info[1]}/dist-packages"):
        found.add(extra)
    return tuple(sorted(p for p in found if os.path.isdir(p)))


def _reach(dest: str, made: set[str]) -> list[str]:
    """Options making the folders above ``dest`` not yet in ``made`` (then in it) world-searchable."""
    # Folders bwrap makes for a bind are root's, mode 0700: a dropped uid could not pass them.
    out = []
    for folder in reversed(Path(dest).parents):
        if str(folder) not in made:
            made.add(str(folder))
            out += ["--perms", "0755", "--dir", str(folder)]
    return out


@functools.cache  # fixed for the life of the process: every bot's start would pay ~0.2 ms
def _system_options(userns: bool, drop: bool, python: str) -> tuple[tuple[str, ...], frozenset[str]]:
    """The options every bot's bubblewrap has (namespaces, the system's folders, the interpreter,
    the package folders hidden), and the folders they made (see :func:`_reach`)."""
    argv: list[str] = []
    if userns:
        argv += ["--unshare-user", "--uid", str(NOBODY), "--gid", str(NOBODY), "--disable-userns"]
    argv += ["--unshare-pid", "--unshare-net", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try",
             "--hostname", "sandbox", "--die-with-parent"]
    if not drop:
        argv += ["--cap-drop", "ALL"]  # with a drop, setpriv clears every capability itself
    made: set[str] = {"/"}
    argv += ["--ro-bind", "/usr", "/usr"]
    for top in ("/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"):
        if os.path.islink(top):
            argv += ["--symlink", os.readlink(top), top]
        elif os.path.isdir(top):
            argv += ["--ro-bind", top, top]
    for etc in ("/etc/ld.so.cache", "/etc/localtime"):
        argv += ["--ro-bind-try", etc, etc]
    prefixes = {os.path.realpath(sys.base_prefix), os.path.realpath(sys.base_exec_prefix)}
    try:  # the bots' interpreter's own prefixes, as it reports them (a job's may be another Python)
        found = interpreter.facts(python)
        prefixes |= {os.path.realpath(str(found[k])) for k in ("prefix", "exec_prefix") if found.get(k)}
    except interpreter.InterpreterError:
        pass
    prefixes.discard("/")  # never the whole filesystem
    bound = ["/usr"]
    for prefix in sorted(prefixes):
        if not prefix.startswith("/usr/") and prefix != "/usr":
            argv += [*(_reach(prefix, made) if drop else []), "--ro-bind", prefix, prefix]
            bound.append(prefix)
    if not any(python == p or python.startswith(p + "/") for p in bound):
        # Outside its prefix (a script that starts the real one): the file alone, never its folder.
        argv += [*(_reach(python, made) if drop else []), "--ro-bind", python, python]
    for site in _site_dirs():  # an empty folder over every package folder (made read-only below)
        argv += ["--tmpfs", site]
    return tuple(argv), frozenset(made)


def command(exe: str, *, drop: tuple[str, int] | None = None, **options: Any) -> list[str]:
    """The ``bwrap`` command line (up to, not including, the command) for one bot: ``exe``, its
    :func:`options`, and with a ``drop`` the ``setpriv`` command that drops the bot's uid."""
    return [exe, *bwrap_options(drop=drop, **options), *(privileges.setpriv_prefix(*drop) if drop is not None else [])]


def bwrap_options(*, userns: bool, code_dir: Path | None, work_dir: Path | None,
                  botapi_dir: Path | None, work_bytes: int, lib_dir: Path | None = None,
                  package_dir: Path | None = None, package_roots: tuple[Path, ...] = (),
                  drop: tuple[str, int] | None = None, env: dict[str, str] | None = None) -> list[str]:
    """The ``bwrap`` options for one bot (its namespaces, mounts and, if given, its ``env``).

    ``lib_dir`` is the folder of compiled bot-side files (:func:`harness.sandbox.botside.folder`).
    ``package_dir`` is the bot's folder of links to the packages it may import and
    ``package_roots`` their targets, bound read-only at their own paths (inside the hidden
    package folders, which stay empty but for them). ``drop`` is (setpriv, uid): the command
    then runs as that uid (the harness is root; bwrap's own folders are made world-searchable
    so the uid reaches what is bound, and its working folder is a sticky world-writable tmpfs).
    """
    argv = [] if env is None else ["--clearenv", *(x for item in env.items() for x in ("--setenv", *item))]
    fixed, made_before = _system_options(userns, drop is not None, python_executable())
    argv += fixed
    made = set(made_before)

    def reach(dest: str) -> list[str]:
        return _reach(dest, made) if drop is not None else []
    sites = _site_dirs()
    if lib_dir is not None:
        argv += [*reach(str(lib_dir)), "--ro-bind", str(lib_dir), str(lib_dir)]
    for f in package_roots:
        argv += [*reach(str(f)), "--ro-bind", str(f), str(f)]
    if package_dir is not None:
        argv += [*reach(str(package_dir)), "--ro-bind", str(package_dir), str(package_dir)]
    if botapi_dir is not None:
        argv += [*reach(str(botapi_dir)), "--ro-bind", str(botapi_dir), str(botapi_dir)]
    if code_dir is not None:
        argv += [*reach(str(code_dir)), "--ro-bind", str(code_dir), str(code_dir)]
    for site in sites:
        argv += ["--remount-ro", site]
    argv += ["--proc", "/proc", "--dev", "/dev", "--remount-ro", "/dev"]
    if work_dir is not None:
        perms = ["--perms", "01777"] if drop is not None else []
        argv += [*reach(str(work_dir)), *perms, "--size", str(work_bytes), "--tmpfs", str(work_dir),
                 "--chdir", str(work_dir)]
    argv += ["--remount-ro", "/"]
    return argv


__all__ = ["BwrapSupport", "bwrap_options", "command", "python_executable", "support"]
