# Walk the board in a spiral from the outside in and take the first free cell.

def spiral_order(n_rows, n_cols):
    top, bottom, left, right = 0, n_rows - 1, 0, n_cols - 1
    order = []
    while top <= bottom and left <= right:
        for j in range(left, right + 1):
            order.append((top, j))
        for i in range(top + 1, bottom + 1):
            order.append((i, right))
        if top < bottom:
            for j in range(right - 1, left - 1, -1):
                order.append((bottom, j))
        if left < right:
            for i in range(bottom - 1, top, -1):
                order.append((i, left))
        top, bottom, left, right = top + 1, bottom - 1, left + 1, right - 1
    return order


class Player:
    def __init__(self, name):
        self.name = name
        self.order = None

    def move(self, board):
        if self.order is None or len(self.order) != len(board) * len(board[0]):
            self.order = spiral_order(len(board), len(board[0]))
        for i, j in self.order:
            if board[i][j] == '-':
                return i, j
        return 0, 0
