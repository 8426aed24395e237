"""Preallocates 2 GiB four times over (posix_fallocate: disk held without a byte written), in
files it keeps; prints what each call did, then plays on."""
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
            for i in range(4):
                fd = os.open("burst-%d" % i, os.O_CREAT | os.O_RDWR, 0o600)
                try:
                    os.posix_fallocate(fd, 0, 2 << 30)
                    print("burst", i, "allocated", os.fstat(fd).st_blocks * 512 >> 20, "MiB", flush=True)
                except OSError as exc:
                    print("burst", i, "errno", exc.errno, flush=True)
        return step(spel)
