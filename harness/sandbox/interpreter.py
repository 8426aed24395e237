"""The interpreter bots run on: one rule for every tier, and what a record says about it.

A bot's time limits are judged on the interpreter that runs it, so the interpreter is the
judge's clock: the same bot is measurably slower on a CPython built without optimisation
(pyenv's default build) than on a distribution's (Debian's, built with profile-guided
optimisation and LTO). Every tier therefore runs bots on the same interpreter, chosen here:

1. the one the job names (``interpreter:`` in the jobs file, :func:`use`), else
2. the system's own interpreter of the harness's version (``/usr/bin/python3.X``, then
   ``/usr/local/bin/python3.X``: the distribution's or the official Docker image's, built
   optimised) when it runs and compiles the same bytecode as the harness, else
3. the harness's own interpreter.

"The same bytecode" is verified by running the candidate once (its version and
``importlib.util.MAGIC_NUMBER``): the harness compiles the bot-side files and a bot's code for
the bot's interpreter. :func:`describe` gives what a record keeps of an interpreter (path,
version, implementation, build), :func:`speed` a short fixed CPU workload's time on it (for
``harness doctor``'s comparison, cached on disk).
"""

from __future__ import annotations

import functools
import json
import os
import platform
import subprocess
import sys
import sysconfig
import time
from importlib.util import MAGIC_NUMBER
from pathlib import Path
from typing import Any

VERSION = f"{sys.version_info[0]}.{sys.version_info[1]}"
# The system's own interpreter of this version: Debian's package, the official Docker images'.
SYSTEM = (f"/usr/bin/python{VERSION}", f"/usr/local/bin/python{VERSION}")
OWN = os.path.realpath(sys.executable)

# Run by a candidate with -I -S: what it is and how it was built (nothing of it is trusted
# beyond "does it run our bytecode": the job's own administrator named it).
_PROBE = """import json, platform, sys, sysconfig
from importlib.util import MAGIC_NUMBER
v = sysconfig.get_config_var
print(json.dumps({"version": platform.python_version(), "implementation": sys.implementation.name,
    "magic": MAGIC_NUMBER.hex(), "compiler": platform.python_compiler(), "opt": v("OPT") or "",
    "config": v("CONFIG_ARGS") or "", "cflags": v("PY_CFLAGS_NODIST") or "", "shared": bool(v("Py_ENABLE_SHARED")),
    "executable": sys.executable, "prefix": sys.base_prefix, "exec_prefix": sys.base_exec_prefix}))
"""

_requested: str | None = None  # the job's ``interpreter:`` in this process, if it names one


class InterpreterError(ValueError):
    """An interpreter that cannot run bots here (one line: which, and why)."""


def _own_facts() -> dict[str, Any]:
    v = sysconfig.get_config_var
    return {"version": platform.python_version(), "implementation": sys.implementation.name,
            "magic": MAGIC_NUMBER.hex(), "compiler": platform.python_compiler(), "opt": v("OPT") or "",
            "config": v("CONFIG_ARGS") or "", "cflags": v("PY_CFLAGS_NODIST") or "",
            "shared": bool(v("Py_ENABLE_SHARED")), "executable": sys.executable,
            "prefix": sys.base_prefix, "exec_prefix": sys.base_exec_prefix}


@functools.cache  # an interpreter does not change while the harness runs
def facts(path: str) -> dict[str, Any]:
    """What ``path`` says it is (see ``_PROBE``); raises :class:`InterpreterError`."""
    real = os.path.realpath(path)
    if real == OWN:
        return _own_facts()
    if not os.path.isfile(real) or not os.access(real, os.X_OK):
        raise InterpreterError(f"{path} is not an executable file")
    try:
        done = subprocess.run([real, "-I", "-S", "-B", "-c", _PROBE], capture_output=True, text=True,
                              timeout=30, cwd="/", env={"PATH": "/usr/bin:/bin"})
        found = json.loads(done.stdout.strip().splitlines()[-1])
        if type(found) is not dict:
            raise ValueError
    except (OSError, subprocess.SubprocessError, ValueError, IndexError):
        raise InterpreterError(f"{path} does not run as Python {VERSION}") from None
    return found


def check(path: str) -> str | None:
    """Why ``path`` cannot run bots for this harness (one line), or None if it can."""
    try:
        found = facts(path)
    except InterpreterError as exc:
        return str(exc)
    version = str(found.get("version", ""))
    if ".".join(version.split(".")[:2]) != VERSION or found.get("magic") != MAGIC_NUMBER.hex():
        return (f"{path} is Python {version or 'of unknown version'}, not Python {VERSION} with the bytecode of "
                f"the harness's ({platform.python_version()})")
    return None


@functools.cache
def default() -> str:
    """The interpreter the rule picks without a job's choice (see the module's docstring)."""
    for candidate in SYSTEM:
        real = os.path.realpath(candidate)
        if os.path.isfile(real) and check(real) is None:
            return real
    return OWN


def use(path: str | None) -> None:
    """Run this process's bots on ``path`` (a job's ``interpreter:``), or by the rule (``None``).

    Raises :class:`InterpreterError` if ``path`` cannot run them.
    """
    global _requested
    if path:
        why = check(path)
        if why is not None:
            raise InterpreterError(why)
        path = os.path.realpath(path)
    _requested = path or None


def requested() -> str | None:
    """The interpreter a job named for this process's bots, if one did."""
    return _requested


def chosen() -> str:
    """The interpreter this process's bots run on, in every tier (a real path, not a venv's link)."""
    return _requested or default()


def build(found: dict[str, Any]) -> str:
    """A short account of how an interpreter was built: compiler, optimisation level, PGO, LTO."""
    flags = f"{found.get('opt', '')} {found.get('cflags', '')}".split()
    level = next((f for f in reversed(flags) if f.startswith("-O")), "no -O")
    config = str(found.get("config", ""))
    parts = [str(found.get("compiler", "")).strip() or "unknown compiler", level]
    if "--enable-optimizations" in config or any(f.startswith("-fprofile-use") for f in flags):
        parts.append("PGO")
    if "--with-lto" in config or any(f.startswith("-flto") for f in flags):
        parts.append("LTO")
    if found.get("shared"):
        parts.append("shared")
    return ", ".join(parts)


@functools.cache
def describe(path: str) -> dict[str, Any]:
    """What a record keeps of the interpreter at ``path``: path, version, implementation, build."""
    try:
        found = facts(path)
    except InterpreterError:
        return {"path": path, "version": "", "implementation": "", "build": "unknown"}
    return {"path": os.path.realpath(path), "version": str(found.get("version", "")),
            "implementation": str(found.get("implementation", "")), "build": build(found)}


def summary(info: dict[str, Any]) -> str:
    """One line for people: ``/usr/bin/python3.11 (CPython 3.11.2; GCC 12.2.0, -O2, shared)``."""
    from harness.record import interpreter_text

    return interpreter_text({k: v for k, v in info.items() if k != "tier"}) or "unknown"


# A fixed CPU workload (integer arithmetic, dicts, strings: what bots do), best of 5 runs of
# its CPU time. It takes about 30 ms on Debian's 3.11 on this course's 2-core machine.
WORKLOAD = """import time
def work(n):
    t = time.process_time()
    d, s = {}, 0
    for i in range(n):
        s += (i * i) % 7
        d[i & 1023] = s
        if i % 3 == 0:
            s ^= len(str(i))
    return time.process_time() - t
print(min(work(300000) for _ in range(5)))
"""


def _speed_cache() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "harness" / "interpreter-speed.json"


def speed(path: str, *, cached: bool = True) -> float | None:
    """Seconds of CPU the fixed workload takes on ``path`` (None if it does not run).

    Cached on disk by the interpreter's path, size and modification time: measured once per
    machine and interpreter (a busy machine barely moves a best-of-5 CPU time). A cluster's
    workers measure afresh (``cached=False``): their check is of the host as it is now.
    """
    real = os.path.realpath(path)
    try:
        st = os.stat(real)
    except OSError:
        return None
    key = f"{real}:{st.st_size}:{int(st.st_mtime)}"
    cache = _speed_cache()
    known: Any = {}
    if cached:
        try:
            known = json.loads(cache.read_text())
            if type(known) is dict and isinstance(known.get(key), float):
                return float(known[key])
        except (OSError, ValueError):
            known = {}
    try:
        done = subprocess.run([real, "-I", "-S", "-B", "-c", WORKLOAD], capture_output=True, text=True,
                              timeout=120, cwd="/", env={"PATH": "/usr/bin:/bin"})
        seconds = float(done.stdout.strip())
    except (OSError, subprocess.SubprocessError, ValueError):
        return None
    if not cached:
        return seconds
    known = known if type(known) is dict else {}
    known[key] = seconds
    try:
        cache.parent.mkdir(parents=True, exist_ok=True)
        tmp = cache.with_name(f"{cache.name}.{os.getpid()}.{time.monotonic_ns()}")
        tmp.write_text(json.dumps(known, indent=1))
        tmp.replace(cache)
    except OSError:
        pass  # an unwritable cache is no error: measured again next time
    return seconds


SLOWER = 1.15  # a build this much slower than the fastest here is worth a warning (150 ms of a 1 s move)


def compare(path: str | None = None) -> tuple[list[str], str | None]:
    """The speed of the fixed workload on ``path`` (default: the chosen interpreter) and on every
    other interpreter here that could run bots: lines to show, and a warning if ``path`` is a
    build at least :data:`SLOWER` times slower than the fastest of them (with the factor)."""
    first = os.path.realpath(path) if path else chosen()
    others = [c for c in candidates() if c != first]
    times = {p: speed(p) for p in [first, *others]}
    lines = [f"{p}: {t * 1000:.1f} ms" if t is not None else f"{p}: did not run" for p, t in times.items()]
    known = {p: t for p, t in times.items() if t is not None}
    mine = known.get(first)
    if mine is None or len(known) < 2:
        return lines, None
    best = min(known, key=known.__getitem__)
    factor = mine / known[best]
    if factor < SLOWER:
        return lines, None
    return lines, (f"bots run on {first}, a build {factor:.2f}x slower than {best} on a fixed CPU workload "
                   f"({mine * 1000:.1f} ms against {known[best] * 1000:.1f} ms): every bot's time limit is "
                   f"that much tighter; name the faster one with a job's `interpreter:`")


def candidates() -> list[str]:
    """Every interpreter here that could run bots for this harness (real paths, the chosen first)."""
    out = [chosen()]
    for path in (*SYSTEM, OWN):
        real = os.path.realpath(path)
        if real not in out and os.path.isfile(real) and check(real) is None:
            out.append(real)
    return out


__all__ = ["SLOWER", "InterpreterError", "build", "candidates", "check", "chosen", "compare", "default", "describe",
           "facts", "requested", "speed", "summary", "use"]
