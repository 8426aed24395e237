class Player:
    def __init__(self, name):
        self.name = name

    def zet(self, spel):
        return "2"
