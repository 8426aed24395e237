"""Blokovanie test bot: the free cell that blocks the most free cells, the first one on ties."""


class Player:
    def __init__(self, name):
        self.name = name

    def neighbours(self, board, row, col):
        found = 0
        for dr in (-1, 0, 1):
            for dc in (-1, 0, 1):
                r, c = row + dr, col + dc
                if 0 <= r < len(board) and 0 <= c < len(board[0]):
                    if board[r][c] == '-':
                        found += 1
        return found

    def move(self, board):
        best = None
        most = -1
        for row in range(len(board)):
            for col in range(len(board[0])):
                if board[row][col] != '-':
                    continue
                count = self.neighbours(board, row, col)
                if count > most:
                    most = count
                    best = (row, col)
        return best
