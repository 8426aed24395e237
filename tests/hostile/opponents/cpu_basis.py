"""The seed's basic strategy, computing 0.25 s of CPU per move: a legal bot a cheat wants to slow down.

Each move prints ``turn <start> <end>`` (wall-clock times): the windows in which the opponent
computes, where a frozen cheat's processes must not run.
"""
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
        began = time.time()
        start = time.process_time()
        while time.process_time() - start < 0.25:
            pass
        print("turn %.6f %.6f" % (began, time.time()), flush=True)
        return step(spel)
