"""BLOKOVANIE reference player "first_free": sequential strategy (C).

It scans the board row by row, each row from left to right, and plays the
first free cell it finds.
"""


class Player:
    """Plays the first free cell in row-major order."""

    def __init__(self, name):
        self.name = name

    def move(self, board):
        for row in range(len(board)):
            for col in range(len(board[row])):
                if board[row][col] == '-':
                    return (row, col)
        return (0, 0)  # no free cell: the game is over, never asked then
