"""Plays with bit masks and a memo of won positions for small boards."""

from functools import lru_cache


class Player:
    def __init__(self, name):
        self.name = name
        self.h = self.w = 0
        self.masks = []

    def setup(self, h, w):
        self.h, self.w = h, w
        self.masks = []
        for i in range(h * w):
            r, c = divmod(i, w)
            m = 0
            for rr in range(r - 1, r + 2):
                for cc in range(c - 1, c + 2):
                    if 0 <= rr < h and 0 <= cc < w:
                        m |= 1 << (rr * w + cc)
            self.masks.append(m)
        self.wins.cache_clear()

    @lru_cache(maxsize=None)
    def wins(self, free):
        bit = 0
        while free >> bit:
            if free >> bit & 1 and not self.wins(free & ~self.masks[bit]):
                return True
            bit += 1
        return False

    def move(self, board):
        if (len(board), len(board[0])) != (self.h, self.w):
            self.setup(len(board), len(board[0]))
        free = 0
        for i in range(self.h * self.w):
            if board[i // self.w][i % self.w] == '-':
                free |= 1 << i
        candidates = [i for i in range(self.h * self.w) if free >> i & 1]
        if bin(free).count("1") <= 24:
            for i in candidates:
                if not self.wins(free & ~self.masks[i]):
                    return divmod(i, self.w)
        best = max(candidates, key=lambda i: bin(free & self.masks[i]).count("1"))
        return divmod(best, self.w)
