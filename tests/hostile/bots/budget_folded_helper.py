"""A legal player.py that imports its own module helper.py, a chain of 1330 string additions of
'a'*4096 (the test adds it): the door compiles what player.py imports, and the cap names helper.py."""

import helper


def step(spel):
    """The smallest legal step (the seed's basic strategy)."""
    for k in range(1, spel.N + 1):
        n = spel.positie + k
        if n > 1 and all(n % i for i in range(2, int(n ** 0.5) + 1)):
            return k
    return 1


class Player:
    def __init__(self, name):
        self.name = helper.__name__ + name

    def zet(self, spel):
        return step(spel)
