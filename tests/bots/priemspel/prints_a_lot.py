import sys


class Player:
    """Plays legally but writes 4 MB to stdout and stderr on every move."""

    def __init__(self, name):
        print("hello from the constructor")

    def zet(self, spel):
        print("x" * (2 << 20))
        sys.stderr.write("e" * (2 << 20))
        for stap in range(1, spel.N + 1):
            n = spel.positie + stap
            if n > 1 and all(n % i for i in range(2, int(n ** 0.5) + 1)):
                return stap
        return 1
