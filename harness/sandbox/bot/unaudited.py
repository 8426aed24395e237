"""The guard's refusals of calls that raise no audit event: wrappers put in place of the calls.

Shipped to the bot's process as ``_harness_unaudited`` (standard library only, and only modules
every process has loaded) and installed by :meth:`guard.Guard.install`, which judges everything
that *is* audited. Each wrapper asks the guard (:class:`Judge`: its ``armed`` flag, its judges and
:meth:`refuse`) and calls the original, which lives only in the wrapper's closure:

* process creation: ``_posixsubprocess.fork_exec`` is replaced by a refusal;
* threads beyond the cap (``_thread.start_new_thread``, which ``threading`` uses);
* in ``os`` and ``posix``: ``open`` with a ``dir_fd`` (its audit event names the path but not the
  descriptor: the call is made with the path the descriptor stands for), ``mkfifo`` and
  ``mknod``, scheduler and priority changes (``sched_setscheduler``, ``sched_setparam``,
  ``setpriority``/``nice`` upwards, another process's ``sched_setaffinity``), ``readlink`` of
  another process's ``/proc`` entries and ``pidfd_open`` of another process;
* ``signal.pidfd_send_signal`` to any process but the bot's own;
* a fresh copy of a built-in module (``_imp.create_builtin``) that would bring the originals back.
"""

from __future__ import annotations

import _thread
import os
import sys

TYPE_CHECKING = False  # typing and collections.abc would cost milliseconds of every bot's start
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable
    from typing import Any, Protocol

    class Judge(Protocol):
        """What the wrappers need of the guard (:class:`guard.Guard`)."""

        armed: bool
        own_pid: int
        max_threads: int

        def refuse(self, what: str) -> None: ...
        def judging(self, judge: Callable[..., Any], *args: Any) -> Any: ...
        def _paths(self, event: str, args: tuple[Any, ...], indexes: tuple[int, ...]) -> str | None: ...
        def _mknod(self, args: tuple[Any, ...]) -> str | None: ...
        def _other_proc(self, value: Any, dir_fd: Any = None) -> str | None: ...


def install(guard: Judge, builtins_refused: Iterable[str]) -> None:
    """Put every wrapper in place; ``builtins_refused`` names the built-in modules of which a
    fresh copy is refused besides ``posix``, ``os`` and ``_signal``."""
    wrap_process_and_threads(guard)
    wrap_os(guard, ("posix", "os", "_signal", *builtins_refused))
    wrap_pidfd_send_signal(guard)


def wrap_os(guard: Judge, builtins_refused: tuple[str, ...]) -> None:
    """Wrap what raises no audit event (or one without its ``dir_fd``), in ``os`` and ``posix``.

    The bot gets no way back to the originals: they live only in these closures, and a
    fresh ``posix`` module (``_imp.create_builtin``) is refused.
    """
    try:
        import _imp
        import posix
    except ImportError:  # pragma: no cover - not POSIX: none of these calls exist
        return

    wrapped: dict[str, Callable[..., Any]] = {}
    original_open = posix.open

    def open_(path: Any, flags: int, mode: int = 0o777, *, dir_fd: int | None = None) -> int:
        # The audit event of os.open names the path but not dir_fd: the call made is the one
        # judged, with the path the descriptor stands for.
        if dir_fd is not None and guard.armed:
            name = os.fsdecode(path)
            if not os.path.isabs(name):
                path = os.path.join(fd_path(dir_fd), name)
            return original_open(path, flags, mode)
        return original_open(path, flags, mode, dir_fd=dir_fd)

    wrapped["open"] = open_

    def refusing(name: str, judge: Callable[..., str | None]) -> None:
        original = getattr(posix, name, None)
        if original is None:
            return

        def call(*args: Any, **kwargs: Any) -> Any:
            if guard.armed:
                what = judge(*args, **kwargs)
                if what is not None:
                    guard.refuse(what)
            return original(*args, **kwargs)

        call.__name__ = call.__qualname__ = name
        wrapped[name] = call

    def other(pid: Any) -> bool:
        return pid not in (0, guard.own_pid, os.getpid())

    # os.mkfifo and os.mknod raise no audit event (Python 3.11).
    refusing("mkfifo", lambda path, mode=0o666, *, dir_fd=None: guard._paths("os.mkfifo", (path, mode, dir_fd), (0,)))
    refusing("mknod", lambda path, mode=0o600, device=0, *, dir_fd=None: guard._mknod((path, mode, device, dir_fd)))
    refusing("sched_setscheduler", lambda pid, policy, *a, **k: f"changing the scheduler "
             f"(os.sched_setscheduler({pid}, {policy}, ...))")
    refusing("sched_setparam", lambda pid, *a, **k: f"changing the scheduler (os.sched_setparam({pid}, ...))")
    refusing("setpriority", lambda which, who, prio, *a, **k: f"changing a priority (os.setpriority({which}, "
             f"{who}, {prio}))" if prio < 0 or which != os.PRIO_PROCESS or other(who) else None)
    refusing("nice", lambda inc, *a, **k: f"raising its priority (os.nice({inc}))" if inc < 0 else None)
    # os.readlink raises no audit event: another process's /proc links (cwd, root, exe, fd/N)
    # name its folders and files. (Its judge's own os.path.realpath calls are not judged.)
    refusing("readlink", lambda path, *, dir_fd=None: guard.judging(guard._other_proc, path, dir_fd))
    # os.pidfd_open and signal.pidfd_send_signal raise no audit event (Python 3.11).
    refusing("pidfd_open", lambda pid, *a, **k: f"signalling another process (os.pidfd_open({pid}))"
             if other(pid) else None)
    refusing("sched_setaffinity", lambda pid, mask, *a, **k: f"changing another process's CPUs "
             f"(os.sched_setaffinity({pid}, ...))" if other(pid) else None)
    for module in (os, posix):
        for name, function in wrapped.items():
            setattr(module, name, function)

    create_builtin = _imp.create_builtin

    def create(spec: Any) -> Any:
        name = getattr(spec, "name", "")
        if guard.armed and name in builtins_refused:
            guard.refuse(f"a fresh copy of the built-in module {name!r}")
        return create_builtin(spec)

    _imp.create_builtin = create


def wrap_pidfd_send_signal(guard: Judge) -> None:
    """Refuse ``signal.pidfd_send_signal`` to any process but the bot's own.

    A pidfd (or a descriptor of a ``/proc/<pid>`` folder, which the call takes too) names
    its process in ``/proc/self/fdinfo``; one that names none is refused.
    """
    try:
        import _signal
    except ImportError:  # pragma: no cover - not POSIX
        return
    original = getattr(_signal, "pidfd_send_signal", None)
    if original is None:
        return

    def pidfd_send_signal(pidfd: int, sig: int, *args: Any, **kwargs: Any) -> Any:
        if guard.armed and guard.judging(pidfd_pid, pidfd) not in (guard.own_pid, os.getpid()):
            guard.refuse(f"signalling another process (signal.pidfd_send_signal({pidfd}, {sig}))")
        return original(pidfd, sig, *args, **kwargs)

    for module in (_signal, sys.modules.get("signal")):
        if module is not None:
            module.pidfd_send_signal = pidfd_send_signal  # type: ignore[attr-defined]


def wrap_process_and_threads(guard: Judge) -> None:
    """Replace ``_posixsubprocess.fork_exec`` by a refusal and cap ``_thread.start_new_thread``."""
    try:
        import _posixsubprocess
    except ImportError:  # pragma: no cover - Windows
        _posixsubprocess = None
    if _posixsubprocess is not None:
        def fork_exec(*args: Any, **kwargs: Any) -> Any:
            guard.refuse("_posixsubprocess.fork_exec")
        _posixsubprocess.fork_exec = fork_exec  # type: ignore[attr-defined]

    original = _thread.start_new_thread

    def start_new_thread(function: Any, args: Any, kwargs: Any = None) -> int:
        # Every thread counts, whichever thread starts it: bot code can end up on the worker's
        # main thread too (a gc callback, a finalizer), and the worker starts none once armed.
        if guard.armed and _thread._count() >= guard.max_threads:
            guard.refuse(f"starting more than {guard.max_threads - 1} threads")
        return original(function, args, kwargs or {})

    _thread.start_new_thread = start_new_thread  # type: ignore[assignment]
    _thread.start_new = start_new_thread  # type: ignore[attr-defined]
    # threading binds _thread.start_new_thread when it is imported: a bot's process imports
    # it later (if ever) and gets this one; where it was imported before, it is told here.
    threading = sys.modules.get("threading")
    if threading is not None:
        threading._start_new_thread = start_new_thread  # type: ignore[attr-defined]


def pidfd_pid(fd: Any) -> int | None:
    """The process a pidfd (or a ``/proc/<pid>`` folder's descriptor) stands for, if it names one."""
    try:
        with open(f"/proc/self/fdinfo/{int(fd)}", "rb") as info:
            for line in info.read(4096).splitlines():
                if line.startswith(b"Pid:"):
                    return int(line.split()[1])
        target = os.readlink(f"/proc/self/fd/{int(fd)}")
    except (OSError, ValueError, IndexError, TypeError):
        return None
    parts = target.split("/")
    return int(parts[2]) if len(parts) == 3 and parts[1] == "proc" and parts[2].isdigit() else None


def fd_path(fd: int) -> str:
    """The path of the open directory ``fd`` (Linux: from /proc; elsewhere ``dir_fd`` is refused)."""
    try:
        return os.readlink(f"/proc/self/fd/{int(fd)}")
    except OSError:
        raise OSError(9, "Bad file descriptor (or a dir_fd the sandbox cannot place)") from None


__all__ = ["fd_path", "install", "pidfd_pid"]
