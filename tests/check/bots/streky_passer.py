import base


class Player(base.BasePlayer):
    """Always passes, even when it could place a card."""

    def __init__(self, login, boardRows, boardCols, cardsAtHand):
        super().__init__(login, boardRows, boardCols, cardsAtHand)
        self.playerName = "passer"

    def play(self, newCardOnDesk):
        return []
