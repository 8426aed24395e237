class Player:
    def __init__(self, name):
        self.name = name

    def zet(self, spel):
        self.hog = bytearray(4 << 30)
        return 2
