"""Writes 480 MiB into its working folder, in files under the 16 MiB file-size cap, saying how far it got."""
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
        chunk = b"x" * (1 << 20)
        written = 0
        for i in range(32):
            with open("fill-%d" % i, "wb", buffering=0) as f:
                for _ in range(15):
                    f.write(chunk)
                    written += 1
                    os.write(1, b"%d\n" % written)  # unbuffered: the parent keeps it even if it kills us
        return step(spel)
