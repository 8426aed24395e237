"""Blokovanie test bot written from scratch that decides exactly as greedy.py does.

A different shape of code (no helper method, a generator, max with a key) for the same rule:
most free cells blocked, the first in row-major order on ties.
"""


class Player:
    def __init__(self, name):
        self.label = name

    def move(self, board):
        height, width = len(board), len(board[0])
        free = {(r, c) for r in range(height) for c in range(width) if board[r][c] == '-'}

        def gain(cell):
            r, c = cell
            around = sum((r + a, c + b) in free for a in (-1, 0, 1) for b in (-1, 0, 1))
            return (around, -(r * width + c))

        return max(free, key=gain)
