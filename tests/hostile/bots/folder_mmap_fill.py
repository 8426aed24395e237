"""Fills 8 files of 15 MiB through shared memory maps (no write() call at all), saying how far it got."""
import mmap
import os


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
        size = 15 << 20
        page = b"x" * mmap.PAGESIZE
        for i in range(8):
            fd = os.open("map-%d" % i, os.O_RDWR | os.O_CREAT, 0o600)
            os.ftruncate(fd, size)
            with mmap.mmap(fd, size) as m:
                for offset in range(0, size, mmap.PAGESIZE):
                    m[offset:offset + mmap.PAGESIZE] = page
            os.close(fd)
            os.write(1, b"%d\n" % (15 * (i + 1)))
        return step(spel)
