"""Clovece reference player "mean" (the seed's MeanPlayer): captures whenever it can.

If a valid move lands on an opponent's piece it takes it (the first such move in piece order);
otherwise it picks a random valid move.
"""

import random

from clovece import BasePlayer


class Player(BasePlayer):
    """Captures if possible, else moves at random."""

    def get_move(self, roll):
        moves = self.get_valid_moves(roll)
        for move in moves:
            piece, target = self.prepare_targets([move])[0]
            if target < 40:
                other = self.board.board[self.board.normalize_position(target, self.color)]
                if other is not None and other.get_color() != self.color:
                    return [(piece, target)]
        return self.prepare_targets([random.choice(moves)])
