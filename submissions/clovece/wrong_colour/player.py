# Sample submission (broken): once a piece of its own has left the stable it sometimes answers
# with the piece of the player on its left instead (a piece it does not own: an illegal move).
import random

from clovece import BasePlayer

COLORS = ["black", "yellow", "green", "red"]


class Player(BasePlayer):
    def get_move(self, roll):
        moves = self.get_valid_moves(roll)
        piece, target = self.prepare_targets([random.choice(moves)])[0]
        if piece.position is not None and random.random() < 0.2:
            left = COLORS[(COLORS.index(self.color) + 3) % 4]
            piece = self.board.get_pieces(left)[0]
        return [(piece, target)]
