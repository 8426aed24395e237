"""Gives its bot API class a __del__ that reports the thread it runs on and reads a file there."""
import threading

import priemspel


def step(spel):
    """The smallest legal step (the seed's basic strategy)."""
    for k in range(1, spel.N + 1):
        n = spel.positie + k
        if n > 1 and all(n % i for i in range(2, int(n ** 0.5) + 1)):
            return k
    return 1


OWN = []  # the bot's own thread, which runs its calls


def finalizer(self):
    if threading.get_ident() != OWN[0]:
        print("__del__ ran on the worker's thread", flush=True)
        try:
            open("/etc/hostname").read()
        except Exception:
            pass


class Player:
    def __init__(self, name):
        self.name = name
        OWN.append(threading.get_ident())

    def zet(self, spel):
        priemspel.Spel.__del__ = finalizer
        return step(spel)
