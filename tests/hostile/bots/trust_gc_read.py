"""A garbage-collector callback, run by whichever thread collects: on the main thread it reads a file.

The worker's main thread runs only the worker's clock and allocates when it reports a timeout,
so the bot computes past its limit to make it collect there.
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


def callback(phase, info):
    if threading.current_thread() is threading.main_thread():
        try:
            open("/etc/hostname").read()
        except Exception:
            pass


class Player:
    def __init__(self, name):
        self.name = name
        gc.callbacks.append(callback)
        gc.set_threshold(1)  # collect at nearly every allocation: the worker's main thread allocates too

    def zet(self, spel):
        while True:  # past the limit, allocating nothing: only the worker's main thread collects
            pass
