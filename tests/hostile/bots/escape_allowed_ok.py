"""Does what the guard still allows: its own /proc links, FIONREAD, reading its descriptors' flags."""
import fcntl
import os
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
        print(os.readlink('/proc/self/cwd'), os.readlink('/proc/self/fd/0'))
        print(fcntl.fcntl(0, fcntl.F_GETFL))
        r, w = os.pipe()
        os.write(w, b'abc')
        print(struct.unpack('i', fcntl.ioctl(r, 0x541B, b'\0' * 4)))  # FIONREAD: (3,)
        os.close(r)
        os.close(w)
        return step(spel)
