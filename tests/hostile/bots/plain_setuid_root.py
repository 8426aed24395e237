"""Tries to become root again (os.setuid(0)) after the harness dropped it to another uid."""
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
        try:
            os.setuid(0)
            print("uid", os.getuid())
        except OSError:  # EPERM as an ordinary user; EINVAL where uid 0 does not exist (user namespace)
            pass
        return step(spel)
