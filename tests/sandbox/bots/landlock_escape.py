"""Disarms the harness's guard, then tries what only the kernel stops in the container tier:
@ACTION@ (read a world-readable file outside its folders, write into a world-writable folder,
connect to a TCP listener on 127.0.0.1, connect to an abstract unix socket of the host)."""
import os
import socket


def disarm():
    import sys
    for frame in sys._current_frames().values():
        while frame is not None:
            guard = getattr(frame.f_locals.get("self"), "guard", None)
            if guard is not None:
                guard.armed = False
                return True
            frame = frame.f_back
    return False


def escape(action):
    if action == "read":
        with open("@PUBLIC@") as f:
            return f.read()
    if action == "write":
        with open(os.path.join("@OPEN_FOLDER@", "planted.txt"), "w") as f:
            f.write("planted")
        return "written"
    if action == "tcp":
        socket.create_connection(("127.0.0.1", @PORT@), timeout=2).close()
        return "connected"
    if action == "abstract":
        s = socket.socket(socket.AF_UNIX)
        s.connect("\0@ABSTRACT@")
        s.close()
        return "connected"
    if action == "uid":
        return "uid %d" % os.getuid()
    raise ValueError(action)


def step(spel):
    """The smallest legal step (the seed's basic strategy)."""
    for k in range(1, spel.N + 1):
        n = spel.positie + k
        if n > 1 and all(n % i for i in range(2, int(n ** 0.5) + 1)):
            return k
    return 1


class Player:
    def __init__(self, name):
        self.name = name

    def zet(self, spel):
        if not getattr(self, "done", False):
            self.done = True
            assert disarm()
            print("got:", escape("@ACTION@"), flush=True)
        return step(spel)
