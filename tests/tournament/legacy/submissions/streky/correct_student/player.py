"""A correct STREKY player: a random legal placement (written for the course-size boards)."""

import random

import base


def rotate(card):
    """The card turned 90 degrees counter-clockwise."""
    rows, cols = len(card), len(card[0])
    return [[card[r][cols - 1 - c] for r in range(rows)] for c in range(cols)]


def rotations(card):
    """The four rotations of a card (some may be equal)."""
    result = [card]
    for _ in range(3):
        result.append(rotate(result[-1]))
    return result


class Player(base.BasePlayer):
    def __init__(self, login, boardRows, boardCols, cardsAtHand):
        super().__init__(login, boardRows, boardCols, cardsAtHand)
        self.playerName = "First fit"
        self.board = [[-1] * boardCols for _ in range(boardRows)]
        self.unused = [True] * len(cardsAtHand)

    def write(self, row, col, card):
        for r in range(len(card)):
            for c in range(len(card[0])):
                self.board[row + r][col + c] = card[r][c]
        self.cardsOnDesk.append([row, col, card])

    def isFree(self, row, col, card):
        if row < 0 or col < 0 or row + len(card) > self.boardRows or col + len(card[0]) > self.boardCols:
            return False
        for r in range(len(card)):
            for c in range(len(card[0])):
                if self.board[row + r][col + c] != -1:
                    return False
        return True

    def touches(self, row, col, card):
        if len(self.cardsOnDesk) == 0:
            return True
        cells = []
        for c in range(col, col + len(card[0])):
            cells.append((row - 1, c))
            cells.append((row + len(card), c))
        for r in range(row, row + len(card)):
            cells.append((r, col - 1))
            cells.append((r, col + len(card[0])))
        for r, c in cells:
            if 0 <= r < self.boardRows and 0 <= c < self.boardCols and self.board[r][c] != -1:
                return True
        return False

    def legalMoves(self):
        moves = []
        for i in range(len(self.cardsAtHand)):
            if not self.unused[i]:
                continue
            for card in rotations(self.cardsAtHand[i]):
                for row in range(self.boardRows - len(card) + 1):
                    for col in range(self.boardCols - len(card[0]) + 1):
                        if self.isFree(row, col, card) and self.touches(row, col, card):
                            moves.append([i, row, col, card])
        return moves

    def play(self, newCardOnDesk):
        if len(newCardOnDesk) == 3:
            self.write(newCardOnDesk[0], newCardOnDesk[1], newCardOnDesk[2])
        moves = self.legalMoves()
        if len(moves) == 0:
            return []
        i, row, col, card = random.choice(moves)
        self.unused[i] = False
        self.write(row, col, card)
        return [row, col, card]

