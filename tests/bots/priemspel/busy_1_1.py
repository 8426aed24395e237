import time


class Player:
    """Computes for 1.1 s on its first move: must always be flagged."""

    def __init__(self, name):
        self.name = name

    def burn(self, seconds):
        end = time.perf_counter() + seconds
        while time.perf_counter() < end:
            pass

    def zet(self, spel):
        self.burn(1.1)
        for stap in range(1, spel.N + 1):
            n = spel.positie + stap
            if n > 1 and all(n % i for i in range(2, int(n ** 0.5) + 1)):
                return stap
        return 1
