"""Answers a string of terminal escapes and a lone surrogate instead of a number of squares."""


class Player:
    def __init__(self, name):
        self.name = name

    def zet(self, spel):
        return "\x1b[2J\x1b]0;pwned\x07\ud800\x9b"
