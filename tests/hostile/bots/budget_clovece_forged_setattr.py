"""A Clovece player whose board setter (run by the harness's setattr) writes a forged reply whose
value is a dict of 30,000 int keys all hashing to 0, then lets the worker reply too."""
import os, random, struct, sys

from clovece import BasePlayer

M = 2 ** 61 - 1


def current_seq():
    for f in sys._current_frames().values():
        while f is not None:
            request = f.f_locals.get("request")
            if isinstance(request, dict) and "seq" in request:
                return request["seq"]
            f = f.f_back
    return None


class Player(BasePlayer):
    def __init__(self, color, board=None):
        super().__init__(color, board)
        self.ready = True

    @property
    def board(self):
        return self._board

    @board.setter
    def board(self, value):
        self._board = value
        if getattr(self, "ready", False):
            pairs = b",".join(b"[%d,0]" % (M * k) for k in range(30_000))
            body = b'{"ok":true,"cpu":0.0,"seq":%d,"value":{"$d":[%s]}}' % (current_seq(), pairs)
            for fd in range(3, 64):
                try:
                    os.write(fd, struct.pack(">I", len(body)) + body)
                except OSError:
                    pass

    def get_move(self, roll):
        moves = self.get_valid_moves(roll)
        return [random.choice([self.prepare_targets([move])[0] for move in moves])]
