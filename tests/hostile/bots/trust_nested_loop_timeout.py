"""Spins in nested loops inside a helper: Python 3.11 gives the loop's back edge no line number."""


def step(spel):
    """The smallest legal step (the seed's basic strategy)."""
    for k in range(1, spel.N + 1):
        n = spel.positie + k
        if n > 1 and all(n % i for i in range(2, int(n ** 0.5) + 1)):
            return k
    return 1


def check_touch(grid, n):
    while True:
        for r in range(n):
            for c in range(n):
                if grid[r][c] and r > c:
                    break


class Player:
    def __init__(self, name):
        self.name = name

    def zet(self, spel):
        check_touch([[0] * 50 for _ in range(50)], 50)
        return step(spel)
