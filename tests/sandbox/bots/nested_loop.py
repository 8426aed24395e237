class Player:
    def __init__(self, name):
        self.name = name

    def zet(self, spel):
        return self.search(4)

    def search(self, depth):
        best = 0
        for a in range(10 ** 12):
            for b in range(depth):
                best = max(best, a * b)
        return best
