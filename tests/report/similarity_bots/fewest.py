"""Blokovanie test bot: the free cell that blocks the fewest free cells (edges and corners first)."""


class Player:
    def __init__(self, name):
        self.name = name
        self.history = []

    def move(self, board):
        rows = len(board)
        cols = len(board[0])
        choice, least = None, 10
        for r in range(rows - 1, -1, -1):
            for c in range(cols):
                if board[r][c] == '-':
                    blocked = 0
                    for rr in range(max(r - 1, 0), min(r + 2, rows)):
                        for cc in range(max(c - 1, 0), min(c + 2, cols)):
                            blocked += board[rr][cc] == '-'
                    if blocked < least:
                        choice, least = (r, c), blocked
        self.history.append(choice)
        return choice
