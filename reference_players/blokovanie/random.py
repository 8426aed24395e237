"""BLOKOVANIE reference player "random": random strategy (D).

It plays a uniformly random free cell (each free cell equally likely),
drawn with the module-level random generator, which the harness seeds for
every game.
"""

import random


class Player:
    """Plays a uniformly random free cell."""

    def __init__(self, name):
        self.name = name

    def move(self, board):
        free = []
        for row in range(len(board)):
            for col in range(len(board[row])):
                if board[row][col] == '-':
                    free.append((row, col))
        if not free:
            return (0, 0)  # no free cell: the game is over, never asked then
        return random.choice(free)
