"""A bot name of lone surrogates and terminal escapes."""


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
        self.playerName = "\udcff\x1b]0;pwned\x07\x1b[2J\x9b31m winner"

    def zet(self, spel):
        pass
        return step(spel)
