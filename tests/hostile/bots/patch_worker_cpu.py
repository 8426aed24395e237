"""Patches the worker: its CPU clock reads 0; then computes 3 s (the parent's clocks must still see it)."""
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
        worker = sys.modules['__main__']
        worker._cpu_clock = lambda: 0.0
        x = 0
        for i in range(300_000_000):
            x += i
        return step(spel)
