"""The game as a PriemSpel bot sees it: ``spel.einde()``, ``spel.N``, ``spel.positie``.

The harness hands ``zet(spel)`` a fresh read-only copy each turn, so a bot cannot change the
game by changing this object.

A bot may also be written exactly as seed 001 asks: its own ``Speler`` (and ``SpelerStrategie``)
whose ``zet`` takes an object of *its own* ``PriemSpel`` class. :class:`SeedSeat` plays such a
file: it builds the student's ``PriemSpel`` and keeps it in step with the seed's ``+=``.
"""


class Spel:
    """A read-only view of a PriemSpel game, with the seed's names."""

    __slots__ = ("_N", "_positie", "_eind", "_start")

    def __init__(self, N, positie, eind, start=None):
        object.__setattr__(self, "_N", N)
        object.__setattr__(self, "_positie", positie)
        object.__setattr__(self, "_eind", eind)
        object.__setattr__(self, "_start", positie if start is None else start)

    @property
    def N(self):
        """The largest allowed step."""
        return self._N

    @property
    def positie(self):
        """The square the pawn is on."""
        return self._positie

    @property
    def start(self):
        """The square the pawn started the game on."""
        return self._start

    def einde(self):
        """The number of the end square."""
        return self._eind

    def __setattr__(self, name, value):
        raise AttributeError("the game view is read-only")

    def __repr__(self):
        return "Spel(N=%d, positie=%d, einde=%d)" % (self._N, self._positie, self._eind)


class SeedSeat:
    """One seat played by a file written as seed 001 asks (no ``Player`` class).

    The file defines ``PriemSpel(speler1, speler2, start, N)`` with ``+=`` (the player to move
    advances the pawn) and ``Speler(naam)`` with ``zet(spel)``, where ``spel`` is a
    ``PriemSpel``; ``SpelerStrategie`` (a ``Speler`` with the seed's better strategy) plays
    when the file defines it. The seat builds the student's ``PriemSpel`` on its first turn,
    with the student's own ``Speler`` as the opponent's placeholder, and before every ``zet``
    applies the moves played since, each with ``spel += stap`` as the seed's ``speel()`` does.
    Everything here runs in the bot's process, timed as the bot's own move.
    """

    _player_class = None
    _opponent_class = None
    _game_class = None

    @classmethod
    def adopt(cls, module):
        """A subclass bound to ``module``'s classes, or ``None`` if ``module`` is not in the seed's shape."""
        game = getattr(module, "PriemSpel", None)
        if not isinstance(game, type):
            return None
        basic = getattr(module, "Speler", None)
        chosen = getattr(module, "SpelerStrategie", None)
        if not isinstance(chosen, type):
            chosen = basic
        if not isinstance(chosen, type):
            return None
        opponent = basic if isinstance(basic, type) else chosen
        return type(chosen.__name__, (cls,), {"_player_class": chosen, "_opponent_class": opponent,
                                              "_game_class": game, "__module__": __name__})

    def __init__(self, naam):
        self._speler = self._player_class(naam)
        self._spel = None
        self._after = None  # (square before this bot's last move, that move's step)

    def zet(self, view):
        """The student's ``zet`` on the student's own game, brought up to ``view``'s position."""
        if self._spel is None:
            opponent = self._opponent_class("Tegenstander")
            first = view.positie == view.start  # every legal step moves the pawn: nobody moved yet
            seats = (self._speler, opponent) if first else (opponent, self._speler)
            self._spel = self._game_class(seats[0], seats[1], view.start, view.N)
            if not first:
                self._step(view.positie - view.start)
        else:
            before, own = self._after
            self._step(own)
            self._step(view.positie - before - own)
        stap = self._speler.zet(self._spel)
        self._after = (view.positie, stap)
        return stap

    def _step(self, stap):
        spel = self._spel
        spel += stap  # the seed's operator, exactly as its speel() applies a move
        self._spel = spel
