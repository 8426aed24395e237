class Player:
    def __init__(self, name):
        self.name = name

    def move(self, spel):
        return 2
