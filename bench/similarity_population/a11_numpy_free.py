# Keeps its own copy of the board as a dict and updates it from the board it is given.

ROW_WEIGHT = 3
COL_WEIGHT = 2


class Player:
    def __init__(self, name):
        self.name = name
        self.grid = {}
        self.moves_made = []

    def sync(self, board):
        self.grid = {}
        for y in range(len(board)):
            for x in range(len(board[y])):
                self.grid[y, x] = board[y][x] == '-'

    def value(self, y, x):
        total = 0
        for (yy, xx), open_ in self.grid.items():
            if open_ and abs(yy - y) <= 1 and abs(xx - x) <= 1:
                total += 1
        return total * 10 - ROW_WEIGHT * y - COL_WEIGHT * x

    def move(self, board):
        self.sync(board)
        best = None
        for (y, x), open_ in self.grid.items():
            if not open_:
                continue
            v = self.value(y, x)
            if best is None or v > best[0]:
                best = (v, y, x)
        self.moves_made.append(best[1:])
        return best[1], best[2]
