"""An honest bot that needs 250 MiB on its first move (well under its own memory cap): on a host
(here: a cgroup around the whole game) short of memory, the kernel's OOM killer picks it."""
import time


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
            table = b"x" * (250 << 20)  # every page touched
            time.sleep(0.2)
            del table
        return step(spel)
