"""PriemSpel reference player: the seed's ``SpelerStrategie`` (parity of the remaining sequences).

A move after which every sequence of squares from here to the end square has an even number
of elements (counting the current square) wins for sure (list ``w``); one after which all
have an odd number loses for sure (``v``); the rest are uncertain (``o``). Play the largest
move of ``w``, else the smallest of ``o``, else the smallest of ``v``.
"""


def priem(n):
    """True if n is prime (the seed's helper)."""
    if n < 2:
        return False
    for i in range(2, int((n ** 0.5) + 1)):
        if n % i == 0:
            return False
    return True


class Player:
    """The seed's SpelerStrategie."""

    def __init__(self, name):
        self.name = name

    def stappen(self, positie, n):
        return [k for k in range(1, n + 1) if priem(positie + k)]

    def alle_sequenties(self, spel):
        """Every sequence of squares from the pawn's square to the end square."""
        einde = spel.einde()

        def verder(positie):
            if positie == einde:
                return [[positie]]
            return [[positie] + rest for k in self.stappen(positie, spel.N)
                    for rest in verder(positie + k)]

        return verder(spel.positie)

    def winst_verlies(self, spel):
        """The lists w (sure win), v (sure loss) and o (uncertain) of legal steps."""
        w, v, o = [], [], []
        sequenties = self.alle_sequenties(spel)
        for stap in self.stappen(spel.positie, spel.N):
            lengtes = {len(s) % 2 for s in sequenties if s[1] == spel.positie + stap}
            if lengtes == {0}:
                w.append(stap)
            elif lengtes == {1}:
                v.append(stap)
            else:
                o.append(stap)
        return w, v, o

    def zet(self, spel):
        w, v, o = self.winst_verlies(spel)
        if w:
            return max(w)
        if o:
            return min(o)
        return min(v)
