"""Counts, for every free cell, how many free cells would remain, and plays the move that
leaves an odd count when it can (a crude parity rule), the biggest block otherwise."""


class Player:
    def __init__(self, name):
        self.name = name
        self.history = []

    def remaining(self, board, row, col):
        count = 0
        for r in range(len(board)):
            for c in range(len(board[0])):
                if board[r][c] == '-' and (abs(r - row) > 1 or abs(c - col) > 1):
                    count += 1
        return count

    def move(self, board):
        options = {}
        for r in range(len(board)):
            for c in range(len(board[0])):
                if board[r][c] == '-':
                    options[(r, c)] = self.remaining(board, r, c)
        odd = [cell for cell, left in options.items() if left % 2 == 1]
        if odd:
            pick = min(odd, key=lambda cell: options[cell])
        else:
            pick = min(options, key=lambda cell: options[cell])
        self.history.append(pick)
        return pick
