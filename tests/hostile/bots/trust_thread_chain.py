"""Each thread starts the next one before it sleeps: a chain of threads, none started by the bot's call itself."""
import threading
import time


def step(spel):
    """The smallest legal step (the seed's basic strategy)."""
    for k in range(1, spel.N + 1):
        n = spel.positie + k
        if n > 1 and all(n % i for i in range(2, int(n ** 0.5) + 1)):
            return k
    return 1


def link(n):
    if n:
        threading.Thread(target=link, args=(n - 1,), daemon=True).start()
    time.sleep(30)


class Player:
    def __init__(self, name):
        self.name = name

    def zet(self, spel):
        threading.Thread(target=link, args=(20,), daemon=True).start()
        time.sleep(0.2)
        return step(spel)
