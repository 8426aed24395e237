"""Clovece reference player "safe" (the seed's SafePlayer): one piece home as soon as possible.

It always moves the piece closest to completing its round of the track. A 6 with a piece in
the stable and the start cell free brings that piece out (get_valid_moves offers nothing else).
Pieces already in the home move only when no piece on the track can; stable pieces come last.
"""

from clovece import BasePlayer


class Player(BasePlayer):
    """Moves the valid piece that is furthest along the track."""

    def get_move(self, roll):
        def closeness(move):
            piece = move[0]
            if piece.get_position() is None:
                return -2
            if piece.is_done():
                return -1
            return piece.get_position()

        best = max(self.get_valid_moves(roll), key=closeness)
        return self.prepare_targets([best])
