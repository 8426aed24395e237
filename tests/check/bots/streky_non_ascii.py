import base


class Player(base.BasePlayer):
    """Passes every turn; its docstring says Štreky with a non-ASCII letter, which Štreky forbids."""

    def play(self, newCardOnDesk):
        return []
