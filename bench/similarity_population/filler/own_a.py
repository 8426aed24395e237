# The copier's own code for a partial copy (never in the population as a bot of its own).

def score_cell(grid, y, x):
    points = 0
    for yy in range(max(0, y - 1), min(len(grid), y + 2)):
        for xx in range(max(0, x - 1), min(len(grid[0]), x + 2)):
            if grid[yy][xx] == '-':
                points += 2 if (yy, xx) != (y, x) else 1
    return points


def safe_cells(grid):
    return [(y, x) for y in range(len(grid)) for x in range(len(grid[0]))
            if grid[y][x] == '-' and score_cell(grid, y, x) > 3]


class Player:
    def __init__(self, name):
        self.name = name
        self.count = 0

    def fallback(self, grid):
        for y in reversed(range(len(grid))):
            for x in reversed(range(len(grid[0]))):
                if grid[y][x] == '-':
                    return (y, x)

    def move(self, board):
        self.count += 1
        safe = safe_cells(board)
        if safe and self.count % 2:
            return max(safe, key=lambda p: score_cell(board, *p))
        return self.fallback(board)
