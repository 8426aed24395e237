"""A legal player.py made about 4 MiB by one list literal (the test fills @TABLE@): parsing it takes
2 GB and 10 s of CPU, so the harness must parse it in a capped child, once, never in its own process."""

TABLE = [@TABLE@]


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
        return step(spel)
