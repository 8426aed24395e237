"""A thread that reads a forbidden file after the call that started it has returned."""
import threading
import time


def step(spel):
    """The smallest legal step (the seed's basic strategy)."""
    for k in range(1, spel.N + 1):
        n = spel.positie + k
        if n > 1 and all(n % i for i in range(2, int(n ** 0.5) + 1)):
            return k
    return 1


def later():
    time.sleep(0.05)
    try:
        open("/etc/hostname").read()
    except Exception:
        pass


class Player:
    def __init__(self, name):
        self.name = name

    def zet(self, spel):
        threading.Thread(target=later, daemon=True).start()
        return step(spel)
