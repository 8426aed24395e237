import random


class Player:
    """A correct bot: a random legal step (the sandbox seeds random, so games are reproducible)."""

    def __init__(self, name):
        self.name = name

    def zet(self, spel):
        stappen = [stap for stap in range(1, spel.N + 1) if self.priem(spel.positie + stap)]
        return random.choice(stappen)

    @staticmethod
    def priem(n):
        return n > 1 and all(n % i for i in range(2, int(n ** 0.5) + 1))
