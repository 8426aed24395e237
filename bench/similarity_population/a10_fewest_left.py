class Player:
    """Chooses the move after which the opponent has the fewest moves."""

    def __init__(self, name):
        self.name = name
        self.memo = {}

    def free_cells(self, grid):
        return frozenset((r, c) for r, row in enumerate(grid) for c, v in enumerate(row) if v == '-')

    def play(self, cells, where):
        r, c = where
        return frozenset(x for x in cells if max(abs(x[0] - r), abs(x[1] - c)) > 1)

    def count_moves(self, cells):
        if cells not in self.memo:
            self.memo[cells] = len(cells)
        return self.memo[cells]

    def move(self, board):
        cells = self.free_cells(board)
        if len(self.memo) > 50000:
            self.memo.clear()
        ranked = sorted(cells, key=lambda w: (self.count_moves(self.play(cells, w)), w))
        for w in ranked:
            if not self.play(cells, w):
                return w
        return ranked[0]
