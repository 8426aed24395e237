import sys


class Player:
    def __init__(self, name):
        self.name = name

    def zet(self, spel):
        sys.exit(3)
