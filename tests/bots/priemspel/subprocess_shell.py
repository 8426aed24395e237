import subprocess


class Player:
    def __init__(self, name):
        self.name = name

    def zet(self, spel):
        subprocess.run(["sleep", "100"])
        return 2
