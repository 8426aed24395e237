# An object-oriented bot: a Board class with a Cell helper, and a Strategy that picks.


class Cell:
    def __init__(self, row, col):
        self.row = row
        self.col = col

    def around(self):
        return [Cell(self.row + dr, self.col + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1)]

    def as_tuple(self):
        return (self.row, self.col)


class Board:
    def __init__(self, rows):
        self.rows = [list(r) for r in rows]

    def inside(self, cell):
        return 0 <= cell.row < len(self.rows) and 0 <= cell.col < len(self.rows[0])

    def open(self, cell):
        return self.inside(cell) and self.rows[cell.row][cell.col] == '-'

    def open_cells(self):
        return [Cell(r, c) for r in range(len(self.rows)) for c in range(len(self.rows[0]))
                if self.rows[r][c] == '-']


class Strategy:
    def pick(self, board):
        cells = board.open_cells()
        isolated = [c for c in cells if sum(board.open(n) for n in c.around()) == 1]
        if isolated and len(isolated) % 2 == 1:
            return isolated[0]
        return max(cells, key=lambda c: (sum(board.open(n) for n in c.around()), -c.row, -c.col))


class Player:
    def __init__(self, name):
        self.name = name
        self.strategy = Strategy()

    def move(self, board):
        return self.strategy.pick(Board(board)).as_tuple()
