# Parity heuristic: keep the number of remaining independent moves odd after my move.

def neighbours(r, c):
    for a in range(r - 1, r + 2):
        for b in range(c - 1, c + 2):
            yield a, b


def greedy_count(free):
    """How many moves are left if both players play the first free cell."""
    free = set(free)
    n = 0
    while free:
        cell = min(free)
        for x in neighbours(*cell):
            free.discard(x)
        n += 1
    return n


class Player:
    def __init__(self, name):
        self.name = name

    def move(self, board):
        free = [(r, c) for r in range(len(board)) for c in range(len(board[0])) if board[r][c] == '-']
        fallback = free[0]
        for cell in free:
            left = set(free)
            for x in neighbours(*cell):
                left.discard(x)
            if greedy_count(left) % 2 == 0:
                return cell
        return fallback
