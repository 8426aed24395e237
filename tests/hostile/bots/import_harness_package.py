"""Imports the harness itself to reach its internals."""


def step(spel):
    """The smallest legal step (the seed's basic strategy)."""
    for k in range(1, spel.N + 1):
        n = spel.positie + k
        if n > 1 and all(n % i for i in range(2, int(n ** 0.5) + 1)):
            return k
    return 1


class Player:
    def __init__(self, name):
        self.name = name

    def zet(self, spel):
        import harness.sandbox.bot.worker
        return step(spel)
