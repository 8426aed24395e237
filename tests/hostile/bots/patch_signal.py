"""Blocks and ignores every signal it can, then loops."""
import signal

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
        for sig in signal.valid_signals():
            try:
                signal.signal(sig, signal.SIG_IGN)
            except (OSError, ValueError, RuntimeError):
                pass
        signal.pthread_sigmask(signal.SIG_BLOCK, signal.valid_signals())
        while True:
            pass
        return step(spel)
