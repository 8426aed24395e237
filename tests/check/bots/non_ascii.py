# Plays like the basic strategy, but this comment has a non-ASCII letter: Štreky forbids it.
import socket


class Player:
    def __init__(self, name):
        self.name = name

    def zet(self, spel):
        return 2
