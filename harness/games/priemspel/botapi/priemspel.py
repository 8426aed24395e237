"""The game as a PriemSpel bot sees it: ``spel.einde()``, ``spel.N``, ``spel.positie``.

The harness hands ``zet(spel)`` a fresh read-only copy each turn, so a bot cannot change the
game by changing this object.
"""


class Spel:
    """A read-only view of a PriemSpel game, with the seed's names."""

    __slots__ = ("_N", "_positie", "_eind")

    def __init__(self, N, positie, eind):
        object.__setattr__(self, "_N", N)
        object.__setattr__(self, "_positie", positie)
        object.__setattr__(self, "_eind", eind)

    @property
    def N(self):
        """The largest allowed step."""
        return self._N

    @property
    def positie(self):
        """The square the pawn is on."""
        return self._positie

    def einde(self):
        """The number of the end square."""
        return self._eind

    def __setattr__(self, name, value):
        raise AttributeError("the game view is read-only")

    def __repr__(self):
        return "Spel(N=%d, positie=%d, einde=%d)" % (self._N, self._positie, self._eind)
