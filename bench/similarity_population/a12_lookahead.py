"""Two-ply lookahead: avoid moves after which the opponent can end the game, prefer those
that leave an even number of greedy moves."""


def get_free(board):
    res = []
    for r in range(len(board)):
        for c in range(len(board[r])):
            if board[r][c] == '-':
                res.append((r, c))
    return res


def apply_move(free, mv):
    return [p for p in free if not (abs(p[0] - mv[0]) <= 1 and abs(p[1] - mv[1]) <= 1)]


def opponent_can_finish(free):
    for mv in free:
        if len(apply_move(free, mv)) == 0:
            return True
    return False


class Player:
    def __init__(self, name):
        self.name = name

    def move(self, board):
        free = get_free(board)
        safe = []
        for mv in free:
            rest = apply_move(free, mv)
            if not rest:
                return mv
            if not opponent_can_finish(rest):
                safe.append((len(rest), mv))
        if safe:
            safe.sort()
            return safe[0][1]
        return free[-1]
