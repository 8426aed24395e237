"""The seccomp filter (harness/sandbox/bot/seccomp.py), rule by rule, against the real kernel.

Each probe runs in a small child process that drops to an unprivileged uid (when the tests run
as root), installs the filter with a distinctive errno (``ENOTRECOVERABLE``: no refusal of the
kernel's own looks like it) and makes the call with arguments the kernel would reject anyway:
so a refusal is the filter's, and nothing happens if one were not. The same probes without the
filter show that the kernel alone answers otherwise. The program for aarch64, which this
machine cannot run, is checked with a small interpreter of classic BPF, and every number
against the kernel's own headers where they are installed.
"""

from __future__ import annotations

import errno
import json
import os
import re
import struct
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from harness.sandbox.bot import seccomp

BOT = Path(seccomp.__file__).parent
MARK = errno.ENOTRECOVERABLE
ARCH = seccomp.machine()
linux_only = pytest.mark.skipif(not ARCH, reason="seccomp filters exist for Linux on x86_64 and aarch64")

CHILD = textwrap.dedent("""
    import ctypes, json, os, socket, sys, threading, subprocess
    sys.path.insert(0, sys.argv[1])
    import seccomp
    if os.geteuid() == 0:  # as an ordinary user: no probe could do harm if the filter let it through
        os.setgroups([])
        os.setgid(65534)
        os.setuid(65534)
    if sys.argv[2] != "off":
        seccomp.install(int(sys.argv[2]))
    libc = ctypes.CDLL(None, use_errno=True)
    libc.syscall.restype = ctypes.c_long
    out = {}

    def call(name, nr, *args):
        ctypes.set_errno(0)
        result = libc.syscall(ctypes.c_long(nr), *(ctypes.c_long(a) for a in args))
        out[name] = ctypes.get_errno() if result == -1 else "ok"

    arch = seccomp.machine()
    for name, nr in seccomp.numbers(arch).items():
        call(name, nr, -1, 0, 0, 0, 0, 0)
    pair = ctypes.c_int * 2
    for label, family, kind in [("stream", 1, 1), ("seqpacket", 1, 5), ("stream cloexec", 1, 1 | 0o2000000),
                                ("stream nonblock", 1, 1 | 0o4000), ("dgram", 1, 2), ("inet stream", 2, 1)]:
        ctypes.set_errno(0)
        fds = pair()
        result = libc.syscall(ctypes.c_long(seccomp.SOCKETPAIR[arch]), family, kind, 0, fds)
        out["socketpair " + label] = ctypes.get_errno() if result == -1 else "ok"
    for flag, bit in [("newns", 0x20000), ("newcgroup", 0x02000000), ("newuts", 0x04000000),
                      ("newipc", 0x08000000), ("newuser", 0x10000000), ("newpid", 0x20000000),
                      ("newnet", 0x40000000)]:
        # CLONE_THREAD without CLONE_SIGHAND: the kernel itself refuses this (EINVAL), never forks
        call("clone " + flag, seccomp.CLONE[arch], bit | 0x10000, 0, 0, 0, 0)
    call("clone3", seccomp.CLONE3[arch], 0, 0)
    call("personality query", seccomp.PERSONALITY[arch], 0xFFFFFFFF)
    call("personality linux", seccomp.PERSONALITY[arch], 0)
    call("personality no-randomize", seccomp.PERSONALITY[arch], 0x0040000)
    if arch == "x86_64":
        call("x32 getpid", 0x40000000 | 39)
    a, b = socket.socketpair()
    a.send(b"x")
    out["python socketpair"] = "ok" if b.recv(1) == b"x" else "broken"
    pid = os.fork()
    if pid == 0:
        os._exit(7)
    out["fork"] = "ok" if os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]) == 7 else "broken"
    seen = []
    thread = threading.Thread(target=seen.append, args=(1,))
    thread.start()
    thread.join()
    out["thread"] = "ok" if seen == [1] else "broken"
    done = subprocess.run(["/bin/echo", "hi"], capture_output=True)
    out["subprocess"] = "ok" if done.stdout == b"hi\\n" else "broken"
    print(json.dumps(out))
""")


def probe(errno_or_off: str) -> dict[str, object]:
    done = subprocess.run([sys.executable, "-I", "-S", "-c", CHILD, str(BOT), errno_or_off],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@linux_only
def test_every_refused_call_is_refused_by_the_filter_and_only_by_it() -> None:
    on, off = probe(str(MARK)), probe("off")
    refused = [*seccomp.numbers(ARCH), "socketpair dgram", "socketpair inet stream",
               *(f"clone new{n}" for n in ("ns", "cgroup", "uts", "ipc", "user", "pid", "net")),
               "personality no-randomize", *(["x32 getpid"] if ARCH == "x86_64" else [])]
    for name in refused:
        assert on[name] == MARK, (name, on[name])
        assert off[name] != MARK, (name, off[name])  # the kernel alone answers otherwise
    assert on["clone3"] == errno.ENOSYS and off["clone3"] != errno.ENOSYS  # the C library falls back to clone
    allowed = ["socketpair stream", "socketpair seqpacket", "socketpair stream cloexec", "socketpair stream nonblock",
               "personality query", "personality linux", "python socketpair", "fork", "thread", "subprocess"]
    for name in allowed:
        assert on[name] == "ok" == off[name], (name, on[name], off[name])
    # SysV IPC, fallocate, every socket(), io_uring, ptrace and the rest, as the issue lists them
    for name in ("shmget", "shmat", "msgget", "msgsnd", "semget", "fallocate", "socket", "io_uring_setup",
                 "io_uring_enter", "io_uring_register", "ptrace", "process_vm_readv", "process_vm_writev", "bpf",
                 "perf_event_open", "userfaultfd", "keyctl", "add_key", "request_key", "mount", "umount2",
                 "pivot_root", "move_mount", "fsopen", "fsmount", "open_tree", "unshare", "setns", "kexec_load",
                 "kexec_file_load", "init_module", "finit_module", "swapon", "reboot", "acct"):
        assert name in refused, name


@linux_only
def test_the_real_filter_says_eperm() -> None:
    """As installed for bots: a refusal is EPERM (the bot's OSError), never a kill."""
    script = (f"import sys, socket; sys.path.insert(0, {str(BOT)!r}); import seccomp; seccomp.confine()\n"
              "try:\n    socket.socket(socket.AF_INET, socket.SOCK_DGRAM)\nexcept OSError as e:\n    print(e.errno)\n"
              "print(open('/proc/self/status').read().split('NoNewPrivs:')[1].split()[0])\n"
              "print(open('/proc/self/status').read().split('Seccomp:')[1].split()[0])\n")
    done = subprocess.run([sys.executable, "-I", "-S", "-c", script], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == [str(errno.EPERM), "1", "2"]  # EPERM; no_new_privs; filter mode


def test_an_unknown_architecture_gets_no_filter_and_no_bot() -> None:
    """No numbers for it: the program is refused, and the worker exits before its hello (status 3)."""
    for arch in ("", "i686", "armv7l", "riscv64", "ppc64le"):
        with pytest.raises(seccomp.UnsupportedArch):
            seccomp.program(arch)
    script = (f"import sys; sys.path.insert(0, {str(BOT)!r}); import seccomp\n"
              "seccomp.machine = lambda: 'riscv64'\nseccomp.confine()\nprint('ran')\n")
    done = subprocess.run([sys.executable, "-I", "-S", "-c", script], capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stdout) == (3, "")
    assert done.stderr == ("harness: cannot install the seccomp filter: no seccomp filter for the architecture "
                           "'riscv64'\n")


def run_bpf(program: bytes, nr: int, arch: int, args: tuple[int, ...] = ()) -> int:
    """What the classic BPF ``program`` returns for a call: a small interpreter of the opcodes it uses."""
    data = struct.pack("=iIQ6Q", nr, arch, 0, *(list(args) + [0] * 6)[:6])
    insns = [struct.unpack_from("=HBBI", program, i) for i in range(0, len(program), 8)]
    pc, acc = 0, 0
    while True:
        code, jt, jf, k = insns[pc]
        pc += 1
        if code == seccomp.LD_W_ABS:
            acc = struct.unpack_from("=I", data, k)[0]
        elif code == seccomp.AND:
            acc &= k
        elif code in (seccomp.JEQ, seccomp.JGE, seccomp.JSET):
            hit = acc == k if code == seccomp.JEQ else acc >= k if code == seccomp.JGE else bool(acc & k)
            pc += jt if hit else jf
        elif code == seccomp.RET:
            return k
        else:
            raise AssertionError(f"unknown opcode {code:#x}")


@pytest.mark.parametrize("arch", sorted(seccomp.AUDIT_ARCH))
def test_each_architecture_s_program_refuses_its_own_numbers(arch: str) -> None:
    program = seccomp.program(arch)
    audit = seccomp.AUDIT_ARCH[arch]
    deny, allow = seccomp.RET_ERRNO | errno.EPERM, seccomp.RET_ALLOW
    for name, nr in seccomp.numbers(arch).items():
        assert run_bpf(program, nr, audit) == deny, name
    for nr in range(0, 460):  # everything else is allowed (with plain arguments)
        if nr not in seccomp.numbers(arch).values() and nr not in (seccomp.CLONE3[arch],):
            assert run_bpf(program, nr, audit, (0x11, 1)) in (allow, deny), nr
    assert run_bpf(program, seccomp.numbers(arch)["shmget"], audit ^ 1) == deny  # another ABI: refused
    assert run_bpf(program, 0, 0x40000003) == deny  # i386
    assert run_bpf(program, seccomp.SOCKETPAIR[arch], audit, (1, 1)) == allow
    assert run_bpf(program, seccomp.SOCKETPAIR[arch], audit, (1, 2)) == deny
    assert run_bpf(program, seccomp.CLONE[arch], audit, (0x11,)) == allow  # fork's SIGCHLD
    assert run_bpf(program, seccomp.CLONE[arch], audit, (0x3D0F00,)) == allow  # pthread_create's flags
    assert run_bpf(program, seccomp.CLONE[arch], audit, (0x10000011,)) == deny
    assert run_bpf(program, seccomp.CLONE3[arch], audit) == seccomp.RET_ERRNO | errno.ENOSYS
    assert run_bpf(program, seccomp.PERSONALITY[arch], audit, (0xFFFFFFFF,)) == allow
    assert run_bpf(program, seccomp.PERSONALITY[arch], audit, (8,)) == deny
    assert run_bpf(program, 39 if arch == "x86_64" else 172, audit) == allow  # getpid


HEADERS = {"x86_64": Path("/usr/include/x86_64-linux-gnu/asm/unistd_64.h"),
           "aarch64": Path("/usr/include/asm-generic/unistd.h")}  # aarch64 uses the generic table


@pytest.mark.parametrize("arch", sorted(HEADERS))
def test_the_numbers_are_the_kernel_headers(arch: str) -> None:
    header = HEADERS[arch]
    if not header.exists():
        pytest.skip(f"{header} is not installed (linux-libc-dev)")
    text = header.read_text()
    known = {name: int(nr) for name, nr in re.findall(r"#define __NR(?:3264)?_(\w+)\s+(\d+)\b", text)}
    tables = {**seccomp.numbers(arch), "socketpair": seccomp.SOCKETPAIR[arch], "clone": seccomp.CLONE[arch],
              "clone3": seccomp.CLONE3[arch], "personality": seccomp.PERSONALITY[arch],
              "seccomp": seccomp.SYS_SECCOMP[arch]}
    for name, nr in tables.items():
        assert known.get(name) == nr, (name, nr, known.get(name))
    missing = [n for calls in seccomp.FAMILIES.values() for n in calls if n not in seccomp.numbers(arch)]
    assert missing == []  # both architectures have every call listed


def test_bubblewrap_gets_the_same_program_through_a_pipe(monkeypatch: pytest.MonkeyPatch) -> None:
    from harness.sandbox import syscalls

    if not ARCH:
        pytest.skip("no filter on this architecture")
    fd = syscalls.bwrap_pipe()
    assert fd is not None
    try:
        assert os.read(fd, 1 << 16) == seccomp.program(ARCH)
    finally:
        os.close(fd)
    monkeypatch.setenv("HARNESS_SECCOMP", "0")
    assert syscalls.bwrap_pipe() is None and syscalls.worker_args() == []


@linux_only
def test_doctor_lists_what_the_filter_refuses() -> None:
    env = {k: v for k, v in os.environ.items() if k != "HARNESS_SECCOMP"}
    done = subprocess.run([sys.executable, "-m", "harness", "doctor"], capture_output=True, text=True, timeout=120,
                          env=env)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert any(re.match(r"  \[x\] seccomp filter \(system calls no bot needs, EPERM\) +\S+, \d+ BPF instructions", line)
               for line in lines), done.stdout
    listed = lines[lines.index("the seccomp filter refuses (EPERM; a bot gets an OSError):") + 1:]
    assert listed[:len(seccomp.DENIED)] == [f"  - {family}" for family in seccomp.DENIED]
    assert any("SysV IPC: shmget, shmat" in line for line in listed)
    off = subprocess.run([sys.executable, "-m", "harness", "doctor"], capture_output=True, text=True, timeout=120,
                         env={**env, "HARNESS_SECCOMP": "0", "HARNESS_ISOLATION": "plain"})
    assert "[ ] seccomp filter (system calls no bot needs, EPERM)" in off.stdout
    assert "the seccomp filter refuses" not in off.stdout
    if os.geteuid() == 0:  # the container tier says what it then lets through
        assert "no seccomp filter: a bot that disarms the guard can still use UDP" in off.stdout


STATUS_BOT = b"""
def step(spel):
    for k in range(1, spel.N + 1):
        n = spel.positie + k
        if n > 1 and all(n % i for i in range(2, int(n ** 0.5) + 1)):
            return k
    return 1


def disarm():  # the guard refuses /proc/self/status; the kernel's filter is what this reads
    import sys
    for frame in sys._current_frames().values():
        while frame is not None:
            guard = getattr(frame.f_locals.get("self"), "guard", None)
            if guard is not None:
                guard.armed = False
                return
            frame = frame.f_back


class Player:
    def __init__(self, name):
        disarm()
        with open("/proc/self/status") as f:
            print("seccomp", f.read().split("Seccomp:")[1].split()[0], flush=True)

    def zet(self, spel):
        return step(spel)
"""


@linux_only
@pytest.mark.parametrize("mode", ["auto", "plain"])
def test_every_tier_runs_bots_under_the_filter_unless_turned_off(mode: str, monkeypatch: pytest.MonkeyPatch,
                                                                  no_leftovers: None) -> None:
    """In force in the bot's process in both tiers (bubblewrap's --seccomp, the worker's own);
    ``HARNESS_SECCOMP=0`` runs it without (a launcher made ahead with the filter is not used then)."""
    from harness.games import get_game
    from harness.match import play_match
    from harness.record import Verdict
    from harness.sandbox import Limits

    game = get_game("priemspel")
    basis = (Path(__file__).resolve().parents[2] / "reference_players/priemspel/basis.py").read_bytes()
    for setting, expected in (("1", "2"), ("0", "0"), ("1", "2")):
        monkeypatch.setenv("HARNESS_SECCOMP", setting)
        record = play_match(game, [STATUS_BOT, basis], seed=1, limits=Limits(isolation=mode))
        assert [p.verdict for p in record.players] == [Verdict.OK, Verdict.OK], record.players[0].reason
        assert record.players[0].stdout == f"seccomp {expected}\n", (setting, record.players[0].stdout)
