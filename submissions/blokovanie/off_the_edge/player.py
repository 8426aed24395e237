# Sample submission (broken): counts columns from 1, as a person would, so on a free cell in the
# last column it answers a column off the board (an illegal move).


class Player:
    def __init__(self, name):
        self.name = name

    def move(self, board):
        for r in range(len(board) - 1, -1, -1):
            for c in range(len(board[r]) - 1, -1, -1):
                if board[r][c] == '-':
                    return (r, c + 1)
        return (0, 0)
