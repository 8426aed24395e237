"""Clovece reference player "eager" (the seed's EagerPlayer): as many pieces out as possible.

In this order: it moves its piece off its start cell (so the next one can come out), captures
an opponent's piece, brings a piece out of the stable; if none of these is possible (all its
pieces are out and nobody can be captured) it picks a random valid move.
"""

import random

from clovece import BasePlayer


class Player(BasePlayer):
    """Clears the start, captures, brings pieces out; else random."""

    def get_move(self, roll):
        moves = self.get_valid_moves(roll)
        planned = [self.prepare_targets([move])[0] for move in moves]
        for piece, target in planned:
            if piece.get_position() == 0:
                return [(piece, target)]
        for piece, target in planned:
            if target < 40:
                other = self.board.board[self.board.normalize_position(target, self.color)]
                if other is not None and other.get_color() != self.color:
                    return [(piece, target)]
        for piece, target in planned:
            if piece.get_position() is None:
                return [(piece, target)]
        return [random.choice(planned)]
