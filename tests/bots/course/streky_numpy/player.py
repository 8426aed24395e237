import base
import random
import numpy as np


# A player that keeps its board in a numpy array, turns its cards with numpy (np.rot90 turns
# counter-clockwise, as the course's rotation does) and finds every legal place of a card at once
# with window sums over the board. Students used numpy once the lecturer had approved it for the
# tournament: a job approves it with `bot_packages: [numpy]`.


def window_sums(integral, h, w):
    """Sums of every h x w window of the array whose integral image is given."""
    return integral[h:, w:] - integral[:-h, w:] - integral[h:, :-w] + integral[:-h, :-w]


def integral_image(a):
    out = np.zeros((a.shape[0] + 1, a.shape[1] + 1), dtype=np.int64)
    out[1:, 1:] = a.cumsum(0).cumsum(1)
    return out


class Player(base.BasePlayer):
    def __init__(self, login, boardRows, boardCols, cardsAtHand):
        super().__init__(login, boardRows, boardCols, cardsAtHand)
        self.playerName = "numpy rotations"
        self.board = np.full((boardRows, boardCols), -1, dtype=np.int8)
        self.free = [True] * len(cardsAtHand)

    def put(self, row, col, card):
        m = np.array(card)
        self.board[row:row + m.shape[0], col:col + m.shape[1]] = m

    def places(self, h, w):
        """Every (row, col) where an h x w card fits on free cells and touches a card by an edge."""
        rows, cols = self.board.shape
        if h > rows or w > cols:
            return np.zeros((0, 2), dtype=int)
        occupied = (self.board != -1).astype(np.int64)
        free = window_sums(integral_image(occupied), h, w) == 0
        if occupied.any():
            padded = integral_image(np.pad(occupied, 1))
            above_below = window_sums(padded, h + 2, w)[:, 1:cols - w + 2]
            left_right = window_sums(padded, h, w + 2)[1:rows - h + 2, :]
            free &= (above_below + left_right) > 0
        return np.argwhere(free)

    def play(self, newCardOnDesk):
        if len(newCardOnDesk) == 3:
            self.put(*newCardOnDesk)
        options = []
        for i, card in enumerate(self.cardsAtHand):
            if not self.free[i]:
                continue
            for k in range(4):
                m = np.rot90(np.array(card), k)
                for row, col in self.places(*m.shape):
                    options.append((i, row, col, m))
        if not options:
            return []
        i, row, col, m = random.choice(options)
        self.free[i] = False
        card = m.tolist()  # plain ints: the answer must be lists of int, not numpy values
        self.put(int(row), int(col), card)
        return [int(row), int(col), card]
