"""A submission's module parsed outside the parent: in a capped child, once per content, cached on disk.

Parsing is the one step of the static checks whose cost a student chooses: a 4 MiB ``player.py``
that is one list literal takes ``ast.parse`` 2 GB of memory and about 10 s of CPU. So the parent
never parses a submission itself. :func:`scan` runs :mod:`harness.sandbox.checks.scanchild` in a child
process with :data:`MEMORY` bytes of address space and :data:`CPU` seconds of CPU time, and
keeps what it says (the module's imports, or that it could not be parsed, or which cap it
broke) under the SHA-256 of the source:

* in this process, so every game, seat and check of a run reuses it;
* on disk, in ``$XDG_CACHE_HOME/harness/static/VERSION/SHA256-MEMORY-CPU.json`` (``~/.cache``
  without ``XDG_CACHE_HOME``), so later runs reuse it too. ``VERSION`` is a hash of the child's code and the interpreter's version:
  a change of either starts afresh. An entry is written to a temporary file and renamed into
  place (concurrent harness processes write the same content at worst); one that cannot be
  read or does not have the expected shape is ignored and recomputed. A cache folder that
  cannot be written is no error: the result is kept in this process only.

The memory cap is a bot's own default address space (``Limits.memory_bytes``): a module whose
parse needs more than that could not be imported by the bot either. A module past a cap is the
bot's own problem (:mod:`harness.sandbox.checks.static` makes it a ``forbidden`` finding); a child
that cannot be started at all leaves the module unchecked here, to run time.
"""

from __future__ import annotations

import hashlib
import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path

CHILD = Path(__file__).with_name("scanchild.py")
MEMORY = 1 << 30  # bytes of address space for the parse (a bot's own default, Limits.memory_bytes)
CPU = 20  # seconds of CPU time for the parse (a 1 MiB table takes about 2 s)
WALL = 300.0  # seconds of wall-clock time, however loaded the machine (CPU is the cap that judges)
VERSION = hashlib.sha256(CHILD.read_bytes() + sys.version.encode()).hexdigest()[:16]


@dataclass(frozen=True)
class Scan:
    """What parsing one module found: its imports ``(line, top-level module, guarded)``, whether
    it parsed at all (a syntax error is left to run time), or which cap (``over``) it broke."""

    parsed: bool
    imports: tuple[tuple[int, str, bool], ...] = ()
    over: str | None = None  # "memory" or "cpu": the module is too large or complex to check


UNCHECKED = Scan(parsed=False)
_memo: dict[str, Scan] = {}
_locks: dict[str, threading.Lock] = {}
_guard = threading.Lock()
_running = threading.BoundedSemaphore(2)  # children at once: at most 2 GiB, however many games start together
children = 0  # child processes started by this process (bench/bench_parent_budget.py counts them)


def scan(source: bytes) -> Scan:
    """The :class:`Scan` of a module's ``source``: from memory, the disk cache, or a capped child."""
    key = hashlib.sha256(source).hexdigest()
    found = _memo.get(key)
    if found is not None:
        return found
    with _guard:
        lock = _locks.setdefault(key, threading.Lock())
    with lock:  # two games of a run checking the same bot at once start one child
        found = _memo.get(key)
        if found is None:
            found = _load(key)
            if found is None:
                found, keep = _run(source)
                if keep:
                    _store(key, found)
            _memo[key] = found
    return found


def cache_dir() -> Path:
    """Where scans are kept on disk (the folder may not exist yet)."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "harness" / "static" / VERSION


def _path(key: str) -> Path:
    """The cache entry of the source whose SHA-256 is ``key``, under the caps in force."""
    return cache_dir() / f"{key}-{MEMORY}-{CPU}.json"


def _run(source: bytes) -> tuple[Scan, bool]:
    """Parse ``source`` in a capped child: its scan, and whether it may be cached."""
    global children
    children += 1
    try:
        with _running:
            run = subprocess.run([sys.executable, "-I", str(CHILD), str(MEMORY), str(CPU)], input=source,
                                 capture_output=True, timeout=WALL, check=False)
    except subprocess.TimeoutExpired:  # a machine this loaded is no verdict on the bot: not kept
        return Scan(parsed=False, over="cpu"), False
    except OSError:  # no child at all: the harness's own trouble, left to run time, not kept
        return UNCHECKED, False
    if run.returncode in (-signal.SIGXCPU, -signal.SIGKILL):
        return Scan(parsed=False, over="cpu"), True
    if run.returncode == 0:
        result = _parse(run.stdout)
        if result is not None:
            return result, True
    if b"MemoryError" in run.stderr or run.returncode < 0:  # the interpreter itself ran out of memory
        return Scan(parsed=False, over="memory"), True
    return UNCHECKED, False


def _parse(data: bytes) -> Scan | None:
    """A child's line (or a cache entry) as a :class:`Scan`; ``None`` unless it has the exact shape."""
    try:
        raw = json.loads(data)
    except (ValueError, RecursionError):
        return None
    if type(raw) is not dict:
        return None
    if raw.get("over") in ("memory", "cpu"):
        return Scan(parsed=False, over=raw["over"])
    if raw.get("parsed") is False:
        return UNCHECKED
    items = raw.get("imports")
    if raw.get("parsed") is not True or type(items) is not list:
        return None
    imports = []
    for item in items:
        if type(item) is not list or len(item) != 3 or type(item[0]) is not int or type(item[1]) is not str \
                or type(item[2]) is not bool:
            return None
        imports.append((item[0], item[1], item[2]))
    return Scan(parsed=True, imports=tuple(imports))


def _load(key: str) -> Scan | None:
    try:
        return _parse(_path(key).read_bytes())
    except OSError:
        return None


def _store(key: str, found: Scan) -> None:
    if found.over is not None:
        data: dict[str, object] = {"over": found.over}
    else:
        data = {"parsed": found.parsed, "imports": [list(i) for i in found.imports]}
    folder = cache_dir()
    try:
        folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=f".{key}.", suffix=".tmp")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                json.dump(data, f)
            os.replace(tmp, _path(key))
        except BaseException:
            os.unlink(tmp)
            raise
    except OSError:
        pass  # a cache that cannot be written: this process keeps it in memory


__all__ = ["CPU", "MEMORY", "Scan", "UNCHECKED", "cache_dir", "scan"]
