import base as BASE
import utils as UTILS
import copy, random


class Player(BASE.BasePlayer):
    def __init__(self, login, boardRows, boardCols, cardsAtHand):
        super().__init__(login, boardRows, boardCols, cardsAtHand)
        self.board = [[-1] * self.boardCols for _ in range(self.boardRows)]
        self.isCardFree = [True] * len(self.cardsAtHand)
        self.playerName = "two files"

    def play(self, newCardOnDesk):
        if len(newCardOnDesk) != 0:
            self.cardsOnDesk.append(newCardOnDesk)
            UTILS.writeCard(newCardOnDesk[0], newCardOnDesk[1], newCardOnDesk[2], self.board)
        first = len(self.cardsOnDesk) == 0
        for cardi in range(len(self.cardsAtHand)):
            if not self.isCardFree[cardi]:
                continue
            card = self.cardsAtHand[cardi]
            for _ in range(4):
                card = UTILS.rotateCard(card)
                for row in range(self.boardRows):
                    for col in range(self.boardCols):
                        if UTILS.isFree(self.board, row, col, card) and (first or UTILS.touches(self.board, row, col, card)):
                            self.isCardFree[cardi] = False
                            UTILS.writeCard(row, col, card, self.board)
                            self.cardsOnDesk.append([row, col, card])
                            return [row, col, card]
        return []
