"""The seed's basic strategy, computing 0.25 s of CPU per move: a legal bot a cheat wants to slow down."""
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
        while time.process_time() - start < 0.25:
            pass
        return step(spel)
