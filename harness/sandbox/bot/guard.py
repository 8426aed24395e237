"""The bot-side policy: an audit hook that refuses what a bot may not do, with a clear verdict.

Imported by the worker as ``_harness_guard`` (standard library only). Once :meth:`Guard.arm` has run (just
before the bot's module is imported), every audited action of the process is judged, in every
thread, for the rest of its life, and so are the calls that raise no audit event, through the
wrappers of :mod:`unaudited` (``_harness_unaudited``) that :meth:`Guard.install` puts in place:

* process creation (``os.fork``, ``os.exec*``, ``os.system``, ``subprocess``, ``pty``,
  ``os.posix_spawn``; ``_posixsubprocess.fork_exec`` is replaced by a refusal) and
  ``ctypes`` (which could do any of it behind the hook's back);
* the game's forbidden imports, at run time too (``importlib.import_module("x" + "y")``);
  forbidden modules the worker itself had loaded are dropped from ``sys.modules`` first,
  so importing them again is seen;
* files: reading outside the bot's code, working directory, bot API and the standard
  library, and writing anywhere but the working directory (``open``, ``os.open``, listing
  folders, renaming, linking, deleting ...);
* the network: any socket that would call ``socket(2)`` (a unix socket too), any
  ``connect``/``bind``/``sendto`` and name lookups; a unix socket that wraps a descriptor it
  already has (``socket.socketpair``, ``socket.fromfd``, ``socket.socket(fileno=...)``) is
  allowed (see :meth:`Guard._socket`);
* signalling any process but itself (``os.kill``, ``os.killpg``), raising its own
  resource limits, ``gc.get_objects``-style introspection, and replacing attributes of the
  harness's own classes and functions;
* paths relative to a directory descriptor (``os.open(..., dir_fd=...)``, ``os.mkdir``,
  ``os.rename`` ... with ``dir_fd``): judged where they really point, not from the working
  directory; POSIX shared memory (``_posixshmem``: ``shm_open``); scheduler and priority
  changes (``sched_setscheduler``, ``sched_setparam``, ``setpriority``/``nice`` upwards,
  another process's CPU affinity), which root could otherwise use to starve the opponent;
* more threads than the cap (``threading`` and ``_thread``);
* signals by other routes (``os.pidfd_open`` of another process, ``signal.pidfd_send_signal``
  to anything but itself: no audit event, so wrapped), asking for SIGIO (``fcntl.fcntl`` with
  ``F_SETOWN``/``F_SETOWN_EX``/``F_SETSIG``, or ``O_ASYNC``), every ``fcntl.ioctl`` but
  :data:`IOCTLS_ALLOWED`, and another process's ``/proc/<pid>`` entries (``os.readlink``
  raises no audit event: wrapped).

A refused action raises :class:`Forbidden` inside the bot *and* is recorded, so the call ends
with the verdict ``forbidden`` even if the bot catches the exception.

This layer is not the security boundary (a determined bot can subvert code that shares its
process): bubblewrap's namespaces and the cgroup caps are. It exists so that the same
attempt gets the same clear verdict with or without bubblewrap, on a laptop too.
"""

from __future__ import annotations

import _thread
import os
import stat
import sys

TYPE_CHECKING = False  # typing and collections.abc would cost milliseconds of every bot's start
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable
    from typing import Any
if TYPE_CHECKING or __name__ != "_harness_guard":  # imported by the harness itself (tests, tools)
    from harness.sandbox.bot import unaudited
else:  # a bot's process: beside it in the worker's folder
    import _harness_unaudited as unaudited

# Audit events that start a process, and how a verdict names them.
PROCESS_EVENTS = {
    "os.fork": "os.fork", "os.forkpty": "os.forkpty", "os.system": "os.system",
    "os.exec": "os.exec*", "os.posix_spawn": "os.posix_spawn", "os.spawn": "os.spawn*",
    "subprocess.Popen": "subprocess.Popen", "pty.spawn": "pty.spawn",
}
# Modules whose import is refused whatever the game says: they reach around the hook.
ALWAYS_FORBIDDEN = frozenset({"ctypes", "_ctypes", "_posixsubprocess", "_posixshmem"})
NETWORK_EVENTS = frozenset({"socket.connect", "socket.bind", "socket.sendto", "socket.sendmsg",
                            "socket.getaddrinfo", "socket.gethostbyname", "socket.gethostbyaddr",
                            "socket.gethostbyname_ex", "socket.getnameinfo"})
CTYPES_EVENTS = frozenset({"ctypes.dlopen", "ctypes.dlsym", "ctypes.dlsym/handle", "ctypes.cdata",
                           "ctypes.cdata/buffer", "ctypes.string_at", "ctypes.wstring_at"})
INTROSPECTION_EVENTS = frozenset({"gc.get_objects", "gc.get_referrers", "gc.get_referents"})
# Events whose arguments are paths that must lie in the writable directory: index of each path.
WRITE_PATH_EVENTS = {"os.mkdir": (0,), "os.rmdir": (0,), "os.remove": (0,), "os.rename": (0, 1),
                     "os.link": (0, 1), "os.symlink": (1,), "os.truncate": (0,), "os.chmod": (0,),
                     "os.chown": (0,), "os.utime": (0,), "os.chflags": (0,), "os.lchflags": (0,),
                     "os.lchmod": (0,), "os.lchown": (0,), "os.setxattr": (0,), "os.removexattr": (0,),
                     "os.mkfifo": (0,), "os.mknod": (0,)}
READ_PATH_EVENTS = {"os.listdir": 0, "os.scandir": 0, "os.listxattr": 0, "os.getxattr": 0}
# Where an event's arguments carry the directory descriptor of each path: event -> {path index:
# dir_fd index} (-1 there means none). ``open`` carries none: os.open is wrapped instead.
DIR_FD_ARGS = {"os.mkdir": {0: 2}, "os.rmdir": {0: 1}, "os.remove": {0: 1}, "os.rename": {0: 2, 1: 3},
               "os.link": {0: 2, 1: 3}, "os.symlink": {1: 2}, "os.chmod": {0: 2}, "os.chown": {0: 3},
               "os.utime": {0: 3}, "os.mkfifo": {0: 2}, "os.mknod": {0: 3}}
# Where the harness's own code lives in the bot's process: its classes must not be rewritten.
HARNESS_MODULES = ("__main__", "_harness_wire", "_harness_guard", "_harness_unaudited", "_harness_botenv",
                   "_harness_deadline", "_harness_construct")
WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND
DEVICES_READ = ("/dev/null", "/dev/zero", "/dev/urandom", "/dev/random", "/dev/full")
DEVICES_WRITE = ("/dev/null",)
# fcntl commands that make the kernel signal a process chosen by the caller (SIGIO or another).
FCNTL_SIGNAL = {8: "F_SETOWN", 15: "F_SETOWN_EX", 10: "F_SETSIG"}
F_SETFL = 4
O_ASYNC = getattr(os, "O_ASYNC", 0o20000)
# The ioctls a bot may make: they only read (bytes waiting on a descriptor, the terminal's size,
# a file's attribute flags). Everything else is refused: FS_IOC_SETFLAGS (immutable files),
# FIOASYNC/FIOSETOWN/SIOCSPGRP (SIGIO), TIOCSTI (typing into a terminal) ...
IOCTLS_ALLOWED = {0x541B: "FIONREAD", 0x5413: "TIOCGWINSZ", 0x80086601: "FS_IOC_GETFLAGS"}
_HERE_FILE = os.path.abspath(__file__)
# The guard's own files: a refused call's traceback runs through them, and printing it reads them.
_GUARD_FILES = (_HERE_FILE, os.path.abspath(unaudited.__file__))
_IMPORTLIB_DIR = os.path.dirname(os.path.abspath(os.__file__)) + os.sep + "importlib" + os.sep
_SOCKET_PY = os.path.join(os.path.dirname(os.path.abspath(os.__file__)), "socket.py")


class Forbidden(RuntimeError):
    """Raised inside the bot when it does something the sandbox refuses."""


def _norm(roots: Iterable[str]) -> tuple[str, ...]:
    return tuple(sorted({os.path.realpath(r) for r in roots if r}))


def _inside(path: str, roots: tuple[str, ...]) -> bool:
    return any(path == r or path.startswith(r.rstrip(os.sep) + os.sep) for r in roots)


_CODE = type(_inside.__code__)  # types.CodeType, without importing types


class Guard:
    """The policy of one bot process. Create, :meth:`install` early, :meth:`arm` before bot code."""

    def __init__(self) -> None:
        self.armed = False
        self.player_path = ""
        self.bot_dir = ""  # the folder of the bot's own files (player.py and its modules)
        self.read_roots: tuple[str, ...] = ()
        self.write_roots: tuple[str, ...] = ()
        self.library_roots: tuple[str, ...] = ()  # the standard library: where module files live
        self.package_roots: tuple[str, ...] = ()  # the installed packages the bot may import
        self.forbidden_imports: frozenset[str] = frozenset()
        self.max_threads = 1 << 30
        self.violation: str | None = None  # the first refusal not yet reported
        self.own_pid = os.getpid()
        self._handlers: dict[str, Callable[[tuple[Any, ...]], str | None]] = {}
        self._judging: set[int] = set()  # threads in a judge of the guard's own: their calls are not judged
        # The code of the standard library's socket.socket.__init__, the one frame whose
        # ``fileno`` says that a socket wraps a descriptor (see _socket); found when the real
        # socket.py runs (importing it here would cost every bot's start about 5 ms).
        self.socket_init: Any = None

    # ---- set-up ---------------------------------------------------------------------------
    def install(self) -> None:
        """Register the audit hook (inactive until :meth:`arm`) and the wrappers of calls that
        raise no audit event (:mod:`unaudited`)."""
        handlers: dict[str, Callable[[tuple[Any, ...]], str | None]] = {}
        for event, name in PROCESS_EVENTS.items():
            handlers[event] = lambda args, name=name: name
        for event in CTYPES_EVENTS:
            handlers[event] = lambda args, event=event: f"ctypes ({event})"
        for event in NETWORK_EVENTS:
            handlers[event] = lambda args, event=event: f"network access ({event})"
        for event in INTROSPECTION_EVENTS:
            handlers[event] = lambda args, event=event: f"inspecting the process's objects ({event})"
        for event, indexes in WRITE_PATH_EVENTS.items():
            handlers[event] = lambda args, event=event, indexes=indexes: self._paths(event, args, indexes)
        for event, index in READ_PATH_EVENTS.items():
            handlers[event] = lambda args, event=event, index=index: self._read(event, args, index)
        handlers["open"] = self._open
        handlers["import"] = self._import
        handlers["socket.__new__"] = self._socket
        handlers["exec"] = self._exec
        handlers["os.kill"] = self._kill
        handlers["os.killpg"] = lambda args: f"signalling a process group (os.killpg({args[0]}, ...))"
        handlers["resource.setrlimit"] = lambda args: "changing the sandbox's limits (resource.setrlimit)"
        handlers["resource.prlimit"] = lambda args: "changing the sandbox's limits (resource.prlimit)"
        handlers["object.__setattr__"] = self._setattr
        handlers["fcntl.fcntl"] = _fcntl
        handlers["fcntl.ioctl"] = _ioctl
        self._handlers = handlers
        sys.addaudithook(self._hook)
        unaudited.install(self, ALWAYS_FORBIDDEN)

    def arm(self, *, player_path: str, read_roots: Iterable[str], write_roots: Iterable[str],
            forbidden_imports: Iterable[str], max_threads: int, library_roots: Iterable[str] = (),
            bot_dir: str = "", package_roots: Iterable[str] = ()) -> None:
        """Start judging. ``max_threads`` counts threads besides the main thread (the bot's).

        ``library_roots`` (the standard library) and ``package_roots`` (approved packages) hold
        the code that may import what it needs (see :meth:`forbidden_import`).
        """
        self.player_path = player_path
        self.bot_dir = bot_dir or os.path.dirname(player_path)
        self.read_roots = _norm([*read_roots, *write_roots, *DEVICES_READ])
        self.library_roots = _norm(library_roots)
        self.package_roots = _norm(package_roots)
        self.write_roots = _norm([*write_roots, *DEVICES_WRITE])
        self.forbidden_imports = frozenset(forbidden_imports)
        self.max_threads = max_threads
        refused = self.forbidden_imports | ALWAYS_FORBIDDEN
        for name in list(sys.modules):  # the worker keeps its own references to what it uses
            if name.partition(".")[0] in refused and name != "_posixsubprocess":
                del sys.modules[name]
        sys.meta_path.insert(0, _ImportPolicy(self))  # importlib.import_module raises no "import" event
        module = sys.modules.get("socket")  # imported before any bot code ran: the real one
        if module is not None and self.socket_init is None:
            self.socket_init = getattr(getattr(getattr(module, "socket", None), "__init__", None), "__code__", None)
            self._handlers.pop("exec", None)
        self.armed = True

    def judging(self, judge: Callable[..., Any], *args: Any) -> Any:
        """``judge(*args)``, whose own file reads and links are not judged (it runs once per thread)."""
        me = _thread.get_ident()
        if me in self._judging:
            return None
        self._judging.add(me)
        try:
            return judge(*args)
        finally:
            self._judging.discard(me)

    def take_violation(self) -> str | None:
        """The first refusal since the last call of this method, if any."""
        found, self.violation = self.violation, None
        return found

    # ---- the hook -------------------------------------------------------------------------
    def _hook(self, event: str, args: tuple[Any, ...]) -> None:
        if not self.armed or (self._judging and _thread.get_ident() in self._judging):
            return
        handler = self._handlers.get(event)
        if handler is None:
            return
        what = handler(args)
        if what is not None:
            self.refuse(what)

    def refuse(self, what: str) -> None:
        """Record the refusal of ``what`` and raise :class:`Forbidden` in the caller."""
        if self.violation is None:
            self.violation = f"{what} is not allowed{self.where_now()}"
        raise Forbidden(f"the sandbox refuses {what}")

    def is_bot_file(self, filename: str) -> bool:
        """True for a file of the bot's own (player.py and the modules beside it)."""
        return filename == self.player_path or (bool(self.bot_dir) and filename.startswith(self.bot_dir + os.sep))

    def where_now(self) -> str:
        """Where in the bot's own files the current action comes from, if it does."""
        frame = sys._getframe(1)
        while frame is not None:
            if self.is_bot_file(frame.f_code.co_filename):
                name = os.path.basename(frame.f_code.co_filename)
                line = frame.f_lineno or frame.f_code.co_firstlineno  # 3.11 can give None: never "line None"
                return f" ({name} line {line} in {frame.f_code.co_name})"
            frame = frame.f_back  # type: ignore[assignment]
        return ""

    def importer_frame(self) -> Any:
        """The frame that asked for the import under way: the first that is not the import
        machinery (importlib) or this guard; ``None`` if there is none."""
        frame = sys._getframe(1)
        while frame is not None:
            name = frame.f_code.co_filename
            if not (name.startswith("<frozen") or name == _HERE_FILE or name.startswith(_IMPORTLIB_DIR)):
                return frame
            frame = frame.f_back  # type: ignore[assignment]
        return None

    def forbidden_import(self, top: str) -> str | None:
        """Judge an import of ``top``, one of the game's forbidden modules, by who asks for it.

        The game's rule is about the bot's own imports. A library the bot may import (the
        standard library, an approved package) may import what it needs while it is itself
        imported: ``pathlib`` imports ``stat`` at its top, and a Quoridor bot may use
        ``pathlib``. A library asking for it later (``pkgutil.resolve_name``, ``pickle``, a
        lazy import) just finds it missing, so no library is a way round the rule. Anything
        else (the bot's files, code it compiled itself) gets the verdict (returned reason).
        """
        frame = self.importer_frame()
        filename = frame.f_code.co_filename if frame is not None else ""
        if filename and not self.is_bot_file(filename) and _inside(filename, (*self.library_roots,
                                                                              *self.package_roots)):
            if frame is not None and _initializing_module(frame):
                return None
            raise ModuleNotFoundError(f"No module named {top!r}", name=top)
        return f"import of {top!r} (the game's import policy forbids it)"

    def importer_is_bot(self) -> bool:
        """True if the import under way was asked for by the bot's own code, not by a library.

        The importer is the first frame that is not the import machinery (importlib) or this
        guard. A library (the standard library, an approved package) that tries a module the
        sandbox never grants just finds it missing, as on a machine without it (numpy's
        optional ``import ctypes``); the bot asking for it directly is a verdict.
        """
        frame = sys._getframe(1)
        machinery = (_HERE_FILE, _IMPORTLIB_DIR)
        while frame is not None:
            name = frame.f_code.co_filename
            if not (name.startswith("<frozen") or name == machinery[0] or name.startswith(machinery[1])):
                return self.is_bot_file(name)
            frame = frame.f_back  # type: ignore[assignment]
        return True

    def refuse_import(self, name: str, what: str) -> None:
        """Refuse an import: a verdict if the bot asked for it, a plain missing module otherwise."""
        if self.importer_is_bot():
            self.refuse(what)
        raise ModuleNotFoundError(f"No module named {name!r}", name=name)

    # ---- judges -------------------------------------------------------------------------
    def _path(self, value: Any, dir_fd: Any = None) -> str | None:
        """The real path ``value`` names (relative to the directory ``dir_fd`` if one is given)."""
        if isinstance(value, int) or value is None:
            return None  # an open descriptor: it was judged when it was opened
        try:
            path = os.fsdecode(value)
            if isinstance(dir_fd, int) and dir_fd >= 0 and not os.path.isabs(path):
                path = os.path.join(unaudited.fd_path(dir_fd), path)
            return os.path.realpath(path)
        except (TypeError, ValueError, OSError):
            return "?"

    def _open(self, args: tuple[Any, ...]) -> str | None:
        # (another process's /proc entries: outside every root, refused below with their path)
        path = self._path(args[0])
        if path is None:
            return None
        mode = args[1] if len(args) > 1 else None
        flags = args[2] if len(args) > 2 and isinstance(args[2], int) else 0
        writing = (isinstance(mode, str) and any(c in mode for c in "wax+")) or bool(flags & WRITE_FLAGS)
        if writing and not _inside(path, self.write_roots):
            return f"writing {path!r} (outside the bot's working directory)"
        if not writing and not _inside(path, self.read_roots) and path not in _GUARD_FILES:
            return f"reading {path!r} (outside the bot's own files)"
        if self.forbidden_imports and not writing:
            # The source of a forbidden module, whichever way the import was made.
            for root in self.library_roots:
                if _inside(path, (root,)) and path != root:
                    rel = [p for p in os.path.relpath(path, root).split(os.sep) if p != "__pycache__"]
                    top = rel[0].partition(".")[0]
                    if top in self.forbidden_imports:
                        return self.forbidden_import(top)
        return None

    def _read(self, event: str, args: tuple[Any, ...], index: int) -> str | None:
        path = self._path(args[index] if len(args) > index and args[index] is not None else ".")
        if path is None or _inside(path, self.read_roots):
            return None
        return f"{event}({path!r}) (outside the bot's own files)"

    def _paths(self, event: str, args: tuple[Any, ...], indexes: tuple[int, ...]) -> str | None:
        fds = DIR_FD_ARGS.get(event, {})
        for i in indexes:
            if i < len(args):
                fd_at = fds.get(i, -1)
                path = self._path(args[i], args[fd_at] if 0 <= fd_at < len(args) else None)
                if path is not None and not _inside(path, self.write_roots):
                    return f"{event}({path!r}) (outside the bot's working directory)"
        return None

    def _mknod(self, args: tuple[Any, ...]) -> str | None:
        mode = args[1] if len(args) > 1 and isinstance(args[1], int) else 0
        if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):  # root's mknod of the disk would read any file
            return f"making a device node (os.mknod({args[0]!r}, ...))"
        return self._paths("os.mknod", args, (0,))

    def _import(self, args: tuple[Any, ...]) -> str | None:
        top = str(args[0]).partition(".")[0] if args else ""
        if top in self.forbidden_imports:
            return self.forbidden_import(top)
        if top in ALWAYS_FORBIDDEN:
            self.refuse_import(top, f"import of {top!r} (it could get around the sandbox)")
        return None

    def _socket(self, args: tuple[Any, ...]) -> str | None:
        """Judge ``socket.__new__``: only a unix socket that wraps a descriptor the bot already has.

        The event does not say whether ``socket(2)`` follows (POSIX raises it for a socket made
        around a descriptor too: ``socketpair``, ``fromfd``, ``accept``, ``dup``). Its caller
        does: the first frame outside the guard is the standard library's ``socket.__init__``,
        found by its code object (not by a name a bot can give its own code), with a ``fileno``.
        A socket made any other way (``_socket.socket()`` itself, family ``-1`` included: the
        kernel's ``AF_INET``) is refused; the seccomp filter refuses its ``socket(2)`` as well,
        and this names the attempt.
        """
        family = args[1] if len(args) > 1 else None
        unix = getattr(sys.modules.get("_socket"), "AF_UNIX", 1)
        frame = sys._getframe(1)
        while frame is not None and frame.f_code.co_filename == _HERE_FILE:
            frame = frame.f_back  # type: ignore[assignment]
        wraps = (frame is not None and self.socket_init is not None and frame.f_code is self.socket_init
                 and frame.f_locals.get("fileno") is not None)
        if wraps and family in (-1, unix):
            return None
        if family == unix:
            return "network access (a unix socket)"
        if family == -1:
            family = getattr(sys.modules.get("_socket"), "AF_INET", 2)  # what the kernel is asked for
        return f"network access (a socket of family {family})"

    def _exec(self, args: tuple[Any, ...]) -> str | None:
        """Find ``socket.socket.__init__`` in the code of socket.py when it first runs (its import).

        The first module code run under the standard library's ``socket.py`` is taken as the
        real one. A bot that ran code of its own under that name first only has its own later
        ``socketpair`` refused (the real ``__init__`` is then not the one known), and gains
        nothing: a ``socket(2)`` it gets past the guard is still refused by the seccomp filter,
        and any ``bind`` or ``connect`` by the guard.
        """
        code = args[0] if args else None
        if (self.socket_init is None and isinstance(code, _CODE) and code.co_name == "<module>"
                and code.co_filename == _SOCKET_PY):
            classes = [c for c in code.co_consts if isinstance(c, _CODE) and c.co_name == "socket"]
            inits = [c for cls in classes for c in cls.co_consts if isinstance(c, _CODE) and c.co_name == "__init__"]
            if inits:
                self.socket_init = inits[0]
                self._handlers.pop("exec", None)  # no need to look at another exec
        return None

    def _kill(self, args: tuple[Any, ...]) -> str | None:
        pid = args[0] if args else None
        if pid == self.own_pid or pid == os.getpid():
            return None
        return f"signalling another process (os.kill({pid}, {args[1] if len(args) > 1 else '?'}))"

    def _other_proc(self, value: Any, dir_fd: Any = None) -> str | None:
        """A reason if ``value`` names something under another process's ``/proc/<pid>``.

        Judged on the path with its last component unresolved: ``/proc/<pid>/cwd`` is a link
        whose target is the other process's folder, and a link of the bot's own to
        ``/proc/<pid>`` is followed.
        """
        if isinstance(value, int) or value is None:
            return None
        try:
            name = os.fsdecode(value)
            if isinstance(dir_fd, int) and dir_fd >= 0 and not os.path.isabs(name):
                name = os.path.join(unaudited.fd_path(dir_fd), name)
            head, tail = os.path.split(os.path.abspath(name))
            path = os.path.join(os.path.realpath(head), tail)
        except (TypeError, ValueError, OSError):
            return None
        parts = path.split(os.sep)
        if len(parts) < 3 or parts[1] != "proc":
            return None
        pid = parts[2]
        if not pid.isdigit() or int(pid) in (self.own_pid, os.getpid()):
            return None  # /proc/self, /proc/thread-self and its own pid resolve to its own number
        return f"reading another process's /proc entries ({path!r})"

    def _setattr(self, args: tuple[Any, ...]) -> str | None:
        target = args[0] if args else None
        module = getattr(target, "__module__", None) if isinstance(target, type) or callable(target) else None
        if isinstance(module, str) and module.partition(".")[0] in HARNESS_MODULES:
            name = getattr(target, "__qualname__", "?")
            return f"monkeypatching the harness ({name}.{args[1] if len(args) > 1 else '?'})"
        return None


def _fcntl(args: tuple[Any, ...]) -> str | None:
    """Judge ``fcntl.fcntl(fd, cmd, arg)``: nothing that makes the kernel signal a process."""
    fd, cmd, arg = (tuple(args) + (None, None, None))[:3]
    if cmd in FCNTL_SIGNAL:
        return f"asking for signals on a descriptor (fcntl.fcntl({fd}, {FCNTL_SIGNAL[cmd]}, ...))"
    if cmd == F_SETFL and isinstance(arg, int) and arg & O_ASYNC:
        return f"asking for signals on a descriptor (fcntl.fcntl({fd}, F_SETFL, O_ASYNC))"
    return None


def _ioctl(args: tuple[Any, ...]) -> str | None:
    """Judge ``fcntl.ioctl(fd, request, ...)``: only the requests that read (:data:`IOCTLS_ALLOWED`)."""
    fd, request = (tuple(args) + (None, None))[:2]
    if isinstance(request, int) and (request & 0xFFFFFFFF) in IOCTLS_ALLOWED:
        return None
    shown = f"{request:#x}" if isinstance(request, int) else repr(request)
    return f"an ioctl (fcntl.ioctl({fd}, {shown}, ...))"


def _initializing_module(frame: Any) -> bool:
    """True if ``frame`` runs the top of a module being imported now (not code compiled by the
    bot under a library's file name: that has no module of its own in ``sys.modules``)."""
    if frame.f_code.co_name != "<module>":
        return False
    globals_ = frame.f_globals
    module = sys.modules.get(globals_.get("__name__")) if isinstance(globals_.get("__name__"), str) else None
    spec = getattr(module, "__spec__", None)
    return (module is not None and getattr(module, "__dict__", None) is globals_
            and getattr(module, "__file__", None) == frame.f_code.co_filename
            and getattr(spec, "_initializing", False) is True)


class _ImportPolicy:
    """A meta path finder, first in line, that refuses the game's forbidden modules."""

    def __init__(self, guard: Guard) -> None:
        self.guard = guard

    def find_spec(self, name: str, path: Any = None, target: Any = None) -> None:
        top = name.partition(".")[0]
        if top in self.guard.forbidden_imports:
            reason = self.guard.forbidden_import(top)
            if reason is not None:
                self.guard.refuse(reason)
        if top in ALWAYS_FORBIDDEN:
            self.guard.refuse_import(top, f"import of {top!r} (it could get around the sandbox)")
        return None  # not ours to find: the usual finders do

    def invalidate_caches(self) -> None:
        pass


__all__ = ["Forbidden", "Guard"]
