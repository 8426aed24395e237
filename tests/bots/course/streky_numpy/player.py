import base
import random
import numpy as np


# A player that keeps its board in a numpy array and turns its cards with numpy (np.rot90 turns
# counter-clockwise, as the course's rotation does). Students used numpy once the lecturer had
# approved it for the tournament: a job approves it with `bot_packages: [numpy]`.


class Player(base.BasePlayer):
    def __init__(self, login, boardRows, boardCols, cardsAtHand):
        super().__init__(login, boardRows, boardCols, cardsAtHand)
        self.playerName = "numpy rotations"
        self.board = np.full((boardRows, boardCols), -1, dtype=np.int8)
        self.free = [True] * len(cardsAtHand)

    def put(self, row, col, card):
        m = np.array(card)
        self.board[row:row + m.shape[0], col:col + m.shape[1]] = m

    def legal(self, row, col, m):
        h, w = m.shape
        if row + h > self.boardRows or col + w > self.boardCols:
            return False
        if (self.board[row:row + h, col:col + w] != -1).any():
            return False
        if not (self.board != -1).any():
            return True
        r0, r1, c0, c1 = max(row - 1, 0), min(row + h + 1, self.boardRows), max(col - 1, 0), min(col + w + 1, self.boardCols)
        ring = self.board[r0:r1, c0:c1].copy()
        ring[row - r0:row - r0 + h, col - c0:col - c0 + w] = -1  # the card's own cells
        if row - 1 >= 0 and col - 1 >= 0:
            ring[0, 0] = -1  # corners do not count
        if row - 1 >= 0 and col + w < self.boardCols:
            ring[0, -1] = -1
        if row + h < self.boardRows and col - 1 >= 0:
            ring[-1, 0] = -1
        if row + h < self.boardRows and col + w < self.boardCols:
            ring[-1, -1] = -1
        return bool((ring != -1).any())

    def play(self, newCardOnDesk):
        if len(newCardOnDesk) == 3:
            self.put(*newCardOnDesk)
        options = []
        for i, card in enumerate(self.cardsAtHand):
            if not self.free[i]:
                continue
            for k in range(4):
                m = np.rot90(np.array(card), k)
                for row in range(self.boardRows - m.shape[0] + 1):
                    for col in range(self.boardCols - m.shape[1] + 1):
                        if self.legal(row, col, m):
                            options.append((i, row, col, m))
        if not options:
            return []
        i, row, col, m = random.choice(options)
        self.free[i] = False
        card = m.tolist()  # plain ints: the answer must be lists of int, not numpy values
        self.put(row, col, card)
        return [int(row), int(col), card]
