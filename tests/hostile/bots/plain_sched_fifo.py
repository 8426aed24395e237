"""Raises itself to the real-time scheduler (SCHED_FIFO) to starve everything else."""
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
        os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(50))
        return step(spel)
