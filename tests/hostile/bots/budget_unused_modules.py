"""A legal player.py sent with 20 small modules it never imports (the test adds mod00.py ...
mod19.py, each a chain of 400 string additions of 'a'*4096: 330 MB and about half a second to
compile each). The harness used to compile all 20 in its own process (17 s of CPU); the door
compiles only what player.py imports and parses the rest, so the bot plays, ok."""


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
