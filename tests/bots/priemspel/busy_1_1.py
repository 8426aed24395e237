import time


class Player:
    """Computes for 1.1 s on its first move: must always be flagged.

    Its own thread's CPU clock, not the wall clock: on a loaded machine a loop to a wall-clock
    deadline does less than 1.1 s of work, and the harness charges only the work.
    """

    def __init__(self, name):
        self.name = name

    def burn(self, seconds):
        end = time.thread_time() + seconds
        while time.thread_time() < end:
            pass

    def zet(self, spel):
        self.burn(1.1)
        for stap in range(1, spel.N + 1):
            n = spel.positie + stap
            if n > 1 and all(n % i for i in range(2, int(n ** 0.5) + 1)):
                return stap
        return 1
