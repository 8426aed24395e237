import base as BASE
import copy, random, time, sys, os
from PIL import Image, ImageDraw


# Written as students wrote their players from the course's template: Pillow imported at the
# top (as the template does), a board kept from newCardOnDesk, and the progress drawn into PNG
# files when not in tournament mode.

C44a = [ [0,1,2,0],
         [1,1,2,2],
         [2,2,1,1],
         [0,2,1,0] ]


def rotateCard(card):
    rows, cols = len(card), len(card[0])
    return [[card[r][cols - 1 - c] for r in range(rows)] for c in range(cols)]


class Player(BASE.BasePlayer):
    def __init__(self, login, boardRows, boardCols, cardsAtHand):
        super().__init__(login, boardRows, boardCols, cardsAtHand)
        self.playerName = "Pillow drawer"
        self.board = [[-1] * boardCols for _ in range(boardRows)]
        self.isCardFree = [True] * len(cardsAtHand)
        self.step = 0

    def writeCard(self, row, col, card):
        for r in range(len(card)):
            for c in range(len(card[0])):
                self.board[row + r][col + c] = card[r][c]

    def fits(self, row, col, card):
        if row + len(card) > self.boardRows or col + len(card[0]) > self.boardCols:
            return False
        for r in range(len(card)):
            for c in range(len(card[0])):
                if self.board[row + r][col + c] != -1:
                    return False
        if len(self.cardsOnDesk) == 0:
            return True
        for c in range(col, col + len(card[0])):
            for r in (row - 1, row + len(card)):
                if 0 <= r < self.boardRows and self.board[r][c] != -1:
                    return True
        for r in range(row, row + len(card)):
            for c in (col - 1, col + len(card[0])):
                if 0 <= c < self.boardCols and self.board[r][c] != -1:
                    return True
        return False

    def play(self, newCardOnDesk):
        if len(newCardOnDesk) == 3:
            self.cardsOnDesk.append(newCardOnDesk)
            self.writeCard(newCardOnDesk[0], newCardOnDesk[1], newCardOnDesk[2])
        moves = []
        for i in range(len(self.cardsAtHand)):
            if not self.isCardFree[i]:
                continue
            card = self.cardsAtHand[i]
            for _ in range(4):
                card = rotateCard(card)
                for row in range(self.boardRows):
                    for col in range(self.boardCols):
                        if self.fits(row, col, card):
                            moves.append([i, row, col, card])
        if len(moves) == 0:
            return []
        i, row, col, card = random.choice(moves)
        self.isCardFree[i] = False
        self.writeCard(row, col, card)
        self.cardsOnDesk.append([row, col, card])
        if not self.tournament:
            self.drawCards(self.boardRows, self.boardCols, self.cardsOnDesk, "move-{:02}.png".format(self.step), 20)
            print("drew", "move-{:02}.png".format(self.step), os.path.getsize("move-{:02}.png".format(self.step)),
                  "timeout", self.timeout, "tournament", self.tournament)
        self.step += 1
        return [row, col, card]


if __name__ == "__main__":
    p1 = Player("testA", 19, 23, [C44a] * 4)
    p2 = Player("testB", 19, 23, [C44a] * 4)
    p2move = []
    while True:
        p1move = p1.play(p2move)
        p2move = p2.play(p1move)
        if p1move == [] and p2move == []:
            break
