import time


class Player:
    def __init__(self, name):
        self.name = name

    def zet(self, spel):
        time.sleep(30)
        return 2
