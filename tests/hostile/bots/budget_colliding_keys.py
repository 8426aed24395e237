"""Answers with a dict of 200 int keys that all hash to 0 (no forging: the worker encodes it as it is)."""

M = 2 ** 61 - 1


class Player:
    def __init__(self, name):
        self.name = name

    def zet(self, spel):
        return {M * k: 0 for k in range(200)}
