import time


class Player:
    """Computes for 0.9 s of every move (and its constructor): must never be flagged."""

    def __init__(self, name):
        self.burn(0.9)

    def burn(self, seconds):
        end = time.perf_counter() + seconds
        while time.perf_counter() < end:
            pass

    def zet(self, spel):
        self.burn(0.9)
        for stap in range(1, spel.N + 1):
            n = spel.positie + stap
            if n > 1 and all(n % i for i in range(2, int(n ** 0.5) + 1)):
                return stap
        return 1
