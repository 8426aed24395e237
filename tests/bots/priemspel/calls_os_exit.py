import os


class Player:
    def __init__(self, name):
        self.name = name

    def zet(self, spel):
        os._exit(3)
