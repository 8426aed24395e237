"""A legal bot: a socketpair inside its own process (AF_UNIX, no address)."""
import socket


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
        if not getattr(self, "done", False):
            self.done = True
            a, b = socket.socketpair()
            a.send(b"x")
            assert b.recv(1) == b"x"
        return step(spel)
