class Player:
    def __init__(self, name):
        self.name = name

    def zet(self, spel):
        n = 0
        while True:
            n += 1
