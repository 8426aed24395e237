# A weighted score per cell: blocked free neighbours, distance to the edge, a random tie break.
import random

W_BLOCK = 1.5
W_EDGE = -0.7
W_NOISE = 0.2


class Player:
    def __init__(self, name):
        self.name = name

    def score(self, board, i, j):
        n = len(board)
        m = len(board[0])
        blocked = 0
        for a in (i - 1, i, i + 1):
            for b in (j - 1, j, j + 1):
                if 0 <= a < n and 0 <= b < m and board[a][b] == '-':
                    blocked = blocked + 1
        edge = min(i, j, n - 1 - i, m - 1 - j)
        return W_BLOCK * blocked + W_EDGE * edge + W_NOISE * random.random()

    def move(self, board):
        scored = []
        for i, row in enumerate(board):
            for j, cell in enumerate(row):
                if cell == '-':
                    scored.append((self.score(board, i, j), i, j))
        scored.sort(reverse=True)
        _, i, j = scored[0]
        return (i, j)
