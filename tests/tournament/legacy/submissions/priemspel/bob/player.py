"""PriemSpel reference player: the seed's basic strategy (``Speler``): the smallest legal step."""


def priem(n):
    """True if n is prime (the seed's helper)."""
    if n < 2:
        return False
    for i in range(2, int((n ** 0.5) + 1)):
        if n % i == 0:
            return False
    return True


class Player:
    """Moves the pawn forward by the smallest number of squares that lands on a prime."""

    def __init__(self, name):
        self.name = name

    def zet(self, spel):
        for stap in range(1, spel.N + 1):
            if priem(spel.positie + stap):
                return stap
        return 1
