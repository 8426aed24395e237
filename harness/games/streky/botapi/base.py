# base class for Player (the course's base.py, as shipped by the harness), do not change this file !!!
# this file is replaced by the harness when your bot is graded or plays in a tournament, so your
# changes would not be reflected: keep your own instance variables (self.xyz) in player.py
"""The base class of a STREKY player, as in the course's package.

Write your player in player.py:

    import base

    class Player(base.BasePlayer):
        def __init__(self, login, boardRows, boardCols, cardsAtHand):
            super().__init__(login, boardRows, boardCols, cardsAtHand)
            self.playerName = "My awesome player"

        def play(self, newCardOnDesk):
            ...
            return [row, col, cardMatrix]   # or [] when no card can be placed

Like the course's base.py it imports Pillow, which the harness provides to every Streky bot.
drawCards() writes a PNG file (into the bot's working folder when it runs in the harness).
"""

# import PIL for drawing to PNG files
from PIL import Image, ImageDraw


class BasePlayer:

    def __init__(self, login, boardRows, boardCols, cardsAtHand):
        """Constructor for the base class.
            login .. string representing user name/login (given by the harness)
            boardRows .. int, number of rows in the game board (desk)
            boardCols .. int, number of columns in the game board (desk)
            cardsAtHand .. list [card1, card2, ...], each card a 2D matrix (list of rows) of
                           colours: 0 = no colour, 1..4 = colours
        """
        self.userLogin = login
        self.boardRows = boardRows
        self.boardCols = boardCols
        self.cardsOnDesk = []
        self.cardsAtHand = cardsAtHand
        self.tournament = False
        self.playerName = "my great player"

        # just for drawing: the colour of each value (-1 = the colour-0 cells of a card)
        self._colors = {0: "#ffffff", 1: "#636940", 2: "#59A96A", 3: "#ffdd4a", 4: "#fe9000",
                        -2: "#a3d9ff", -1: "#cccccc"}

    def play(self, newCardOnDesk):
        """The only method the harness calls after the constructor. Write your own in player.py.
            newCardOnDesk .. [row, col, cardMatrix], the card the opponent placed last, or []
            (the opponent could not play, or this is the first move of the game)
            returns [row, col, cardMatrix], or [] if no card can be placed
        """
        pass

    def drawCards(self, numRows, numCols, cards, filename, _cellWidth=60):
        """Debugging function: draw the cards [[row, col, matrix], ...] on a numRows x numCols
        board into the PNG file `filename`.
        """
        cw = _cellWidth
        width, height = cw * numCols, cw * numRows
        img = Image.new("RGBA", (width, height), "white")
        draw = ImageDraw.Draw(img)
        for card in cards:
            row, col, matrix = card
            rows, cols = len(matrix), len(matrix[0])
            draw.rectangle([col * cw - 3, row * cw - 3, (col + cols) * cw + 3, (row + rows) * cw + 3],
                           outline="#CD853F", fill=(0, 0, 0, 0), width=10)
            for r in range(rows):
                for c in range(cols):
                    value = matrix[r][c]
                    x, y = (col + c) * cw, (row + r) * cw
                    draw.rectangle([x, y, x + cw, y + cw], fill=self._colors[-1 if value == 0 else value])
            eps = cw / 6
            cx, cy = col * cw + cw / 2, row * cw + cw / 2
            draw.ellipse([cx - eps, cy - eps, cx + eps, cy + eps], fill="#f8c8dc")
        for i in range(1, numRows):
            draw.line([0, i * cw, width, i * cw], fill="#ADACB5", width=2)
        for i in range(1, numCols):
            draw.line([i * cw, 0, i * cw, height], fill="#ADACB5", width=2)
        draw.line([2, 2, width - 2, 2, width - 2, height - 2, 2, height - 2, 2, 2], fill="#ADACB5", width=5)
        img.save(filename)


if __name__ == "__main__":
    p = BasePlayer("test", 6, 8, [[[0, 1, 2, 0], [1, 1, 2, 2], [2, 2, 1, 1], [0, 2, 1, 0]]])
    p.drawCards(6, 8, [[1, 1, p.cardsAtHand[0]], [1, 5, [[1, 2, 1], [2, 2, 2], [1, 2, 1]]]], "base-selftest.png")
    print("wrote base-selftest.png")
