# Sample submission (correct): moves the piece furthest along that can move, and brings a
# piece out whenever it can (get_valid_moves forces that when the start is free).
from clovece import BasePlayer


class Player(BasePlayer):
    def get_move(self, roll):
        moves = self.get_valid_moves(roll)

        def progress(move):
            piece = move[0]
            return -1 if piece.position is None else piece.position

        return self.prepare_targets([max(moves, key=progress)])
