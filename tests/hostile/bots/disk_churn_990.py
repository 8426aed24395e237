"""Keeps 990 entries in its working folder and rewrites 1 MiB over and over for a while in each
of its first moves: every rewrite once made the parent walk the whole folder (the control
game's copy keeps the same entries and spins as long without writing)."""
import os
import time

ENTRIES = 990
CHURN = 0.3  # seconds per move
REWRITE = True  # (the control game's copy waits as long without writing)
MOVES = 4


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
        self.moves = 0

    def zet(self, spel):
        if self.moves == 0:
            for i in range(ENTRIES - 1):
                open("e%d" % i, "w").close()
        if self.moves < MOVES:
            chunk = b"y" * (1 << 20)
            end = time.perf_counter() + CHURN
            while time.perf_counter() < end:
                if REWRITE:
                    with open("big", "wb") as f:
                        f.write(chunk)
        self.moves += 1
        return step(spel)
