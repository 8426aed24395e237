"""A legal player.py of about 200 KB holding a tuple of 16,000 distinct strings written as
'00042'*819 (the test writes them out): each folds to 4,095 characters, so its bytecode is about
65 MB. The harness used to compile it in its own process, write the pyc into every game's folder
and, the pyc being larger than its cache, compile it again for every game; the door caps the
bytecode (8 MiB), and the bot is forbidden."""

WORDS = (@TUPLE@)


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
