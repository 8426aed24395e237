"""Replaces __new__ on its bot API class (Spel): the hook reads a file and starts threads wherever it runs."""
import threading
import time

import priemspel


def step(spel):
    """The smallest legal step (the seed's basic strategy)."""
    for k in range(1, spel.N + 1):
        n = spel.positie + k
        if n > 1 and all(n % i for i in range(2, int(n ** 0.5) + 1)):
            return k
    return 1


def hook(cls, *args, **kwargs):
    place = "bot" if threading.current_thread() is threading.main_thread() else "worker's"
    print("__new__ hook ran on the", place, "thread", flush=True)
    try:
        open("/etc/hostname").read()
    except Exception:
        pass
    for _ in range(10):
        try:
            threading.Thread(target=time.sleep, args=(30,), daemon=True).start()
        except Exception:
            pass
    return object.__new__(cls)


class Player:
    def __init__(self, name):
        self.name = name

    def zet(self, spel):
        priemspel.Spel.__new__ = hook
        return step(spel)
