"""A garbage-collector callback that starts threads when it runs on the worker's clock thread.

The worker's clock thread (any thread but the bot's own: it starts none) allocates when it
reports a timeout, so the bot computes past its limit to make it collect there.
"""
import gc
import threading
import time


def step(spel):
    """The smallest legal step (the seed's basic strategy)."""
    for k in range(1, spel.N + 1):
        n = spel.positie + k
        if n > 1 and all(n % i for i in range(2, int(n ** 0.5) + 1)):
            return k
    return 1


OWN = []  # the bot's own thread, which runs its calls


def callback(phase, info):
    if phase == "stop" and OWN and threading.get_ident() != OWN[0]:
        gc.callbacks.remove(callback)
        for _ in range(12):
            threading.Thread(target=time.sleep, args=(30,), daemon=True).start()


class Player:
    def __init__(self, name):
        self.name = name
        OWN.append(threading.get_ident())
        gc.callbacks.append(callback)
        gc.set_threshold(1)

    def zet(self, spel):
        while True:  # past the limit, allocating nothing: only the worker's clock thread collects
            pass
