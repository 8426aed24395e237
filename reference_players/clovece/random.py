"""Clovece reference player "random" (the seed's RandomPlayer): a random valid move."""

import random

from clovece import BasePlayer


class Player(BasePlayer):
    """Always picks one of the valid moves at random."""

    def get_move(self, roll):
        move = random.choice(self.get_valid_moves(roll))
        return self.prepare_targets([move])
