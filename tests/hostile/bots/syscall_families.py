"""Disarms the guard, then tries every kind of system call the seccomp filter refuses, for real,
and prints what the kernel answered (an errno, or "ok" had it worked); then plays on, legally."""
import json
import os
import sys


def disarm():
    sys.meta_path[:] = [f for f in sys.meta_path if type(f).__name__ != "_ImportPolicy"]  # its import policy too
    for frame in sys._current_frames().values():
        while frame is not None:
            guard = getattr(frame.f_locals.get("self"), "guard", None)
            if guard is not None:
                guard.armed = False
                return True
            frame = frame.f_back
    return False


def step(spel):
    """The smallest legal step (the seed's basic strategy)."""
    for k in range(1, spel.N + 1):
        n = spel.positie + k
        if n > 1 and all(n % i for i in range(2, int(n ** 0.5) + 1)):
            return k
    return 1


X86 = os.uname().machine == "x86_64"


def nr(x86, arm):
    return x86 if X86 else arm


def attacks():
    import ctypes
    import socket

    libc = ctypes.CDLL(None, use_errno=True)
    libc.syscall.restype = ctypes.c_long
    out = {}

    def sys_call(name, number, *args):
        ctypes.set_errno(0)
        result = libc.syscall(ctypes.c_long(number), *(ctypes.c_long(a) for a in args))
        if result == 0 and name.startswith("clone"):
            os._exit(0)  # a child it should never have had
        out[name] = ctypes.get_errno() if result == -1 else "ok"

    def py(name, action):
        try:
            action()
            out[name] = "ok"
        except OSError as exc:
            out[name] = exc.errno

    ipc_creat = 0o1000
    sys_call("shmget", nr(29, 194), 0x48415231, 64 << 20, ipc_creat | 0o666)
    sys_call("msgget", nr(68, 186), 0x48415232, ipc_creat | 0o666)
    sys_call("semget", nr(64, 190), 0x48415233, 1, ipc_creat | 0o666)
    fd = os.open("falloc", os.O_CREAT | os.O_WRONLY, 0o600)
    py("fallocate", lambda: os.posix_fallocate(fd, 0, 1 << 30))
    os.close(fd)
    py("udp", lambda: socket.socket(socket.AF_INET, socket.SOCK_DGRAM).sendto(b"x", ("127.0.0.1", 9)))
    py("raw", lambda: socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_ICMP))
    py("netlink", lambda: socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, 0))
    py("packet", lambda: socket.socket(socket.AF_PACKET, socket.SOCK_RAW, 0))
    py("unix path connect", lambda: socket.socket(socket.AF_UNIX).connect("/run/dbus/system_bus_socket"))
    py("unix dgram pair", lambda: socket.socketpair(socket.AF_UNIX, socket.SOCK_DGRAM))
    params = ctypes.create_string_buffer(120)
    sys_call("io_uring_setup", 425, 8, ctypes.addressof(params))
    sys_call("ptrace attach", nr(101, 117), 16, os.getppid(), 0, 0)
    buf = ctypes.create_string_buffer(8)
    iov = (ctypes.c_void_p * 2)(ctypes.addressof(buf), 8)
    sys_call("process_vm_readv", nr(310, 270), os.getppid(), ctypes.addressof(iov), 1, ctypes.addressof(iov), 1, 0)
    sys_call("bpf", nr(321, 280), 0, 0, 0)
    attr = ctypes.create_string_buffer(128)
    ctypes.memmove(attr, (1).to_bytes(4, "little") + (128).to_bytes(4, "little"), 8)  # software, size
    sys_call("perf_event_open", nr(298, 241), ctypes.addressof(attr), 0, -1, -1, 0)
    sys_call("userfaultfd", nr(323, 282), 0)
    sys_call("add_key", nr(248, 217), ctypes.addressof(ctypes.create_string_buffer(b"user")),
             ctypes.addressof(ctypes.create_string_buffer(b"collude")), 0, 0, -2)
    sys_call("keyctl", nr(250, 219), 0, -2, 0)
    tmpfs = ctypes.addressof(ctypes.create_string_buffer(b"tmpfs"))
    sys_call("mount", nr(165, 40), tmpfs, ctypes.addressof(ctypes.create_string_buffer(os.getcwd().encode())),
             tmpfs, 0, 0)
    sys_call("fsopen", 430, tmpfs, 0)
    sys_call("unshare user", nr(272, 97), 0x10000000)
    sys_call("setns", nr(308, 268), os.open("/proc/self/ns/net", os.O_RDONLY), 0)
    sys_call("clone newuser", nr(56, 220), 0x10000000 | 17, 0, 0, 0, 0)
    sys_call("clone3", 435, 0, 0)
    sys_call("kexec_load", nr(246, 104), 0, 0, 0, 0)
    sys_call("init_module", nr(175, 105), 0, 0, 0)
    sys_call("swapon", nr(167, 224), ctypes.addressof(ctypes.create_string_buffer(b"falloc")), 0)
    sys_call("reboot", nr(169, 142), 0xFEE1DEAD, 672274793, 0, 0)  # LINUX_REBOOT_CMD_CAD_OFF
    sys_call("acct", nr(163, 89), ctypes.addressof(ctypes.create_string_buffer(b"falloc")))
    sys_call("personality", nr(135, 92), 0x0040000)  # ADDR_NO_RANDOMIZE
    with open("/proc/self/status") as f:
        out["seccomp mode"] = f.read().split("Seccomp:")[1].split()[0]
    return out


class Player:
    def __init__(self, name):
        self.name = name

    def zet(self, spel):
        if not getattr(self, "done", False):
            self.done = True
            disarm()
            print(json.dumps(attacks()), flush=True)
        return step(spel)
