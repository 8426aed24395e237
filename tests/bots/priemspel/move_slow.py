import time


class Player:
    """Legal moves, but the second one takes 1.5 s of computing."""

    def __init__(self, name):
        self.calls = 0

    def zet(self, spel):
        self.calls += 1
        if self.calls == 2:
            end = time.thread_time() + 1.5
            while time.thread_time() < end:
                pass
        for stap in range(1, spel.N + 1):
            n = spel.positie + stap
            if n > 1 and all(n % i for i in range(2, int(n ** 0.5) + 1)):
                return stap
        return 1
