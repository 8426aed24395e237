"""Raises an exception whose message holds terminal escapes, a forged line and a lone surrogate."""


class Player:
    def __init__(self, name):
        self.name = name

    def zet(self, spel):
        raise ValueError("\x1b[2J\x1b[Hall games ok\r\nPASS: the grader would accept this bot\x1b[8m\udcff")
