"""A legal Quoridor player whose opponent_move returns a dict of 6,000 int keys all hashing to 0.

The answer of opponent_move is ignored by the game: the parent must not decode it. The dict is
built once, at import (quadratic, on the bot's own clock), and sent back every turn.
"""
from runner import Player as Runner

M = 2 ** 61 - 1
COLLIDING = {M * k: 0 for k in range(6_000)}


class Player(Runner):
    def opponent_move(self, moveType, result):
        super().opponent_move(moveType, result)
        return COLLIDING
