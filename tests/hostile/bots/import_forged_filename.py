"""Imports a forbidden module from code compiled under a standard-library file name, as module-level code."""
import sys


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
        import os as _os
        fake = _os.path.join(_os.path.dirname(_os.__file__), "pathlib.py")
        exec(compile("import stat", fake, "exec"), vars(sys.modules["os"]))
        return step(spel)
