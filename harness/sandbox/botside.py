"""The bot-side files, compiled once per harness process: the folder a bot's process runs from.

Every bot's process runs :mod:`worker` with :mod:`wire`, :mod:`guard` (and its :mod:`unaudited`),
:mod:`construct`, :mod:`botenv` and :mod:`deadline`.
Run from the package, the interpreter would compile them at every start (``-B``, and the
sandbox hides any ``__pycache__``). So the first bot a harness process starts makes one folder,
``harness-lib-<pid>-*`` in the temporary directory, holding:

* ``worker.pyc``: the worker, compiled; the bot's interpreter runs it as its script, so the
  worker is still ``__main__``;
* ``_harness_wire.py``, ``_harness_guard.py``, ``_harness_unaudited.py``, ``_harness_construct.py``,
  ``_harness_botenv.py``, ``_harness_deadline.py``: copies of the
  modules under the names the worker imports them by, each with its bytecode in
  ``__pycache__``, compiled as *checked-hash* pycs: every import verifies the bytecode against
  its source's hash, so a stale ``.pyc`` never runs;
* ``worker.py``: the worker's source, for the line of a traceback through it.

Two more kinds of bytecode save a bot's start its compiler (the first ``compile`` in a process
costs about 0.9 ms alone): the game's bot API folder, copied into ``api/`` of that folder
with checked-hash pycs (:func:`botapi`), and the submission's own modules, compiled once per
content in the door's capped child, never in the harness's process, and hard-linked from its
cache into each game's code folder (:func:`harness.door.modules.place`).

The folder is read-only to bots (bound read-only under bubblewrap; owned by the harness, files
0444 and folders 0755, so a bot's own uid cannot write it in plain mode). It is *sealed*: after
every change the harness makes, the identity of each entry (inode, size, mtime and ctime, which
no write can leave as it was) is recorded, and every start checks it (:func:`_seal`: one
``lstat`` per entry, 46 us for a dozen). A folder that changed behind the harness's back (a bot that
ran as root with its guard disarmed) is never handed to another bot: a fresh one is built
and the changed one is kept aside until exit (bots still running may import from it). It is
rebuilt when a source changes (one ``stat`` per file), removed when the harness process exits,
and one left by a harness that was killed is removed by the next
(:func:`harness.sandbox.stale.sweep_stale_dirs`).
"""

from __future__ import annotations

import atexit
from collections.abc import Callable
import compileall
import itertools
import os
import py_compile
import shutil
import stat
import tempfile
import threading
from pathlib import Path

from harness.sandbox.remove import remove_or_report
from harness.sandbox.stale import LIB_PREFIX

HERE = Path(__file__).parent / "bot"  # the modules that run inside a bot's process
PREFIX = LIB_PREFIX
# The bot-side sources and their module names in the bot's process (None: the script, __main__).
MODULES: dict[str, str | None] = {"worker.py": None, "wire.py": "_harness_wire", "guard.py": "_harness_guard",
                                  "unaudited.py": "_harness_unaudited", "construct.py": "_harness_construct",
                                  "botenv.py": "_harness_botenv", "landlock.py": "_harness_landlock",
                                  "seccomp.py": "_harness_seccomp", "deadline.py": "_harness_deadline"}
SOURCES = tuple(HERE / name for name in MODULES)
SCRIPT = "worker.pyc"

_lock = threading.Lock()
_built: tuple[int, tuple[tuple[int, int], ...], Path] | None = None  # (owner pid, sources' stat, folder)
_sealed: dict[Path, tuple[tuple[str, int, int, int, int, int], ...]] = {}  # folder -> its entries as built
_retired: list[Path] = []  # folders found changed: removed at exit, never handed out again
tampered = 0  # how many times a changed folder was found (for tests and doctor)
_apis: dict[Path, tuple[Path, tuple[tuple[str, int, int], ...], Path]] = {}  # source -> (folder, stat, copy)
_copies = itertools.count()


def _signature() -> tuple[tuple[int, int], ...]:
    return tuple((s.st_mtime_ns, s.st_size) for s in map(os.stat, SOURCES))


def folder() -> Path:
    """The folder of compiled bot-side files for this process, made (or remade) if needed."""
    global _built, tampered
    signature = _signature()
    with _lock:
        built = _built
        if built is not None and built[0] == os.getpid() and built[1] == signature and built[2].is_dir():
            if _sealed.get(built[2]) == _seal(built[2]):
                return built[2]
            tampered += 1  # changed behind our back: never hand it to a bot again
            _retired.append(built[2])
            _sealed.pop(built[2], None)
            for source in [s for s, known in _apis.items() if known[0] == built[2]]:
                del _apis[source]
        elif built is not None and built[0] == os.getpid():
            remove_or_report(built[2])  # a source changed: this copy is stale
        path = _build()
        _sealed[path] = _seal(path)
        if built is None or built[0] != os.getpid():  # first build in this process (a fork inherits none)
            _retired.clear()
            atexit.register(_remove)
        _built = (os.getpid(), signature, path)
        return path


def script() -> Path:
    """The worker's compiled script, the file a bot's interpreter runs."""
    return folder() / SCRIPT


def botapi(source: Path) -> Path:
    """A copy of the game's bot API folder ``source`` with checked-hash bytecode, inside
    :func:`folder` (bound with it, read-only): the folder a bot imports its bot API from.

    Remade (under a new name: a running bot may be importing from the old one) when a file of
    ``source`` changes (one ``stat`` per file at every start).
    """
    lib = folder()
    signature = tuple((str(p.relative_to(source)), st.st_mtime_ns, st.st_size)
                      for p in sorted(source.rglob("*.py")) if "__pycache__" not in p.parts
                      for st in (p.stat(),))
    with _lock:
        known = _apis.get(source)
        if known is not None and known[0] == lib and known[1] == signature and known[2].is_dir():
            return known[2]
        # Under its own folder's name (a bot's reason names the file as it would the original).
        target = lib / "api" / f"{next(_copies)}-{source.parent.name}" / source.name
        target.parent.mkdir(parents=True)
        shutil.copytree(source, target, ignore=shutil.ignore_patterns("__pycache__"))
        compileall.compile_dir(target, quiet=2, optimize=0,
                               invalidation_mode=py_compile.PycInvalidationMode.CHECKED_HASH)
        _read_only(target.parent.parent)
        _sealed[lib] = _seal(lib)
        _apis[source] = (lib, signature, target)
        return target


def reseal(lib: Path, add: Callable[[], None]) -> None:
    """Run ``add``, which writes the harness's own files into the folder ``lib`` (the container
    tier's read-only package copies), and seal the folder again as it then is.

    Checked first, under the same lock as every start: a folder changed behind our back is not
    resealed (the next start retires it and builds a fresh one).
    """
    with _lock:
        intact = _sealed.get(lib) == _seal(lib)
        add()
        if intact:
            _sealed[lib] = _seal(lib)


def _seal(path: Path) -> tuple[tuple[str, int, int, int, int, int], ...]:
    """Every entry under ``path`` with its inode, mode, size, mtime and ctime (links not followed).

    A write, a new or removed file, a chmod or ``os.utime`` changes a ctime, which only the
    kernel sets: a copy that matches this was not changed since it was sealed.
    """
    found = []
    stack = [str(path)]
    while stack:  # iterative: the harness made this folder, but it is cheap to be sure
        here = stack.pop()
        st = os.lstat(here)
        found.append((here, st.st_ino, st.st_mode, st.st_size, st.st_mtime_ns, st.st_ctime_ns))
        if stat.S_ISDIR(st.st_mode):
            stack.extend(os.path.join(here, name) for name in sorted(os.listdir(here)))
    return tuple(found)


def _read_only(path: Path) -> None:
    """Readable by a bot's own uid (plain mode), writable by none."""
    for root, dirs, files in os.walk(path):
        for name in dirs:
            os.chmod(os.path.join(root, name), 0o755)
        for name in files:
            os.chmod(os.path.join(root, name), 0o444)
    os.chmod(path, 0o755)


def _build() -> Path:
    path = Path(tempfile.mkdtemp(prefix=f"{PREFIX}{os.getpid()}-"))
    try:
        for source, module in MODULES.items():
            target = path / (source if module is None else f"{module}.py")
            shutil.copyfile(HERE / source, target)
            if module is None:
                py_compile.compile(str(target), cfile=str(path / SCRIPT), doraise=True,
                                   invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH)
            else:  # at the path the import looks for: __pycache__/<name>.cpython-3XX.pyc
                py_compile.compile(str(target), doraise=True,
                                   invalidation_mode=py_compile.PycInvalidationMode.CHECKED_HASH)
        _read_only(path)
    except BaseException:
        remove_or_report(path)
        raise
    return path


def _remove() -> None:
    """Delete this process's folder (at exit)."""
    built = _built
    if built is not None and built[0] == os.getpid():
        remove_or_report(built[2])
        for old in _retired:
            remove_or_report(old)


def _at_fork_child() -> None:
    # A fork while another thread held a lock (a Dask worker, a test's subprocess) must not
    # leave the child waiting for it for ever.
    global _lock
    _lock = threading.Lock()


os.register_at_fork(after_in_child=_at_fork_child)

__all__ = ["MODULES", "PREFIX", "SOURCES", "botapi", "folder", "script"]
