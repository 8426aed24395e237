"""Blokovanie test bot: the free cell nearest the middle of the board (Manhattan distance)."""


def distance(cell, middle):
    return abs(cell[0] - middle[0]) + abs(cell[1] - middle[1])


class Player:
    def __init__(self, name):
        self.name = name

    def move(self, board):
        middle = ((len(board) - 1) / 2, (len(board[0]) - 1) / 2)
        options = []
        row = 0
        while row < len(board):
            col = 0
            while col < len(board[row]):
                if board[row][col] == '-':
                    options.append((distance((row, col), middle), row, col))
                col += 1
            row += 1
        options.sort()
        _, row, col = options[0]
        return (row, col)
