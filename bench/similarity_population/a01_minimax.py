# Depth-limited minimax over the free cells, with the number of free cells as the evaluation.
import time

NEIGHBOURHOOD = [(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1)]


def free_set(board):
    result = set()
    for r, line in enumerate(board):
        for c, ch in enumerate(line):
            if ch == '-':
                result.add((r, c))
    return result


def after(free, cell):
    r, c = cell
    gone = {(r + dr, c + dc) for dr, dc in NEIGHBOURHOOD}
    return free - gone


def minimax(free, depth, maximising, deadline):
    if not free:
        return -1000 if maximising else 1000
    if depth == 0 or time.time() > deadline:
        return len(free) if maximising else -len(free)
    if maximising:
        value = -10**9
        for cell in sorted(free):
            value = max(value, minimax(after(free, cell), depth - 1, False, deadline))
        return value
    value = 10**9
    for cell in sorted(free):
        value = min(value, minimax(after(free, cell), depth - 1, True, deadline))
    return value


class Player:
    def __init__(self, name):
        self.name = name
        self.depth = 3

    def move(self, board):
        free = free_set(board)
        deadline = time.time() + 0.4
        depth = self.depth if len(free) < 30 else 2
        best_cell, best_value = None, -10**9
        for cell in sorted(free):
            v = minimax(after(free, cell), depth - 1, False, deadline)
            if v > best_value:
                best_cell, best_value = cell, v
        return best_cell
