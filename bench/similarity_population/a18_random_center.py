import math
import random


class Player:
    def __init__(self, name):
        self.name = name

    def move(self, board):
        h = len(board)
        w = len(board[0])
        cy, cx = (h - 1) / 2.0, (w - 1) / 2.0
        weights, cells = [], []
        for y in range(h):
            for x in range(w):
                if board[y][x] != '-':
                    continue
                d = math.hypot(y - cy, x - cx)
                weights.append(1.0 / (1.0 + d))
                cells.append((y, x))
        total = sum(weights)
        pick = random.random() * total
        for wgt, cell in zip(weights, cells):
            pick -= wgt
            if pick <= 0:
                return cell
        return cells[-1]
