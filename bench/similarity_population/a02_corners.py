"""Corners first, then edges, then whatever is left, nearest the top-left."""


class Player:

    def __init__(self, name):
        self.name = name
        self.turn = 0

    def is_free(self, board, r, c):
        return 0 <= r < len(board) and 0 <= c < len(board[0]) and board[r][c] == '-'

    def corners(self, board):
        h, w = len(board), len(board[0])
        return [(0, 0), (0, w - 1), (h - 1, 0), (h - 1, w - 1)]

    def edges(self, board):
        h, w = len(board), len(board[0])
        out = []
        for c in range(w):
            out.append((0, c))
            out.append((h - 1, c))
        for r in range(1, h - 1):
            out.append((r, 0))
            out.append((r, w - 1))
        return out

    def move(self, board):
        self.turn += 1
        for r, c in self.corners(board):
            if self.is_free(board, r, c):
                return (r, c)
        for r, c in self.edges(board):
            if self.is_free(board, r, c):
                return (r, c)
        for r in range(len(board)):
            for c in range(len(board[0])):
                if self.is_free(board, r, c):
                    return (r, c)
        return (0, 0)
