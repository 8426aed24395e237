class Player:
    """Plays legally twice, then fails with an IndexError."""

    def __init__(self, name):
        self.calls = 0

    def zet(self, spel):
        self.calls += 1
        if self.calls == 3:
            return [][0]
        for stap in range(1, spel.N + 1):
            n = spel.positie + stap
            if n > 1 and all(n % i for i in range(2, int(n ** 0.5) + 1)):
                return stap
        return 1
