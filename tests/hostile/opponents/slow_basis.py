"""The seed's basic strategy, thinking (sleeping) 0.4 s per move: time for a cheat to use."""
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
        time.sleep(0.4)
        return step(spel)
