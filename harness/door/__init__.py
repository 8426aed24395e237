"""The door: everything derived from a submission's bytes is derived in a capped child, once per content.

A student chooses the bytes of a submission, and so the cost of anything that reads them: a
4 MiB list literal takes ``ast.parse`` 2 GB; a 7.9 KB chain of string additions takes
``compile`` 2.9 GB (the optimiser folds it and keeps every intermediate string); a 200 KB tuple
of strings compiles to hundreds of MB of bytecode. So the harness never parses, compiles or
tokenises a submission itself. It asks the door:

* :func:`run` (one item) and :func:`run_many` (a batch) call a registered :class:`Task`'s
  function (a pure, importable function of plain data, ``module:function``) in a child process
  (:mod:`harness.door.child`) started as ``python -I -S -B``, with no inherited descriptors, an
  empty environment, ``/`` as its folder, a uid of its own when the harness runs as root, and
  the task's caps: address space (``memory``), CPU time per item (``cpu``) and result size
  (``output``). Where the kernel has Landlock, the child confines itself before its first item:
  it may read its import path and the system's libraries, and write nothing. A batch runs in one child; an item past a cap is charged alone (the others go on,
  or run again in a fresh child). At most :data:`PARALLEL` children run at once.
* An item past a cap is :class:`Over` (``.cap`` is ``"memory"``, ``"cpu"`` or ``"output"``, and
  :meth:`Over.line` says it in one line naming the file): the caller makes it the
  submission's ``forbidden``. A child that cannot start, is out of wall-clock time (a machine this
  loaded is no verdict) or fails in the task's own code is :class:`Unavailable`: the harness's
  trouble, never cached.
* Results are kept by content: the SHA-256 of the task's name, its function's source, the
  caps, the interpreter (version and bytecode magic) and the item's encoding. In this process
  (up to :data:`MEMORY_CACHE` bytes, the oldest go first) and on disk under
  ``$XDG_CACHE_HOME/harness/door/VERSION/TASK/KEY.json`` (``~/.cache`` without it), with every
  bytes value of a result stored once by its own SHA-256 in ``blobs/`` (read-only, so a game can
  hard-link a compiled module from there). An entry is written to a temporary file and renamed
  into place; one that cannot be read or decoded is recomputed; a cache folder that cannot be
  written is no error. So a second game, or a later run, of the same source starts no child.

Registering a task (what the similarity channel does)::

    door.register(door.Task("similarity.fingerprint", "harness.report.similarity.code:fingerprint",
                            types=(Fingerprints, Span)))
    prints = door.run("similarity.fingerprint", files)   # or run_many(name, [files, ...])

The function runs in the child with the harness's import path; its argument and result are
plain data (:mod:`harness.door.plain`: JSON values, tuples, bytes, dicts with any keys, and
instances of the dataclasses named in ``types``).
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import signal
import subprocess
import sys
import sysconfig
import tempfile
import threading
import time
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from harness.door import plain

HERE = Path(__file__).parent
CHILD = HERE / "child.py"
MEMORY = 1 << 30  # bytes of address space: a bot's own default (Limits.memory_bytes)
CPU = 20  # seconds of CPU time per item (a 1 MiB table takes the parser about 2 s)
OUTPUT = 8 << 20  # bytes of result per item
WALL = 120.0  # seconds of wall-clock time per item at most, however loaded the machine
PARALLEL = 2  # children at once: at most 2 GiB, however many games start together
MEMORY_CACHE = 64 << 20  # bytes of results kept in this process
VERSION = hashlib.sha256(CHILD.read_bytes() + (HERE / "plain.py").read_bytes() + sys.version.encode()
                         + importlib.util.MAGIC_NUMBER).hexdigest()[:16]
CAPS = {"memory": "memory", "cpu": "CPU", "output": "output"}
SETUP_FAILED = 3  # the child's exit code when it failed before its first item (child.py)


@dataclass(frozen=True)
class Task:
    """A pure function the door runs on a submission's bytes, and its caps."""

    name: str
    function: str  # "module:function", importable with the harness's import path
    memory: int = MEMORY
    cpu: int = CPU
    output: int = OUTPUT
    types: tuple[type, ...] = ()  # the dataclasses its result may hold

    def cap(self, which: str) -> str:
        """``memory cap 1 GiB`` and the like."""
        from harness.sandbox.limits import mib  # here: the sandbox package imports this one

        value = {"memory": mib(self.memory), "cpu": f"{self.cpu} s", "output": mib(self.output)}[which]
        return f"{CAPS[which]} cap {value}"


@dataclass(frozen=True)
class Over:
    """An item past one of its task's caps: the submission's own problem."""

    task: str
    cap: str  # "memory", "cpu" or "output"
    limit: str  # "memory cap 1 GiB"

    def line(self, name: str, what: str = "process") -> str:
        """``player.py: too large or complex to compile (memory cap 1 GiB)``."""
        return f"{name}: too large or complex to {what} ({self.limit})"


class Unavailable(Exception):
    """The door could not say (no child, out of wall-clock time, a failure of the task's code)."""


TASKS: dict[str, Task] = {}


def register(task: Task) -> Task:
    """Make ``task`` runnable by name (registering the same task again is harmless)."""
    known = TASKS.get(task.name)
    if known is not None and known != task:
        raise ValueError(f"door task {task.name!r} is already registered as {known.function}")
    TASKS[task.name] = task
    return task


@dataclass
class Stats:
    """What this process's door did (benchmarks and tests read it)."""

    children: int = 0  # child processes started
    items: int = 0  # items run in them
    cpu: float = 0.0  # the children's CPU seconds (user + system), from the kernel
    peak_rss_mb: float = 0.0  # the largest child's peak RSS
    memory_hits: int = 0
    disk_hits: int = 0
    by_task: dict[str, int] = field(default_factory=dict)


stats = Stats()
_memo: OrderedDict[str, tuple[Any, int]] = OrderedDict()  # key -> (result or Over, its size)
_memo_bytes = 0
_guard = threading.Lock()
_locks: dict[str, threading.Lock] = {}
_running = threading.BoundedSemaphore(PARALLEL)
_sources: dict[str, str] = {}  # function module -> SHA-256 of its source


def forget() -> None:
    """Forget what this process's door knows (the disk cache stays): as a new harness process."""
    global _memo_bytes
    with _guard:
        _memo.clear()
        _memo_bytes = 0


def describe() -> str:
    """One line for ``harness doctor``: how the door runs here and where it keeps results."""
    from harness.sandbox import container, privileges
    from harness.sandbox.limits import mib

    who = "a uid of its own" if privileges.is_root() and _drop is not False else "the harness's uid"
    version = container.landlock_abi()
    confined = f"Landlock ABI {version}" if version > 0 else "no Landlock"
    return (f"parsed, compiled and checked in a capped child ({mib(MEMORY)}, {CPU} s of CPU a module, "
            f"{mib(OUTPUT)} of result), as {who}, {confined}; kept in {cache_dir()}")


def cache_dir() -> Path:
    """Where results are kept on disk (the folder may not exist yet)."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "harness" / "door" / VERSION


def _task(name: str) -> Task:
    try:
        return TASKS[name]
    except KeyError:
        raise ValueError(f"no door task {name!r} (known: {', '.join(sorted(TASKS))})") from None


def _function_version(task: Task) -> str:
    """The SHA-256 of the source of the task's function's module (a change starts afresh)."""
    module = task.function.partition(":")[0]
    found = _sources.get(module)
    if found is None:
        spec = importlib.util.find_spec(module)
        origin = spec.origin if spec is not None else None
        found = hashlib.sha256(Path(origin).read_bytes() if origin else module.encode()).hexdigest()
        _sources[module] = found
    return found


def key_of(task: Task, item: Any) -> str:
    """The cache key of ``item`` under ``task``."""
    text, blobs = plain.encode(item)
    h = hashlib.sha256(f"{task.name}\0{task.function}\0{_function_version(task)}\0{task.memory}\0{task.cpu}\0"
                       f"{task.output}\0".encode())
    h.update(len(text).to_bytes(8, "little") + text)
    for blob in blobs:
        h.update(len(blob).to_bytes(8, "little") + blob)
    return h.hexdigest()


def run(name: str, item: Any) -> Any:
    """The task's result on ``item``; :class:`Over` is *returned* (the submission's problem),
    :class:`Unavailable` raised (the harness's)."""
    found = run_many(name, [item])[0]
    if isinstance(found, Unavailable):
        raise found
    return found


def peek(name: str, item: Any) -> tuple[Any] | None:
    """``(result,)`` if the door already knows the task's result on ``item`` (in this process or
    on disk), else None: it starts no child."""
    task = _task(name)
    return _lookup(task, key_of(task, item))


def run_many(name: str, items: Sequence[Any]) -> list[Any]:
    """The task's result on each of ``items``, in order: each a result, an :class:`Over` or an
    :class:`Unavailable` (returned, not raised). Cached items start no child; the rest share one."""
    task = _task(name)
    keys = [key_of(task, item) for item in items]
    results: list[Any] = [None] * len(items)
    todo: dict[str, int] = {}  # key -> the first item with it (the same content twice runs once)
    for i, key in enumerate(keys):
        hit = _lookup(task, key) if key not in todo else None
        if hit is not None:
            results[i] = hit[0]
        else:
            todo.setdefault(key, i)
    if todo:
        locks = [_lock_of(key) for key in sorted(todo)]  # sorted: two batches never wait on each other
        for lock in locks:
            lock.acquire()
        try:
            missing = {}
            for key, i in todo.items():
                hit = _lookup(task, key)  # another thread may have run it meanwhile
                if hit is not None:
                    results[i] = hit[0]
                else:
                    missing[key] = i
            if missing:
                found = _run_children(task, [items[i] for i in missing.values()])
                for (key, i), value in zip(missing.items(), found):
                    results[i] = value.value if isinstance(value, _Raw) else value
                    if not isinstance(value, Unavailable):
                        _keep(task, key, value)
        finally:
            for lock in locks:
                lock.release()
        for i, key in enumerate(keys):
            if todo.get(key, i) != i:
                results[i] = results[todo[key]]
    return results


def _lock_of(key: str) -> threading.Lock:
    with _guard:
        return _locks.setdefault(key, threading.Lock())


def _lookup(task: Task, key: str) -> tuple[Any] | None:
    global _memo_bytes
    with _guard:
        if key in _memo:
            _memo.move_to_end(key)
            stats.memory_hits += 1
            return (_memo[key][0],)
    found = _load(task, key)
    if found is None:
        return None
    stats.disk_hits += 1
    _remember(key, found[0], found[1])
    return (found[0],)


def _remember(key: str, value: Any, size: int) -> None:
    global _memo_bytes
    with _guard:
        if key in _memo:
            return
        _memo[key] = (value, size)
        _memo_bytes += size
        while _memo_bytes > MEMORY_CACHE and len(_memo) > 1:
            _memo_bytes -= _memo.popitem(last=False)[1][1]


def _entry(task: Task, key: str) -> Path:
    return cache_dir() / task.name / f"{key}.json"


def blob_path(data: bytes) -> Path:
    """Where the door keeps ``data`` on disk if a result held it (it may not exist)."""
    return cache_dir() / "blobs" / hashlib.sha256(data).hexdigest()


def _load(task: Task, key: str) -> tuple[Any, int] | None:
    try:
        raw = json.loads(_entry(task, key).read_bytes())
        if raw.get("over") in CAPS:
            return Over(task.name, raw["over"], task.cap(raw["over"])), 0
        blobs = []
        for digest in raw["blobs"]:
            data = (cache_dir() / "blobs" / str(digest)).read_bytes()
            if hashlib.sha256(data).hexdigest() != digest:
                return None
            blobs.append(data)
        text = raw["text"].encode()
        return plain.decode(text, blobs, {plain.type_name(t): t for t in task.types}), \
            len(text) + sum(map(len, blobs))
    except (OSError, ValueError, TypeError, KeyError, AttributeError):
        return None


@dataclass(frozen=True)
class _Raw:
    """A child's result, decoded, with the text and blobs it came as (kept as they are)."""

    value: Any
    text: bytes
    blobs: list[bytes]


def _keep(task: Task, key: str, value: Any) -> None:
    """Keep ``value`` (an :class:`Over` or a :class:`_Raw`) in this process and on disk (where the
    disk allows)."""
    if isinstance(value, Over):
        _remember(key, value, 0)
        _write(_entry(task, key), json.dumps({"over": value.cap}).encode())
        return
    text, blobs, value = value.text, value.blobs, value.value
    _remember(key, value, len(text) + sum(map(len, blobs)))
    digests = []
    for blob in blobs:
        path = blob_path(blob)
        digests.append(path.name)
        if not path.exists() and not _write(path, blob, mode=0o444):
            return
    _write(_entry(task, key), json.dumps({"text": text.decode(), "blobs": digests}).encode())


def _write(path: Path, data: bytes, mode: int = 0o644) -> bool:
    try:
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o755)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name[:16]}.", suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(data)
            os.chmod(tmp, mode)
            os.replace(tmp, path)
        except BaseException:
            os.unlink(tmp)
            raise
        return True
    except OSError:
        return False  # a cache that cannot be written: this process keeps it in memory


def _python() -> str:
    """The child's interpreter: the one bots run on (:mod:`harness.sandbox.interpreter`), which
    every uid can read where there is one (``/usr/bin/python3.X``) and compiles the bytecode bots
    run; the harness's own where the rule picks that. A harness on an interpreter only its own
    user can read (pyenv's under ``/root``) left the child no uid but root's."""
    from harness.sandbox import interpreter  # here: the sandbox package imports this one

    try:
        return interpreter.chosen()
    except Exception:  # noqa: BLE001 - a job's interpreter that went away: the harness's own still runs
        return sys.executable


def _import_path() -> list[str]:
    """The harness's own import path, for the child (which runs with ``-I -S``): its package and
    installed packages, without the harness interpreter's standard library (the child's
    interpreter has its own, which comes first)."""
    root = str(HERE.parents[1])
    paths = sysconfig.get_paths()
    own = {os.path.realpath(paths[k]) for k in ("stdlib", "platstdlib") if k in paths}
    packages = {os.path.realpath(paths[k]) for k in ("purelib", "platlib") if k in paths}

    def stdlib(path: str) -> bool:
        real = os.path.realpath(path)
        if any(real == p or real.startswith(p + os.sep) for p in packages):
            return False
        return any(real == p or real.startswith(p + os.sep) for p in own)

    return [root, *(p for p in sys.path if p and os.path.isabs(p) and os.path.isdir(p) and p != root and not stdlib(p))]


LIBRARIES = ("/lib", "/lib64", "/usr/lib", "/usr/lib64", "/etc/ld.so.cache")  # for an extension's dlopen


def _landlock() -> dict[str, Any] | None:
    """What the child needs to confine itself with Landlock (None where the kernel has none)."""
    from harness.sandbox import container
    from harness.sandbox.bot import landlock

    version = container.landlock_abi()
    if version <= 0:
        return None
    return {"abi": version, "module": landlock.__file__, "read": [*LIBRARIES, "/dev/null", "/proc/self"]}


def _run_children(task: Task, items: list[Any]) -> list[Any]:
    """Run ``items`` in as many children as it takes: one, unless one of them ends a child."""
    results: list[Any] = []
    while len(results) < len(items):
        results += _child(task, items[len(results):])
    return results


_drop: bool | None = None  # whether a uid of its own can run the child here (None: not tried yet)


def _child(task: Task, items: list[Any]) -> list[Any]:
    """Start one child on ``items``: the results of those it finished (at least one)."""
    global _drop
    from harness.sandbox import privileges  # here: the sandbox package imports this one

    text, blobs = plain.encode({"path": _import_path(), "function": task.function, "output": task.output,
                                "items": items, "landlock": _landlock()})
    request = json.dumps({"text": len(text), "blobs": [len(b) for b in blobs]}).encode() + b"\n" + text + b"".join(blobs)
    # As root, the child runs as a uid of its own: it can signal, trace or write nothing of ours.
    # Where that uid cannot read the interpreter or the harness (a checkout in a private folder),
    # the child runs as the harness's uid, still under its caps and Landlock.
    tried = privileges.is_root() and _drop is not False
    if tried:
        uid = privileges.pick_uid()
        outcome = _start(task, items, request, {"user": uid, "group": uid, "extra_groups": []})
        if outcome is not None:
            _drop = True
            return outcome
    outcome = _start(task, items, request, {})
    if outcome is None:  # not the uid's fault: the harness's own trouble (a cap too small to start)
        return [Unavailable(f"the door's child failed (exit code {SETUP_FAILED})")] * len(items)
    if tried:
        _drop = False  # the harness's uid could, a uid of its own could not: keep to the one that can
    return outcome


def _start(task: Task, items: list[Any], request: bytes, as_user: dict[str, Any]) -> list[Any] | None:
    """One child on ``items``; None if it could not start or set itself up as ``as_user``."""
    argv = [_python(), "-I", "-S", "-B", str(CHILD), str(task.memory), str(task.cpu), str(len(items))]
    deadline = time.monotonic() + WALL * len(items)
    with _running:
        stats.children += 1
        stats.by_task[task.name] = stats.by_task.get(task.name, 0) + 1
        try:
            proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                    env={"LC_ALL": "C.UTF-8"}, cwd="/", close_fds=True, start_new_session=True,
                                    **as_user)
        except OSError as exc:
            if as_user:
                return None
            return [Unavailable(f"the door's child could not start ({exc})")] * len(items)
        found: list[Any] = []
        timed_out = False
        try:
            found, timed_out = _talk(task, proc, request, len(items), deadline)
        finally:
            if len(found) < len(items):
                _kill(proc)
            _, status, usage = os.wait4(proc.pid, 0)  # reaped here (never by Popen) for its rusage
            proc.returncode = os.waitstatus_to_exitcode(status)
            assert proc.stdout is not None
            proc.stdout.close()
            stats.cpu += usage.ru_utime + usage.ru_stime
            stats.peak_rss_mb = max(stats.peak_rss_mb, usage.ru_maxrss / 1024)
    if not found and proc.returncode == SETUP_FAILED:
        return None
    stats.items += len(found)
    if len(found) == len(items):
        return found
    if timed_out:
        return [*found, Unavailable("the door's child ran out of wall-clock time (the machine is too loaded)")]
    code = proc.returncode
    if code in (-signal.SIGXCPU, -signal.SIGKILL):
        cap = "cpu"
    elif code < 0 or code == 1:  # killed by another signal, or a MemoryError past the item's own handler
        cap = "memory"  # (trouble of the child's own before the first item is exit code 3)
    else:
        return [*found, *[Unavailable(f"the door's child failed (exit code {code})")] * (len(items) - len(found))]
    return [*found, Over(task.name, cap, task.cap(cap))]


def _kill(proc: subprocess.Popen[bytes]) -> None:
    """SIGKILL the child, not yet reaped (``Popen.kill`` would reap it, losing its rusage); a
    zombie's pid is still its own, never another process's."""
    try:
        os.kill(proc.pid, signal.SIGKILL)
    except OSError:
        pass


def _talk(task: Task, proc: subprocess.Popen[bytes], request: bytes, count: int,
          deadline: float) -> tuple[list[Any], bool]:
    """Send the request, read the items' results as they come: (results, out of wall-clock time)."""
    assert proc.stdin is not None and proc.stdout is not None

    def send() -> None:
        try:
            proc.stdin.write(request)  # type: ignore[union-attr]
        except OSError:
            pass  # the child died early: its status says why
        finally:
            try:
                proc.stdin.close()  # type: ignore[union-attr]
            except OSError:
                pass
    writer = threading.Thread(target=send, daemon=True)
    writer.start()
    timer = threading.Timer(max(0.0, deadline - time.monotonic()), _kill, (proc,))
    timer.start()
    types = {plain.type_name(t): t for t in task.types}
    found: list[Any] = []
    try:
        stdout = proc.stdout
        while len(found) < count:
            head = stdout.readline(4096)
            if not head.endswith(b"\n"):
                break
            try:
                meta = json.loads(head)
                sizes = [int(meta["text"]), *map(int, meta["blobs"])]
                if meta["i"] != len(found) or min(sizes) < 0 or sum(sizes) > task.output:
                    break
            except (ValueError, TypeError, KeyError):
                break
            body = [stdout.read(n) for n in sizes]
            if any(len(b) != n for b, n in zip(body, sizes)):
                break
            if meta["over"] in CAPS:
                found.append(Over(task.name, meta["over"], task.cap(meta["over"])))
            elif meta["error"] is not None:
                found.append(Unavailable(f"{task.name}: {str(meta['error'])[:300]}"))
            else:
                try:
                    found.append(_Raw(plain.decode(body[0], body[1:], types), body[0], body[1:]))
                except plain.Malformed as exc:
                    found.append(Unavailable(f"{task.name}: a malformed result ({exc})"))
        return found, not timer.is_alive() and len(found) < count
    finally:
        timer.cancel()
        writer.join(timeout=5)


__all__ = ["CPU", "MEMORY", "OUTPUT", "Over", "Stats", "TASKS", "Task", "Unavailable", "blob_path", "cache_dir", "describe", "forget",
           "key_of", "peek", "register", "run", "run_many", "stats"]
