import random
import time


class Player:
    """Monte Carlo: each candidate move is scored by random playouts."""

    PLAYOUTS = 12

    def __init__(self, name):
        self.name = name
        self.rng = random.Random(7)

    @staticmethod
    def cells(board):
        return [(y, x) for y in range(len(board)) for x in range(len(board[y])) if board[y][x] == '-']

    @staticmethod
    def remove(cells, move):
        y0, x0 = move
        return [(y, x) for (y, x) in cells if abs(y - y0) > 1 or abs(x - x0) > 1]

    def playout(self, cells):
        """True if the player to move in this position makes the last move."""
        me = True
        last = None
        while cells:
            pick = self.rng.choice(cells)
            cells = self.remove(cells, pick)
            last = me
            me = not me
        return last is True

    def move(self, board):
        start = time.time()
        options = self.cells(board)
        wins = {}
        for m in options:
            rest = self.remove(options, m)
            if not rest:
                return m
            won = 0
            for _ in range(self.PLAYOUTS):
                if not self.playout(rest):
                    won += 1
            wins[m] = won
            if time.time() - start > 0.5:
                break
        return max(wins, key=wins.get)
