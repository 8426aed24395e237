"""Computes for 0.85 s of CPU time (its own process's clock) on every move."""
import time


def step(spel):
    for k in range(1, spel.N + 1):
        n = spel.positie + k
        if n > 1 and all(n % i for i in range(2, int(n ** 0.5) + 1)):
            return k
    return 1


class Player:
    def __init__(self, name):
        self.name = name

    def zet(self, spel):
        start = time.process_time()
        x = 0
        while time.process_time() - start < 0.85:
            for i in range(1000):
                x += i
        return step(spel)
