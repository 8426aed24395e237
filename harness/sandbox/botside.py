"""The bot-side files, compiled once per harness process: the folder a bot's process runs from.

Every bot's process runs :mod:`worker` with :mod:`wire`, :mod:`guard`, :mod:`construct` and
:mod:`botenv`.
Run from the package, the interpreter would compile them at every start (``-B``, and the
sandbox hides any ``__pycache__``). So the first bot a harness process starts makes one folder,
``harness-lib-<pid>-*`` in the temporary directory, holding:

* ``worker.pyc``: the worker, compiled; the bot's interpreter runs it as its script, so the
  worker is still ``__main__``;
* ``_harness_wire.py``, ``_harness_guard.py``, ``_harness_construct.py``, ``_harness_botenv.py``: copies of the
  modules under the names the worker imports them by, each with its bytecode in
  ``__pycache__``, compiled as *checked-hash* pycs: every import verifies the bytecode against
  its source's hash, so a stale ``.pyc`` never runs;
* ``worker.py``: the worker's source, for the line of a traceback through it.

The folder is read-only to bots (bound read-only under bubblewrap; owned by the harness and
not writable by a bot's uid in plain mode). It is rebuilt when a source changes (checked at
every start: one ``stat`` per file), removed when the harness process exits, and one left by a
harness that was killed is removed by the next (:func:`harness.sandbox.stale.sweep_stale_dirs`).
"""

from __future__ import annotations

import atexit
import os
import py_compile
import shutil
import tempfile
import threading
from pathlib import Path

from harness.sandbox.stale import LIB_PREFIX

HERE = Path(__file__).parent
PREFIX = LIB_PREFIX
# The bot-side sources and their module names in the bot's process (None: the script, __main__).
MODULES: dict[str, str | None] = {"worker.py": None, "wire.py": "_harness_wire", "guard.py": "_harness_guard",
                                  "construct.py": "_harness_construct", "botenv.py": "_harness_botenv"}
SOURCES = tuple(HERE / name for name in MODULES)
SCRIPT = "worker.pyc"

_lock = threading.Lock()
_built: tuple[int, tuple[tuple[int, int], ...], Path] | None = None  # (owner pid, sources' stat, folder)


def _signature() -> tuple[tuple[int, int], ...]:
    return tuple((s.st_mtime_ns, s.st_size) for s in map(os.stat, SOURCES))


def folder() -> Path:
    """The folder of compiled bot-side files for this process, made (or remade) if needed."""
    global _built
    signature = _signature()
    with _lock:
        built = _built
        if built is not None and built[0] == os.getpid() and built[1] == signature and built[2].is_dir():
            return built[2]
        if built is not None and built[0] == os.getpid():
            shutil.rmtree(built[2], ignore_errors=True)  # a source changed: this copy is stale
        path = _build()
        if built is None or built[0] != os.getpid():  # first build in this process (a fork inherits none)
            atexit.register(_remove)
        _built = (os.getpid(), signature, path)
        return path


def script() -> Path:
    """The worker's compiled script, the file a bot's interpreter runs."""
    return folder() / SCRIPT


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
        for root, dirs, files in os.walk(path):  # readable by a bot's own uid (plain mode), writable by none
            for name in dirs:
                os.chmod(os.path.join(root, name), 0o755)
            for name in files:
                os.chmod(os.path.join(root, name), 0o444)
        os.chmod(path, 0o755)
    except BaseException:
        shutil.rmtree(path, ignore_errors=True)
        raise
    return path


def _remove() -> None:
    """Delete this process's folder (at exit)."""
    built = _built
    if built is not None and built[0] == os.getpid():
        shutil.rmtree(built[2], ignore_errors=True)


__all__ = ["MODULES", "PREFIX", "SOURCES", "folder", "script"]
