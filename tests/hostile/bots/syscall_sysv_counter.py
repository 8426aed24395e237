"""Disarms the guard, then tries to keep a counter in SysV shared memory across games (and
uids and harness processes), to pass a message to the other seat through a SysV message queue,
and to hold 64 MiB of shared memory past the game; prints what it got, then plays on."""
import json
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


IPC_CREAT, KEY = 0o1000, 0x4841524E


def sysv():
    import ctypes  # once the guard is disarmed

    libc = ctypes.CDLL(None, use_errno=True)
    libc.shmat.restype = ctypes.c_void_p
    out = {}
    shm = libc.shmget(KEY, 4096, IPC_CREAT | 0o666)
    out["shmget"] = ctypes.get_errno() if shm < 0 else "ok"
    if shm >= 0:
        at = libc.shmat(shm, None, 0)
        if at not in (None, ctypes.c_void_p(-1).value):
            counter = ctypes.c_int.from_address(at)
            counter.value += 1
            out["counter"] = counter.value
    big = libc.shmget(KEY + 1, 64 << 20, IPC_CREAT | 0o666)  # would outlive the game
    out["shmget 64 MiB"] = ctypes.get_errno() if big < 0 else "ok"
    queue = libc.msgget(KEY + 2, IPC_CREAT | 0o666)
    out["msgget"] = ctypes.get_errno() if queue < 0 else "ok"
    if queue >= 0:
        message = ctypes.create_string_buffer(8 + 16)
        ctypes.memmove(message, (1).to_bytes(8, "little") + b"my move is 3", 20)
        out["msgsnd"] = "ok" if libc.msgsnd(queue, message, 16, 0o4000) == 0 else ctypes.get_errno()
        got = libc.msgrcv(queue, message, 16, 0, 0o4000)  # IPC_NOWAIT: the other seat's, if any
        out["msgrcv"] = message.raw[8:8 + got].decode(errors="replace") if got >= 0 else ctypes.get_errno()
    sem = libc.semget(KEY + 3, 1, IPC_CREAT | 0o666)
    out["semget"] = ctypes.get_errno() if sem < 0 else "ok"
    return out


class Player:
    def __init__(self, name):
        self.name = name

    def zet(self, spel):
        if not getattr(self, "done", False):
            self.done = True
            disarm()
            print(json.dumps(sysv()), flush=True)
        return step(spel)
