"""Leaves a 3,000-deep chain of folders in its working folder, built by renames (never a long
path), so that a recursive removal raises RecursionError; then plays legally."""
import os

os.mkdir("d")
for _ in range(3000):
    os.mkdir("n")
    os.rename("d", "n/d")
    os.rename("n", "d")


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
        return step(spel)
