"""A seccomp filter: the system calls a bot's process may not make at all, refused by the kernel.

Landlock confines files, TCP, signals and abstract sockets; the rest of the kernel's surface is
this filter's. In plain mode the worker installs it at its start (:func:`confine`), after
Landlock and before the guard, the hello and any bot code; under bubblewrap, bubblewrap loads
the same program before it runs the worker (:mod:`harness.sandbox.syscalls`). Every thread and
process the bot starts inherits it, and nothing can remove it. A refused call returns ``EPERM``
(never a kill): the bot gets an ``OSError`` like any other refusal, and the guard and the
parent's verdicts decide what follows.

Refused (:data:`DENIED`, as ``harness doctor`` lists them):

* SysV IPC (shared memory, semaphores, message queues): state that outlives a process and
  is shared between uids (bubblewrap's IPC namespace has its own; the container tier has none);
* ``fallocate``: disk held without a write;
* every ``socket()`` (UDP, raw, netlink, packet, and unix sockets, whose ``connect`` to a path
  a filter cannot read): only ``socketpair(AF_UNIX, SOCK_STREAM or SOCK_SEQPACKET)`` is left,
  a connected pair that can reach nothing else (``multiprocessing``'s pipes); a datagram pair
  is refused too, since one could be re-connected to a path;
* ``io_uring``, ``ptrace``, ``process_vm_readv/writev``, ``pidfd_getfd``, ``kcmp``, ``bpf``,
  ``perf_event_open``, ``userfaultfd``, the key ring, mounts (old and new API), ``chroot``,
  ``unshare``, ``setns``, ``kexec``, kernel modules, swap, ``reboot``, ``acct``;
* ``clone`` with any namespace flag; ``clone3`` returns ``ENOSYS`` (its flags are in memory,
  which a filter cannot read), and the C library then falls back to ``clone``;
* ``personality`` other than asking (``0xffffffff``) or setting what it is (``PER_LINUX``);
* any other architecture's calls (a 32-bit ``int 0x80``), and x32's on x86_64.

The program is built here, as classic BPF (``struct sock_filter``), for x86_64 and aarch64;
on any other architecture :func:`program` refuses, and the worker exits before its hello: the
bot is not started (``harness_error``), as when Landlock fails. Installed with
``seccomp(SECCOMP_SET_MODE_FILTER, TSYNC)`` after ``PR_SET_NO_NEW_PRIVS``. Hand-built rather than
libseccomp's binding: Debian's ``python3-seccomp`` exists for Debian's interpreter only and
the worker runs with ``-I -S`` (no site-packages) on whichever interpreter the tier uses;
PyPI has no maintained binding. The program is a list of comparisons, each tested against the
real kernel (``tests/sandbox/test_seccomp.py``). Imported by the worker as ``_harness_seccomp``
(``struct``, and ``ctypes`` that plain mode has loaded already) and by the harness (doctor, tests).
"""

from __future__ import annotations

import os
import struct
import sys

EPERM, ENOSYS = 1, 38
AUDIT_ARCH = {"x86_64": 0xC000003E, "aarch64": 0xC00000B7}
X32_SYSCALL_BIT = 0x40000000
PR_SET_NO_NEW_PRIVS = 38
SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_TSYNC = 1, 1
SYS_SECCOMP = {"x86_64": 317, "aarch64": 277}

# Classic BPF (linux/filter.h, linux/seccomp.h).
LD_W_ABS, JEQ, JGE, JSET, AND, RET = 0x20, 0x15, 0x35, 0x45, 0x54, 0x06
RET_ALLOW, RET_ERRNO = 0x7FFF0000, 0x00050000
# struct seccomp_data: nr (int), arch (u32), instruction_pointer (u64), args[6] (u64, the low
# word first on these little-endian architectures).
OFF_NR, OFF_ARCH = 0, 4


def arg(index: int) -> int:
    """The offset of the low 32 bits of argument ``index`` (the kernel reads these calls' flags as ints)."""
    return 16 + 8 * index


AF_UNIX = 1
SOCK_STREAM, SOCK_SEQPACKET = 1, 5
SOCK_FLAGS = 0o4000 | 0o2000000  # SOCK_NONBLOCK | SOCK_CLOEXEC
# CLONE_NEWNS, NEWCGROUP, NEWUTS, NEWIPC, NEWUSER, NEWPID, NEWNET (NEWTIME is clone3's or
# unshare's: in clone's flags 0x80 is part of the exit signal).
CLONE_NAMESPACES = 0x00020000 | 0x02000000 | 0x04000000 | 0x08000000 | 0x10000000 | 0x20000000 | 0x40000000
PERSONALITY_QUERY, PER_LINUX = 0xFFFFFFFF, 0

# The refused calls, by family, with their numbers on (x86_64, aarch64); None: the
# architecture has no such call. Neither multiplexes SysV IPC (``ipc``) or sockets (``socketcall``).
FAMILIES: dict[str, dict[str, tuple[int | None, int | None]]] = {
    "SysV IPC": {"shmget": (29, 194), "shmat": (30, 196), "shmctl": (31, 195), "shmdt": (67, 197),
                 "semget": (64, 190), "semop": (65, 193), "semctl": (66, 191), "semtimedop": (220, 192),
                 "msgget": (68, 186), "msgsnd": (69, 189), "msgrcv": (70, 188), "msgctl": (71, 187)},
    "preallocating disk": {"fallocate": (285, 47)},
    "sockets of every kind (UDP, raw, netlink, packet, unix)": {"socket": (41, 198)},
    "io_uring": {"io_uring_setup": (425, 425), "io_uring_enter": (426, 426), "io_uring_register": (427, 427)},
    "other processes' memory": {"ptrace": (101, 117), "process_vm_readv": (310, 270),
                                "process_vm_writev": (311, 271), "pidfd_getfd": (438, 438), "kcmp": (312, 272)},
    "kernel programs and events": {"bpf": (321, 280), "perf_event_open": (298, 241), "userfaultfd": (323, 282)},
    "key ring": {"keyctl": (250, 219), "add_key": (248, 217), "request_key": (249, 218)},
    "mounts": {"mount": (165, 40), "umount2": (166, 39), "pivot_root": (155, 41), "chroot": (161, 51),
               "open_tree": (428, 428), "move_mount": (429, 429), "fsopen": (430, 430), "fsconfig": (431, 431),
               "fsmount": (432, 432), "fspick": (433, 433), "mount_setattr": (442, 442)},
    "namespaces": {"unshare": (272, 97), "setns": (308, 268)},
    "the machine": {"kexec_load": (246, 104), "kexec_file_load": (320, 294), "init_module": (175, 105),
                    "finit_module": (313, 273), "delete_module": (176, 106), "swapon": (167, 224),
                    "swapoff": (168, 225), "reboot": (169, 142), "acct": (163, 89)},
}
# Calls refused for some arguments only (checked below), and clone3 (ENOSYS).
SOCKETPAIR = {"x86_64": 53, "aarch64": 199}
CLONE = {"x86_64": 56, "aarch64": 220}
CLONE3 = {"x86_64": 435, "aarch64": 435}
PERSONALITY = {"x86_64": 135, "aarch64": 92}

DENIED = (
    *(f"{family}: {', '.join(calls)}" for family, calls in FAMILIES.items()),
    "socketpair other than AF_UNIX stream or seqpacket",
    "clone with a namespace flag (clone3: ENOSYS, so the C library uses clone)",
    "personality changes",
    "other architectures' system calls (32-bit, x32)",
)


class UnsupportedArch(OSError):
    """No filter for this architecture: the bot is not started."""


def machine() -> str:
    """This process's architecture as the filter names it ("" where it has none)."""
    name = os.uname().machine
    if name in AUDIT_ARCH and sys.maxsize > 1 << 32:  # a 32-bit interpreter would call another ABI
        return name
    return ""


def numbers(arch: str) -> dict[str, int]:
    """Every unconditionally refused call's number on ``arch``."""
    column = 0 if arch == "x86_64" else 1
    found = {}
    for calls in FAMILIES.values():
        for name, pair in calls.items():
            if pair[column] is not None:
                found[name] = pair[column]
    return found


def program(arch: str, errno: int = EPERM) -> bytes:
    """The filter for ``arch`` as ``struct sock_filter`` bytes; refused calls return ``errno``.

    Raises :class:`UnsupportedArch` for an architecture it has no numbers for.
    """
    if arch not in AUDIT_ARCH:
        raise UnsupportedArch(f"no seccomp filter for the architecture {arch or 'of this interpreter'!r}")
    deny, allow, enosys = RET_ERRNO | (errno & 0xFFFF), RET_ALLOW, RET_ERRNO | ENOSYS
    code: list[tuple[int, object, object, int]] = []  # (op, jump if true, jump if false, k); jumps: labels

    def op(opcode: int, k: int, jt: object = 0, jf: object = 0) -> None:
        code.append((opcode, jt, jf, k))

    op(LD_W_ABS, OFF_ARCH)
    op(JEQ, AUDIT_ARCH[arch], 0, "deny")
    op(LD_W_ABS, OFF_NR)
    if arch == "x86_64":
        op(JGE, X32_SYSCALL_BIT, "deny", 0)
    for number in sorted(set(numbers(arch).values())):
        op(JEQ, number, "deny", 0)
    op(JEQ, SOCKETPAIR[arch], "socketpair", 0)
    op(JEQ, CLONE[arch], "clone", 0)
    op(JEQ, CLONE3[arch], "enosys", 0)
    op(JEQ, PERSONALITY[arch], "personality", 0)
    op(RET, allow)
    labels = {"socketpair": len(code)}
    op(LD_W_ABS, arg(0))
    op(JEQ, AF_UNIX, 0, "deny")
    op(LD_W_ABS, arg(1))
    op(AND, 0xFFFFFFFF & ~SOCK_FLAGS)
    op(JEQ, SOCK_STREAM, "allow", 0)
    op(JEQ, SOCK_SEQPACKET, "allow", "deny")
    labels["clone"] = len(code)
    op(LD_W_ABS, arg(0))
    op(JSET, CLONE_NAMESPACES, "deny", "allow")
    labels["personality"] = len(code)
    op(LD_W_ABS, arg(0))
    op(JEQ, PERSONALITY_QUERY, "allow", 0)
    op(JEQ, PER_LINUX, "allow", "deny")
    labels["deny"] = len(code)
    op(RET, deny)
    labels["allow"] = len(code)
    op(RET, allow)
    labels["enosys"] = len(code)
    op(RET, enosys)

    out = bytearray()
    for at, (opcode, jt, jf, k) in enumerate(code):
        jumps = [labels[j] - at - 1 if isinstance(j, str) else j for j in (jt, jf)]
        assert all(type(j) is int and 0 <= j <= 255 for j in jumps), (at, jumps)  # forward, within a byte
        out += struct.pack("=HBBI", opcode, jumps[0], jumps[1], k)
    return bytes(out)


def install(errno: int = EPERM, arch: str | None = None) -> None:
    """Set ``no_new_privs`` and install the filter on every thread of this process.

    Raises :class:`UnsupportedArch`, or ``OSError`` if the kernel refuses.
    """
    import ctypes  # plain mode has it loaded already (die_with_parent)

    arch = machine() if arch is None else arch
    filters = program(arch, errno)

    class SockFprog(ctypes.Structure):
        _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_char_p)]

    libc = ctypes.CDLL(None, use_errno=True)
    libc.syscall.restype = ctypes.c_long
    if libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
        error = ctypes.get_errno()
        raise OSError(error, f"seccomp: no_new_privs: {os.strerror(error)}")
    prog = SockFprog(len(filters) // 8, filters)
    if libc.syscall(ctypes.c_long(SYS_SECCOMP[arch]), ctypes.c_uint(SECCOMP_SET_MODE_FILTER),
                    ctypes.c_uint(SECCOMP_FILTER_FLAG_TSYNC), ctypes.byref(prog)) != 0:
        error = ctypes.get_errno()
        raise OSError(error, f"seccomp: cannot install the filter: {os.strerror(error)}")


def confine() -> None:
    """Install the filter (the worker, at its start); if it cannot be, exit before the worker's
    hello: the bot is not started (``harness_error``), never run without what was asked."""
    try:
        install()
    except OSError as exc:
        os.write(2, f"harness: cannot install the seccomp filter: {exc}\n".encode())
        os._exit(3)


__all__ = ["DENIED", "FAMILIES", "UnsupportedArch", "confine", "install", "machine", "numbers", "program"]
