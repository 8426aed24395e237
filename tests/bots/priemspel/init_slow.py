import time


class Player:
    def __init__(self, name):
        end = time.thread_time() + 3
        while time.thread_time() < end:
            pass

    def zet(self, spel):
        for stap in range(1, spel.N + 1):
            n = spel.positie + stap
            if n > 1 and all(n % i for i in range(2, int(n ** 0.5) + 1)):
                return stap
        return 1
