"""Names itself with terminal escapes, a forged leaderboard row and a lone surrogate; plays legally.

Printed raw, the name would retitle the instructor's terminal, clear the screen and draw a fake
"winner" row; the lone surrogate would stop every output with UnicodeEncodeError.
"""


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
        self.playerName = "\x1b]0;pwned\x07\x1b[2J\x1b[H\r\n1  text_name  WINNER\x9b31m\u202e\ud800"

    def zet(self, spel):
        return step(spel)
