import time


class Timeout(Exception):
    pass


class Player:
    """Negamax with alpha-beta pruning and iterative deepening under a time budget."""

    BUDGET = 0.35

    def __init__(self, name):
        self.name = name
        self.deadline = 0.0

    def children(self, state):
        for (r, c) in state:
            yield (r, c), tuple(p for p in state if abs(p[0] - r) > 1 or abs(p[1] - c) > 1)

    def negamax(self, state, depth, alpha, beta):
        if time.time() > self.deadline:
            raise Timeout()
        if not state:
            return -1
        if depth == 0:
            return 0
        best = -2
        for _, child in self.children(state):
            score = -self.negamax(child, depth - 1, -beta, -alpha)
            if score > best:
                best = score
            if best > alpha:
                alpha = best
            if alpha >= beta:
                break
        return best

    def move(self, board):
        state = tuple((r, c) for r in range(len(board)) for c in range(len(board[0])) if board[r][c] == '-')
        self.deadline = time.time() + self.BUDGET
        choice = state[0]
        depth = 1
        try:
            while depth <= len(state):
                best = -2
                for mv, child in self.children(state):
                    score = -self.negamax(child, depth - 1, -2, 2)
                    if score > best:
                        best, choice_now = score, mv
                choice = choice_now
                if best == 1:
                    break
                depth += 1
        except Timeout:
            pass
        return choice
