"""The base class of a STREKY player (the course's base.py, shipped by the harness).

Write your player in player.py:

    import base

    class Player(base.BasePlayer):
        def __init__(self, login, boardRows, boardCols, cardsAtHand):
            super().__init__(login, boardRows, boardCols, cardsAtHand)
            self.playerName = "My awesome player"

        def play(self, newCardOnDesk):
            ...
            return [row, col, cardMatrix]   # or [] when no card can be placed

The harness replaces this file with its own copy, so changes made here have no effect.
Keep your own instance variables in player.py. Only the standard library is used here;
drawCards() writes PNG only if Pillow happens to be installed, SVG otherwise.
"""

import os
import sys


class BasePlayer:
    """What the harness sets up before the game; play() is the one method it calls."""

    def __init__(self, login, boardRows, boardCols, cardsAtHand):
        """login .. str, the user's login (given by the harness)
        boardRows .. int, number of rows of the game board (desk)
        boardCols .. int, number of columns of the game board (desk)
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

        # just for drawing: colour of each value (-1 = the colour-0 cells of a card)
        self._colors = {0: "#ffffff", 1: "#636940", 2: "#59A96A", 3: "#ffdd4a", 4: "#fe9000",
                        -2: "#a3d9ff", -1: "#cccccc"}

    def play(self, newCardOnDesk):
        """One move. newCardOnDesk is [row, col, cardMatrix] (the opponent's last card) or []
        (the opponent could not play, or this is the first move of the game).
        Return [row, col, cardMatrix] to place a card with its top-left corner at (row, col),
        or [] if no card can be placed. Override this method in player.py.
        """
        raise NotImplementedError("define play(self, newCardOnDesk) in your Player class")

    # ---- drawing (for debugging) ------------------------------------------------------
    def svgCards(self, numRows, numCols, cards, _cellWidth=30, highlightCard=None):
        """The cards [[row, col, matrix], ...] on a numRows x numCols board as SVG text.
        highlightCard ([row, col, matrix]) gets a thick frame."""
        cw = _cellWidth
        width, height = cw * numCols, cw * numRows
        out = [(f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
                f'viewBox="0 0 {width} {height}">'),
               f'<rect width="{width}" height="{height}" fill="white"/>']
        for card in cards:
            row, col, matrix = card
            for r in range(len(matrix)):
                for c in range(len(matrix[0])):
                    value = matrix[r][c]
                    color = self._colors[-1 if value == 0 else value]
                    out.append(f'<rect x="{(col + c) * cw}" y="{(row + r) * cw}" width="{cw}" height="{cw}" '
                               f'fill="{color}"/>')
            out.append(f'<circle cx="{col * cw + cw / 2.0:g}" cy="{row * cw + cw / 2.0:g}" r="{cw / 6.0:g}" '
                       f'fill="#f8c8dc"/>')
        for i in range(1, numRows):
            out.append(f'<line x1="0" y1="{i * cw}" x2="{width}" y2="{i * cw}" stroke="#ADACB5"/>')
        for i in range(1, numCols):
            out.append(f'<line x1="{i * cw}" y1="0" x2="{i * cw}" y2="{height}" stroke="#ADACB5"/>')
        for card in cards:
            row, col, matrix = card
            out.append(f'<rect x="{col * cw}" y="{row * cw}" width="{len(matrix[0]) * cw}" '
                       f'height="{len(matrix) * cw}" fill="none" stroke="#CD853F" stroke-width="3"/>')
        if highlightCard:
            row, col, matrix = highlightCard
            out.append(f'<rect x="{col * cw}" y="{row * cw}" width="{len(matrix[0]) * cw}" '
                       f'height="{len(matrix) * cw}" fill="none" stroke="#ff69b4" stroke-width="6"/>')
        out.append(f'<rect width="{width}" height="{height}" fill="none" stroke="#888888" stroke-width="4"/>')
        out.append("</svg>")
        return "\n".join(out)

    def drawCards(self, numRows, numCols, cards, filename, _cellWidth=60, highlightCard=None):
        """Draw the cards [[row, col, matrix], ...] on a numRows x numCols board into a file.
        A .png name is written as PNG when Pillow is installed; otherwise (or for any other
        name) SVG is written, to a .svg file. Returns the name of the file written."""
        if filename.lower().endswith(".png"):
            try:
                from PIL import Image, ImageDraw  # type: ignore  # optional: only for PNG output
            except ImportError:
                filename = filename[:-4] + ".svg"
            else:
                self._drawPng(Image, ImageDraw, numRows, numCols, cards, filename, _cellWidth, highlightCard)
                return filename
        with open(filename, "w") as f:
            f.write(self.svgCards(numRows, numCols, cards, _cellWidth, highlightCard))
        return filename

    def _drawPng(self, Image, ImageDraw, numRows, numCols, cards, filename, cw, highlightCard):
        width, height = cw * numCols, cw * numRows
        img = Image.new("RGBA", (width, height), "white")
        draw = ImageDraw.Draw(img)
        for card in cards:
            row, col, matrix = card
            for r in range(len(matrix)):
                for c in range(len(matrix[0])):
                    value = matrix[r][c]
                    draw.rectangle([(col + c) * cw, (row + r) * cw, (col + c + 1) * cw, (row + r + 1) * cw],
                                   fill=self._colors[-1 if value == 0 else value])
            eps = cw / 6.0
            cx, cy = col * cw + cw / 2.0, row * cw + cw / 2.0
            draw.ellipse([cx - eps, cy - eps, cx + eps, cy + eps], fill="#f8c8dc")
        for i in range(1, numRows):
            draw.line([0, i * cw, width, i * cw], fill="#ADACB5", width=2)
        for i in range(1, numCols):
            draw.line([i * cw, 0, i * cw, height], fill="#ADACB5", width=2)
        for card in cards:
            row, col, matrix = card
            draw.rectangle([col * cw, row * cw, (col + len(matrix[0])) * cw, (row + len(matrix)) * cw],
                           outline="#CD853F", width=4)
        if highlightCard:
            row, col, matrix = highlightCard
            draw.rectangle([col * cw, row * cw, (col + len(matrix[0])) * cw, (row + len(matrix)) * cw],
                           outline="#ff69b4", width=8)
        img.save(filename)


def _selftest():
    """python base.py: draw two cards to streky-base-selftest.svg (or .png with Pillow)."""
    p = BasePlayer("test", 6, 8, [[[0, 1, 2, 0], [1, 1, 2, 2], [2, 2, 1, 1], [0, 2, 1, 0]]])
    cards = [[1, 1, p.cardsAtHand[0]], [1, 5, [[1, 2, 1], [2, 2, 2], [1, 2, 1]]]]
    name = p.drawCards(6, 8, cards, os.path.join(os.getcwd(), "streky-base-selftest.png"), highlightCard=cards[1])
    sys.stdout.write(f"wrote {name}\n")


if __name__ == "__main__":
    _selftest()
