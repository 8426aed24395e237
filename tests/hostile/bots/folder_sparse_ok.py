"""Uses its folder as a legal bot may: a 15 MiB sparse file (one byte written), a hard link, small files."""
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
            with open("sparse", "wb") as f:
                f.seek(15 << 20)
                f.write(b"x")
            with open("cache", "wb") as f:
                f.write(b"y" * (8 << 20))
            os.link("cache", "cache-link")  # counted once
        with open("moves", "a") as f:
            f.write("%d\n" % spel.positie)
        return step(spel)
