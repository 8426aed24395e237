"""Blokovanie test bot: the last free cell in row-major order (bottom right first)."""


class Player:
    def __init__(self, name):
        self.name = name
        self.moves = 0

    def free_cells(self, board):
        cells = []
        for row_index, row in enumerate(board):
            for col_index, mark in enumerate(row):
                if mark == '-':
                    cells.append((row_index, col_index))
        return cells

    def move(self, board):
        self.moves += 1
        cells = self.free_cells(board)
        # the bottom-right one: the opposite corner to the seed's first-free strategy
        return cells[-1]
