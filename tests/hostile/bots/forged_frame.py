"""Writes a forged reply frame (no sequence number) to every descriptor it has."""
import json, os, struct

def step(spel):
    """The smallest legal step (the seed's basic strategy)."""
    for k in range(1, spel.N + 1):
        n = spel.positie + k
        if n > 1 and all(n % i for i in range(2, int(n ** 0.5) + 1)):
            return k
    return 1


class Player:
    def __init__(self, name):
        self.name = name

    def zet(self, spel):
        body = json.dumps({'ok': True, 'value': 3}).encode()
        for fd in range(3, 64):
            try:
                os.write(fd, struct.pack('>I', len(body)) + body)
            except OSError:
                pass
        return step(spel)
