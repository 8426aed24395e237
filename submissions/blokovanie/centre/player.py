# Sample submission (correct): plays the free cell closest to the centre of the board.


class Player:
    def __init__(self, name):
        self.name = name

    def move(self, board):
        rows, cols = len(board), len(board[0])
        free = [(r, c) for r in range(rows) for c in range(cols) if board[r][c] == '-']
        centre = ((rows - 1) / 2, (cols - 1) / 2)
        return min(free, key=lambda rc: (abs(rc[0] - centre[0]) + abs(rc[1] - centre[1]), rc))
