"""A legal player.py of about 12 KB whose BANNER is a chain of string additions (the test writes
it out: 1330 times 'a'*4096). CPython's optimiser folds it and keeps every intermediate string:
compiling it needs about 3.6 GB. The harness used to compile it in its own process (2.9 GB for a
7.9 KB one); the door compiles it in its capped child, and the cap makes it the bot's forbidden."""

BANNER = @CHAIN@


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
