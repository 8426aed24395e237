"""Holds disk that no folder shows: 40 MiB in files it maps, closes and unlinks, then files
unlinked while open, written towards 768 MiB (each MiB reported, unbuffered, as it goes)."""
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
        if not getattr(self, "done", False):
            self.done = True
            chunk = b"x" * (1 << 20)
            self.held = []
            for i in range(4):  # 4 x 10 MiB (each file under the cap on one file's size)
                with open("mapped-%d" % i, "w+b") as f:
                    for _ in range(10):
                        f.write(chunk)
                    f.flush()
                    self.held.append(mmap.mmap(f.fileno(), 0))
                os.unlink("mapped-%d" % i)  # held by the mapping alone
            written = 0
            for i in range(64):  # 64 x 12 MiB, each file unlinked while open
                fd = os.open("held-%d" % i, os.O_CREAT | os.O_RDWR, 0o600)
                os.unlink("held-%d" % i)  # held by the descriptor alone
                self.held.append(fd)
                for _ in range(12):
                    os.write(fd, chunk)
                    written += 1
                    os.write(1, b"%d\n" % written)
        return step(spel)
