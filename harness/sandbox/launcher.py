"""Bubblewrap started ahead, already in the bot's cgroups, waiting for the game's options.

Moving a process into a cgroup v1 hierarchy waits for an RCU grace period (the kernel's
``cgroup_threadgroup_rwsem``): 8-16 ms measured here for the first move after a pause, about
1 us for a move right after it. Done when a bot starts, that wait is most of the start.

So a background thread makes :class:`Launcher`\\ s ahead, a few per kind of sandbox: a fresh
cgroup (:class:`~harness.sandbox.cgroup.BotCgroup`, capped at one task until it is claimed, or
already at the caps the last bot of its kind claimed: writing them costs a start about 1 ms) and
``bwrap --args FD ... python -I -S -B worker.pyc REQ REP`` started in it. bubblewrap reads its
options from that pipe before it does anything else, so the launcher sits blocked in one
``read``, alone in its cgroup, having made no namespace, mount or child yet. A bot's start
claims one (:func:`take`), sets its cgroup's real caps, writes its options (folders, binds,
environment) and closes the pipe: from there bubblewrap runs exactly as if it had just been
started with them, and everything it starts is born in the bot's cgroup. Nothing is reused:
each launcher serves one bot, once; its cgroup is removed with the bot.

A launcher left idle when the harness exits is killed with its cgroup (:func:`drain`, at exit).
If the harness is killed, the pipe's write end closes, bubblewrap reads no command and exits,
and the next harness sweeps the empty cgroup (:func:`harness.sandbox.cgroup.sweep_stale`).
"""

from __future__ import annotations

import atexit
import os
import subprocess
import threading
from collections.abc import Callable
from dataclasses import dataclass

from harness.sandbox import syscalls
from harness.sandbox.cgroup import BotCgroup
from harness.sandbox.privileges import setpriv_prefix

AHEAD = 2  # launchers kept ready per kind: both seats of the next game
# The kinds of sandbox: (bwrap, setpriv or None, python, the worker's script, whether bubblewrap
# loads the seccomp filter).
Kind = tuple[str, str | None, str, str, bool]


@dataclass
class Launcher:
    """One bubblewrap process blocked on its options, in a cgroup of its own, with its pipes."""

    proc: subprocess.Popen[bytes]
    cgroup: BotCgroup
    args_w: int  # the write end of bubblewrap's --args pipe
    req_w: int  # the parent's ends of the worker's request and reply pipes
    rep_r: int
    uid: int | None  # the uid setpriv drops the bot to, if any

    def launch(self, options: list[str]) -> None:
        """Hand bubblewrap its options: it runs from here (raises OSError if it is gone)."""
        data = b"".join(os.fsencode(a) + b"\0" for a in options)
        try:
            view = memoryview(data)
            while view:  # a few kB into an empty pipe: one write
                view = view[os.write(self.args_w, view):]
        finally:
            os.close(self.args_w)
            self.args_w = -1

    def discard(self) -> None:
        """Kill an unclaimed launcher, close its pipes, remove its cgroup."""
        try:
            self.proc.kill()
        except OSError:
            pass
        for fd in (self.args_w, self.req_w, self.rep_r):
            if fd >= 0:
                try:
                    os.close(fd)
                except OSError:
                    pass
        self.args_w = self.req_w = self.rep_r = -1
        for stream in (self.proc.stdout, self.proc.stderr):
            if stream is not None:
                stream.close()
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:  # pragma: no cover - SIGKILL does not fail like this
            pass
        self.cgroup.remove()


def make(kind: Kind, uid: int | None, caps: tuple[int, int | None] = (1, None)) -> Launcher | None:
    """Start one launcher of ``kind`` in a new cgroup with ``caps`` (tasks, memory), or None.

    This waits for the kernel's move into the cgroup. The caps are the bot's, set again at the
    claim if they differ: a launcher is bubblewrap blocked in one ``read`` until then.
    """
    bwrap, setpriv, python, script, filtered = kind
    group = BotCgroup.create(*caps) or (BotCgroup.create(1, None) if caps != (1, None) else None)
    if group is None:
        return None
    try:
        # the seccomp filter, loaded by bubblewrap before the bot's command
        filter_fd = syscalls.bwrap_pipe() if filtered else None
    except OSError:  # no filter for this machine: the bot's own start says so (harness_error)
        group.remove()
        return None
    args_r, args_w = os.pipe()
    req_r, req_w = os.pipe()
    rep_r, rep_w = os.pipe()
    mine = (args_w, req_w, rep_r)
    theirs = (args_r, req_r, rep_w) + (() if filter_fd is None else (filter_fd,))
    drop = [] if setpriv is None or uid is None else setpriv_prefix(setpriv, uid)
    argv = [bwrap, "--args", str(args_r), *([] if filter_fd is None else ["--seccomp", str(filter_fd)]), *drop,
            python, "-I", "-S", "-B", script, str(req_r), str(rep_w)]
    try:
        proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                cwd="/", env={"PATH": "/usr/bin:/bin"}, pass_fds=theirs,
                                start_new_session=True, close_fds=True)
    except OSError:
        for fd in (*mine, *theirs):
            os.close(fd)
        group.remove()
        return None
    for fd in theirs:
        os.close(fd)
    launcher = Launcher(proc, group, args_w, req_w, rep_r, uid)
    try:
        group.enroll([proc.pid])  # the slow part: the kernel's grace period
    except OSError:
        launcher.discard()
        return None
    return launcher


class _Pool:
    """Launchers made ahead by one background thread, per kind (of this process only)."""

    def __init__(self) -> None:
        self.owner = os.getpid()
        self.ready: dict[Kind, list[Launcher]] = {}
        self.wanted: dict[Kind, int] = {}  # how many of each kind to keep ready
        self.caps: dict[Kind, tuple[int, int | None]] = {}  # each kind's last claimed caps
        self.cond = threading.Condition()
        self.thread: threading.Thread | None = None
        self.closed = False
        self.making = False  # a launcher is being made (outside the lock)

    def take(self, kind: Kind, pick_uid: Callable[[], int], caps: tuple[int, int | None] | None = None) -> Launcher | None:
        with self.cond:
            self.wanted[kind] = AHEAD
            if caps is not None:
                self.caps[kind] = caps
            ready = self.ready.get(kind)
            launcher = ready.pop(0) if ready else None
            if self.thread is None and not self.closed:
                self.thread = threading.Thread(target=self._fill, args=(pick_uid,), name="harness-launchers",
                                               daemon=True)
                self.thread.start()
            self.cond.notify()
        return launcher

    def _next(self) -> Kind | None:
        for kind, count in self.wanted.items():
            if len(self.ready.get(kind, [])) < count:
                return kind
        return None

    def _fill(self, pick_uid: Callable[[], int]) -> None:
        while True:
            with self.cond:
                while not self.closed and self._next() is None:
                    self.cond.wait()
                if self.closed:
                    return
                kind = self._next()
                self.making = True
                assert kind is not None
                caps = self.caps.get(kind, (1, None))
            uid = pick_uid() if kind[1] is not None else None
            launcher = make(kind, uid, caps)
            with self.cond:
                self.making = False
                self.cond.notify_all()
                if launcher is None:  # cannot make one here (no cgroups now?): stop asking
                    self.wanted.pop(kind, None)
                elif self.closed or kind not in self.wanted:  # drained meanwhile
                    launcher.discard()
                else:
                    self.ready.setdefault(kind, []).append(launcher)

    def drain(self, stop: bool = False) -> int:
        with self.cond:
            if stop:
                self.closed = True
            self.wanted.clear()  # made again on the next take, not now
            self.cond.notify_all()
            while self.making:  # one being made now is discarded by its maker: wait for that
                self.cond.wait()
            idle = [launcher for ready in self.ready.values() for launcher in ready]
            self.ready.clear()
        for launcher in idle:
            launcher.discard()
        return len(idle)


_pool = _Pool()
_pool_lock = threading.Lock()


def _current() -> _Pool:
    global _pool
    with _pool_lock:
        if _pool.owner != os.getpid():  # a forked child: its parent's launchers are not its own
            _pool = _Pool()
        return _pool


def take(kind: Kind, pick_uid: Callable[[], int], caps: tuple[int, int | None] | None = None) -> Launcher | None:
    """A ready launcher of ``kind``, or None (then one is being made for the next start).

    ``pick_uid`` picks the uid of a launcher that drops the bot (``privileges.pick_uid``);
    ``caps`` (tasks, memory) are the caps the next launchers of ``kind`` are made with.
    """
    return _current().take(kind, pick_uid, caps)


def claim(kind: Kind, pick_uid: Callable[[], int], max_tasks: int, memory_bytes: int | None,
          options: Callable[[int | None], list[str]]) -> Launcher | None:
    """A ready launcher of ``kind``, given its bot's caps and its options (``options(uid)``): it
    runs from here. None if none was ready or it failed (the caller starts bubblewrap itself)."""
    ready = take(kind, pick_uid, (max_tasks, memory_bytes))
    if ready is None:
        return None
    try:
        if ready.cgroup.limits != (max_tasks, memory_bytes):  # made before a bot of other caps
            ready.cgroup.set_limits(max_tasks, memory_bytes)
        ready.launch(options(ready.uid))
    except OSError:
        ready.discard()
        return None
    return ready


def idle() -> list[Launcher]:
    """The launchers of this process that are ready and unclaimed now."""
    pool = _current()
    with pool.cond:
        return [launcher for ready in pool.ready.values() for launcher in ready]


def drain() -> int:
    """Kill the idle launchers (and their cgroups) of this process; how many there were.

    The pool makes new ones at the next start that asks for them.
    """
    return _current().drain()


def _at_fork_child() -> None:
    # A forked child shares its parent's pipes: close its copies of the launchers' ends so that
    # a parent killed with kill -9 still lets its launchers see the end of their options. Its
    # pool starts empty, with locks no thread of the parent can be holding.
    global _pool, _pool_lock
    pool = _pool
    _pool, _pool_lock = _Pool(), threading.Lock()
    for ready in pool.ready.values():
        for launcher in ready:
            for fd in (launcher.args_w, launcher.req_w, launcher.rep_r):
                try:
                    os.close(fd)
                except OSError:
                    pass


def _at_exit() -> None:
    pool = _pool
    if pool.owner == os.getpid():
        pool.drain(stop=True)


os.register_at_fork(after_in_child=_at_fork_child)
atexit.register(_at_exit)

__all__ = ["AHEAD", "Kind", "Launcher", "claim", "drain", "idle", "make", "take"]
