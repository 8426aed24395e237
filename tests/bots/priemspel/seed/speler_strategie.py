"""A PriemSpel submission written exactly as seed 001 asks: Speler, PriemSpel, SpelerStrategie.

There is no ``Player`` class: ``zet`` receives an object of this file's own ``PriemSpel``.
"""


def priem(n):
    if n < 2:
        return False
    for i in range(2, int((n ** 0.5) + 1)):
        if n % i == 0:
            return False
    return True


class Speler:
    def __init__(self, naam):
        self.naam = naam
        self.reset()

    def reset(self):
        self.aan_de_beurt = False
        self.gewonnen = False
        self.verloren = False

    def __str__(self):
        if self.gewonnen:
            return '+' + self.naam
        if self.verloren:
            return '-' + self.naam
        if self.aan_de_beurt:
            return '*' + self.naam
        return self.naam

    def zet(self, spel):
        for stap in range(1, spel.N + 1):
            if priem(spel.pion + stap):
                return stap


class PriemSpel:
    def __init__(self, speler1, speler2, start, N):
        self.speler1 = speler1
        self.speler2 = speler2
        self.start = start
        self.N = N
        self.reset()

    def reset(self):
        self.pion = self.start
        self.speler1.reset()
        self.speler2.reset()
        self.speler1.aan_de_beurt = True
        self.beurt = self.speler1

    def __str__(self):
        return '[{},{},{}]'.format(self.speler1, self.speler2, self.pion)

    def einde(self):
        vak = self.start
        while True:
            volgende = vak + 1
            while not priem(volgende):
                volgende += 1
            if volgende - vak > self.N:
                return vak
            vak = volgende

    def geldig(self, stap):
        return 1 <= stap <= self.N and priem(self.pion + stap)

    def __iadd__(self, stap):
        if self.beurt is None or not self.geldig(stap):
            return self
        self.pion += stap
        ander = self.speler2 if self.beurt is self.speler1 else self.speler1
        self.beurt.aan_de_beurt = False
        if not any(self.geldig(s) for s in range(1, self.N + 1)):
            self.beurt.gewonnen = True
            ander.verloren = True
            self.beurt = None
        else:
            ander.aan_de_beurt = True
            self.beurt = ander
        return self

    def speel(self):
        self.reset()
        verloop = [str(self)]
        while self.beurt is not None:
            self += self.beurt.zet(self)
            verloop.append(str(self))
        return verloop, 1 if self.speler1.gewonnen else 2


class SpelerStrategie(Speler):
    def alle_sequenties(self, spel):
        einde = spel.einde()
        resultaat = []

        def verder(reeks):
            if reeks[-1] == einde:
                resultaat.append(reeks)
                return
            for stap in range(1, spel.N + 1):
                if priem(reeks[-1] + stap):
                    verder(reeks + [reeks[-1] + stap])

        verder([spel.pion])
        return resultaat

    def winst_verlies(self, spel):
        w, v, o = [], [], []
        for stap in range(1, spel.N + 1):
            if not priem(spel.pion + stap):
                continue
            lengtes = {len(s) % 2 for s in self.alle_sequenties(spel) if s[1] == spel.pion + stap}
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
