class Player:
    """Plays legal steps, except that from square 3 it steps 3 squares (onto 6, not a prime)."""

    def __init__(self, name):
        self.name = name

    def zet(self, spel):
        if spel.positie == 3:
            return 3
        for stap in range(1, spel.N + 1):
            n = spel.positie + stap
            if n > 1 and all(n % i for i in range(2, int(n ** 0.5) + 1)):
                return stap
        return 1
