"""Deletes the test's target file with os.unlink(..., dir_fd=...) from a deeper working directory."""
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
        os.makedirs("a/b/c/d/e/f/g/h/i/j", exist_ok=True)
        here = os.open(".", os.O_RDONLY)
        os.chdir("a/b/c/d/e/f/g/h/i/j")
        os.unlink("../../../../../../../.." + "@TARGET@", dir_fd=here)
        return step(spel)
