"""A garbage-collector callback, run by whichever thread collects: on the worker's clock thread it reads a file.

The worker's clock thread (any thread but the bot's own: it starts none) allocates when it
reports a timeout, so the bot computes past its limit to make it collect there.
"""
import gc
import threading


def step(spel):
    """The smallest legal step (the seed's basic strategy)."""
    for k in range(1, spel.N + 1):
        n = spel.positie + k
        if n > 1 and all(n % i for i in range(2, int(n ** 0.5) + 1)):
            return k
    return 1


OWN = []  # the bot's own thread, which runs its calls


def callback(phase, info):
    if OWN and threading.get_ident() != OWN[0]:
        try:
            open("/etc/hostname").read()
        except Exception:
            pass


class Player:
    def __init__(self, name):
        self.name = name
        OWN.append(threading.get_ident())
        gc.callbacks.append(callback)
        gc.set_threshold(1)  # collect at nearly every allocation: the worker's clock thread allocates too

    def zet(self, spel):
        while True:  # past the limit, allocating nothing: only the worker's clock thread collects
            pass
