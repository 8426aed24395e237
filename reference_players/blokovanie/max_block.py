"""BLOKOVANIE reference player "max_block": maximal blocking strategy (E).

For every free cell it counts the free cells that a move there would block:
the cell itself and its free neighbours, diagonals included, clipped at the
board's edges. It plays the cell with the largest count. Ties go to the
first such cell in row-major order (row by row, each row left to right), so
the player is deterministic.
"""


class Player:
    """Plays the free cell that blocks the most free cells (first on ties)."""

    def __init__(self, name):
        self.name = name

    def blocked_by(self, board, row, col):
        """How many free cells a move at (row, col) would block."""
        count = 0
        for r in range(max(0, row - 1), min(len(board), row + 2)):
            for c in range(max(0, col - 1), min(len(board[r]), col + 2)):
                if board[r][c] == '-':
                    count += 1
        return count

    def move(self, board):
        best, best_count = (0, 0), -1
        for row in range(len(board)):
            for col in range(len(board[row])):
                if board[row][col] == '-':
                    count = self.blocked_by(board, row, col)
                    # Strictly more: the first cell keeps a tie.
                    if count > best_count:
                        best, best_count = (row, col), count
        return best
