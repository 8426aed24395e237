"""Landlock (Linux 5.13+): what a bot's process may read and write, and no TCP, from the kernel.

The container tier (a root harness without bubblewrap, see ``docs/isolation.md``) applies a
ruleset inside the bot's process before any bot code runs (:func:`confine`, called by the
worker at its start): the bot may read the interpreter's standard library, the system's
shared libraries, the compiled bot-side files with the game's bot API, its approved packages
and its own code, and write only its own working folder. From ABI 4 on it may neither bind
nor connect a TCP socket; from ABI 6 on it may signal no process outside its own ruleset and
reach no abstract unix socket made outside it. A denial is the kernel's ``EACCES`` or
``EPERM``: the bot's own error, wherever the guard has not refused first.

A small wrapper of the three system calls with ``ctypes``, not a binding from PyPI: the
worker runs with ``-I -S`` (no site-packages), plain mode imports ``ctypes`` at every start
anyway (``PR_SET_PDEATHSIG``), and this costs a start well under a millisecond. Imported by
the worker as ``_harness_landlock`` (standard library only) and by the harness to ask the
kernel's ABI (:func:`abi`).
"""

from __future__ import annotations

import os

TYPE_CHECKING = False  # typing would cost milliseconds of every bot's start
if TYPE_CHECKING:
    from collections.abc import Iterable

# System call numbers: the same on every architecture since Linux 5.1's unified table.
SYS_CREATE_RULESET, SYS_ADD_RULE, SYS_RESTRICT_SELF = 444, 445, 446
CREATE_RULESET_VERSION = 1
RULE_PATH_BENEATH = 1
PR_SET_NO_NEW_PRIVS = 38

# Filesystem rights (linux/landlock.h) and the ABI that brought each.
EXECUTE, WRITE_FILE, READ_FILE, READ_DIR = 1 << 0, 1 << 1, 1 << 2, 1 << 3
REMOVE_DIR, REMOVE_FILE, MAKE_CHAR, MAKE_DIR, MAKE_REG = 1 << 4, 1 << 5, 1 << 6, 1 << 7, 1 << 8
MAKE_SOCK, MAKE_FIFO, MAKE_BLOCK, MAKE_SYM = 1 << 9, 1 << 10, 1 << 11, 1 << 12
REFER, TRUNCATE, IOCTL_DEV = 1 << 13, 1 << 14, 1 << 15  # ABI 2, 3, 5
FS_BY_ABI = {1: (1 << 13) - 1, 2: (1 << 14) - 1, 3: (1 << 15) - 1, 4: (1 << 15) - 1}  # 5 and later: all 16
FILE_RIGHTS = EXECUTE | WRITE_FILE | READ_FILE | TRUNCATE | IOCTL_DEV  # the rights a rule on a file may hold
NET_BIND_TCP, NET_CONNECT_TCP = 1 << 0, 1 << 1  # ABI 4
SCOPE_ABSTRACT_UNIX_SOCKET, SCOPE_SIGNAL = 1 << 0, 1 << 1  # ABI 6

READ = READ_FILE | READ_DIR
WRITE = READ | WRITE_FILE | REMOVE_DIR | REMOVE_FILE | MAKE_DIR | MAKE_REG | MAKE_SOCK | MAKE_FIFO | MAKE_SYM \
    | REFER | TRUNCATE  # never EXECUTE: a bot's own folder holds no program to run


def _libc() -> object:
    import ctypes  # plain mode has it loaded already (die_with_parent)

    libc = ctypes.CDLL(None, use_errno=True)
    libc.syscall.restype = ctypes.c_long
    return libc


def abi() -> int:
    """The kernel's Landlock ABI version, 0 where it has none (or it is disabled at boot)."""
    if not os.uname().sysname == "Linux":
        return 0
    try:
        import ctypes

        libc = _libc()
        version = libc.syscall(ctypes.c_long(SYS_CREATE_RULESET), None, ctypes.c_size_t(0),  # type: ignore[attr-defined]
                               ctypes.c_uint32(CREATE_RULESET_VERSION))
    except (OSError, AttributeError, ImportError):
        return 0
    return max(int(version), 0)


def restrict(read: Iterable[str], write: Iterable[str], version: int) -> None:
    """Confine this process (and whatever it starts) to reading ``read`` and writing ``write``.

    ``version`` is the kernel's ABI (:func:`abi`): every right it knows is handled, so whatever
    is not granted here is denied. Paths that do not exist are left out. Sets ``no_new_privs``
    (the kernel requires it of a process without ``CAP_SYS_ADMIN``). Raises ``OSError`` if
    the kernel refuses.
    """
    import ctypes

    class RulesetAttr(ctypes.Structure):
        _fields_ = [("fs", ctypes.c_uint64), ("net", ctypes.c_uint64), ("scoped", ctypes.c_uint64)]

    class PathBeneath(ctypes.Structure):
        _pack_ = 1
        _fields_ = [("allowed", ctypes.c_uint64), ("parent_fd", ctypes.c_int32)]

    libc = _libc()
    handled = FS_BY_ABI.get(version, (1 << 16) - 1)
    attr = RulesetAttr(handled, NET_BIND_TCP | NET_CONNECT_TCP if version >= 4 else 0,
                       SCOPE_ABSTRACT_UNIX_SOCKET | SCOPE_SIGNAL if version >= 6 else 0)
    size = 24 if version >= 6 else 16 if version >= 4 else 8  # the struct as this ABI knows it

    def check(result: int, what: str) -> int:
        if result < 0:
            errno = ctypes.get_errno()
            raise OSError(errno, f"landlock {what}: {os.strerror(errno)}")
        return result

    ruleset = check(libc.syscall(ctypes.c_long(SYS_CREATE_RULESET), ctypes.byref(attr),  # type: ignore[attr-defined]
                                 ctypes.c_size_t(size), ctypes.c_uint32(0)), "create_ruleset")
    try:
        for rights, paths in ((READ, read), (WRITE, write)):
            for path in paths:
                try:
                    fd = os.open(path, os.O_PATH | os.O_CLOEXEC)
                except OSError:
                    continue  # a folder this system does not have
                try:
                    allowed = rights & handled
                    if not os.path.isdir(path):
                        allowed &= FILE_RIGHTS
                    rule = PathBeneath(allowed, fd)
                    check(libc.syscall(ctypes.c_long(SYS_ADD_RULE), ctypes.c_int(ruleset),  # type: ignore[attr-defined]
                                       ctypes.c_int(RULE_PATH_BENEATH), ctypes.byref(rule), ctypes.c_uint32(0)),
                          f"add_rule {path}")
                finally:
                    os.close(fd)
        check(libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), "no_new_privs")  # type: ignore[attr-defined]
        check(libc.syscall(ctypes.c_long(SYS_RESTRICT_SELF), ctypes.c_int(ruleset),  # type: ignore[attr-defined]
                           ctypes.c_uint32(0)), "restrict_self")
    finally:
        os.close(ruleset)


def confine(args: list[str], own: Iterable[str]) -> None:
    """Apply the ruleset the parent asked the worker for (``ABI r:PATH ... w:PATH ...``), with
    the folders ``own`` (the interpreter's ``sys.path``) readable too. If the kernel refuses,
    exit before the worker's hello: the bot is not started (``harness_error``), never run with
    less than was asked."""
    read = [a[2:] for a in args[1:] if a.startswith("r:")] + [p for p in own if p]
    write = [a[2:] for a in args[1:] if a.startswith("w:")]
    try:
        restrict(read, write, int(args[0]))
    except (OSError, ValueError, IndexError) as exc:
        os.write(2, f"harness: cannot apply the Landlock ruleset: {exc}\n".encode())
        os._exit(3)


__all__ = ["abi", "confine", "restrict"]
