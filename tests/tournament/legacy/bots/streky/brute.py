"""STREKY reference player "brute": the course's Brute, the grading opponent.

It plays the legal placement with the highest immediate score; among equal scores the largest
card (rows x columns), then a random one among those (seeded: the harness seeds a bot's
random module from the game's seed), as the course's Brute did. Passes only when no card can be placed. Keeps its own board from
the answers it sees (newCardOnDesk), exactly as a student's player must.
"""

import random

import base

# ---------------------------------------------------------------------------------------
# The board core (the same in every reference player; a player must be a single file).
# ---------------------------------------------------------------------------------------


def rotate(m):
    """The card turned 90 degrees counter-clockwise: rot[w-1-c][r] = m[r][c]."""
    h, w = len(m), len(m[0])
    return tuple(tuple(m[r][w - 1 - i] for r in range(h)) for i in range(w))


def rotations(m):
    """The distinct rotations of a card, the card itself first."""
    m = tuple(tuple(row) for row in m)
    found = []
    for _ in range(4):
        if m not in found:
            found.append(m)
        m = rotate(m)
    return found


class Orientation:
    """One rotation of a card, with what scoring needs: components and the ring contacts.

    The ring of an h x w card is the 2(h+w) cells just outside its edges (top row, bottom row,
    left column, right column, in that order). ring_v[p] is the colour of the card cell next
    to ring cell p, ring_comp[p] its component (4-connected cells of one colour in the card).
    """

    def __init__(self, matrix, cls):
        self.matrix = matrix
        self.cls = cls
        self.h, self.w = h, w = len(matrix), len(matrix[0])
        self.area = h * w
        comp = {}
        sizes = []
        for r in range(h):
            for c in range(w):
                v = matrix[r][c]
                if v == 0 or (r, c) in comp:
                    continue
                k = len(sizes)
                comp[(r, c)] = k
                stack, n = [(r, c)], 0
                while stack:
                    y, x = stack.pop()
                    n += 1
                    for yy, xx in ((y - 1, x), (y + 1, x), (y, x - 1), (y, x + 1)):
                        if 0 <= yy < h and 0 <= xx < w and (yy, xx) not in comp and matrix[yy][xx] == v:
                            comp[(yy, xx)] = k
                            stack.append((yy, xx))
                sizes.append(n)
        self.comp_size = sizes
        inner = ([(0, c) for c in range(w)] + [(h - 1, c) for c in range(w)]
                 + [(r, 0) for r in range(h)] + [(r, w - 1) for r in range(h)])
        self.ring_v = [matrix[r][c] for r, c in inner]
        self.ring_comp = [comp.get((r, c), -1) for r, c in inner]


class Board:
    """A padded board: colours (-2 border, -1 empty, 0..4 card cells) and colour regions.

    Regions of one colour (1..4) are kept in a union-find whose roots know their sizes;
    regions only ever grow, so no cell ever leaves its region.
    """

    def __init__(self, rows, cols):
        self.rows, self.cols = rows, cols
        self.W = W = cols + 2
        self.colour = [-2] * ((rows + 2) * W)
        for r in range(rows):
            for c in range(cols):
                self.colour[(r + 1) * W + c + 1] = -1
        self.parent = list(range(len(self.colour)))
        self.size = [1] * len(self.colour)
        self.masks = [0] * rows  # occupied cells per row, bit c = column c
        self.top, self.bottom = rows, -1  # the occupied rows
        self.placed = 0

    def copy(self):
        """An independent copy (for trying a move without playing it)."""
        other = Board.__new__(Board)
        other.__dict__.update(self.__dict__)
        other.colour, other.parent, other.size = self.colour[:], self.parent[:], self.size[:]
        other.masks = self.masks[:]
        return other

    def find(self, i):
        parent = self.parent
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    def place(self, row, col, matrix):
        """Write a card (assumed legal) and merge its colour cells into their regions."""
        W, colour = self.W, self.colour
        cells = []
        for dr, line in enumerate(matrix):
            base_i = (row + dr + 1) * W + col + 1
            for dc, v in enumerate(line):
                colour[base_i + dc] = v
                if v > 0:
                    cells.append(base_i + dc)
        for i in cells:
            v = colour[i]
            for j in (i - W, i + W, i - 1, i + 1):
                if colour[j] == v:
                    a, b = self.find(i), self.find(j)
                    if a != b:
                        if self.size[a] < self.size[b]:
                            a, b = b, a
                        self.parent[b] = a
                        self.size[a] += self.size[b]
        bits = ((1 << len(matrix[0])) - 1) << col
        for r in range(row, row + len(matrix)):
            self.masks[r] |= bits
        self.top = min(self.top, row)
        self.bottom = max(self.bottom, row + len(matrix) - 1)
        self.placed += 1

    def anchors(self, h, w):
        """Every (row, col) where an h x w card may go: on the board, free, touching by an edge.

        Uses one occupancy bitmask per row (bit c = column c): for all columns of a row at once,
        'fits' is a run of w clear bits in the OR of the h rows covered, 'touches' a set bit in
        the rows just above/below that run, or just left/right of it in the covered rows.
        """
        rows, cols, masks = self.rows, self.cols, self.masks
        if h > rows or w > cols:
            return []
        if self.placed == 0:
            return [(r, c) for r in range(rows - h + 1) for c in range(cols - w + 1)]
        valid = (1 << (cols - w + 1)) - 1
        found = []
        for r in range(max(0, self.top - h), min(rows - h, self.bottom + 1) + 1):
            covered = 0
            for k in range(r, r + h):
                covered |= masks[k]
            free = ~covered
            fits = free
            for k in range(1, w):
                fits &= free >> k
            fits &= valid
            if not fits:
                continue
            edge = (masks[r - 1] if r > 0 else 0) | (masks[r + h] if r + h < rows else 0)
            vertical = edge
            for k in range(1, w):
                vertical |= edge >> k
            legal = fits & (vertical | (covered << 1) | (covered >> w))
            while legal:
                low = legal & -legal
                found.append((r, low.bit_length() - 1))
                legal ^= low
        return found

    def free(self, r, c, h, w):
        """True if the h x w rectangle at (r, c) (on the board) covers no card."""
        covered = 0
        for k in range(r, r + h):
            covered |= self.masks[k]
        return not (covered >> c) & ((1 << w) - 1)

    def ring_offsets(self, h, w):
        """Offsets (from a card's top-left cell) of its ring cells, in Orientation's order."""
        W = self.W
        return ([-W + c for c in range(w)] + [h * W + c for c in range(w)]
                + [r * W - 1 for r in range(h)] + [r * W + w for r in range(h)])

    def contacts(self, row, col, offsets):
        """The coloured cells around a card at (row, col): [(ring position, colour, region root)]."""
        colour = self.colour
        a = (row + 1) * self.W + col + 1
        out = []
        for p, off in enumerate(offsets):
            x = colour[a + off]
            if x > 0:
                out.append((p, x, self.find(a + off)))
        return out


def gain(o, contacts, size):
    """Points for orientation o at a place with these contacts: every old region it reaches
    scores its size once, plus every card component that reaches one."""
    score = 0
    comps = 0
    roots = []
    ring_v, ring_comp, comp_size = o.ring_v, o.ring_comp, o.comp_size
    for p, x, root in contacts:
        if ring_v[p] == x:
            k = ring_comp[p]
            if not (comps >> k) & 1:
                comps |= 1 << k
                score += comp_size[k]
            if root not in roots:
                roots.append(root)
                score += size[root]
    return score


class Hand:
    """Cards grouped by identity up to rotation, with how many of each are left."""

    def __init__(self, cards):
        self.classes = []  # list of lists of Orientation
        self.left = []
        self.index = {}  # every rotation -> class number
        for card in cards:
            rots = rotations(card)
            k = self.index.get(rots[0])
            if k is None:
                k = len(self.classes)
                self.classes.append([Orientation(m, k) for m in rots])
                self.left.append(0)
                for m in rots:
                    self.index[m] = k
            self.left[k] += 1

    def use(self, matrix):
        k = self.index.get(tuple(tuple(row) for row in matrix))
        if k is not None and self.left[k] > 0:
            self.left[k] -= 1

    def by_shape(self, counts=None):
        """{(h, w): [Orientation, ...]} of the cards still available."""
        counts = self.left if counts is None else counts
        shapes = {}
        for k, orients in enumerate(self.classes):
            if counts[k] > 0:
                for o in orients:
                    shapes.setdefault((o.h, o.w), []).append(o)
        return shapes


def all_moves(board, shapes):
    """Every legal placement with its immediate score: [(score, row, col, Orientation)]."""
    moves = []
    size = board.size
    for (h, w), orients in shapes.items():
        offsets = board.ring_offsets(h, w)
        for r, c in board.anchors(h, w):
            cont = board.contacts(r, c, offsets)
            if not cont:
                for o in orients:
                    moves.append((0, r, c, o))
                continue
            for o in orients:
                moves.append((gain(o, cont, size), r, c, o))
    return moves


class StrekyCore(base.BasePlayer):
    """Bookkeeping shared by the reference players: the board and both players' cards."""

    def __init__(self, login, boardRows, boardCols, cardsAtHand):
        super().__init__(login, boardRows, boardCols, cardsAtHand)
        self.board = Board(boardRows, boardCols)
        self.mine = Hand(cardsAtHand)
        self.theirs = Hand(cardsAtHand)

    def record(self, newCardOnDesk):
        """Note the opponent's last card (if any) on the board and in its hand."""
        if len(newCardOnDesk) == 3:
            row, col, matrix = newCardOnDesk
            self.cardsOnDesk.append([row, col, matrix])
            self.board.place(row, col, matrix)
            self.theirs.use(matrix)

    def answer(self, row, col, o):
        """Play orientation o at (row, col): update the bookkeeping and build the answer."""
        matrix = [list(line) for line in o.matrix]
        self.board.place(row, col, o.matrix)
        self.mine.use(o.matrix)
        self.cardsOnDesk.append([row, col, matrix])
        return [row, col, matrix]


# ---------------------------------------------------------------------------------------


class Player(StrekyCore):
    def __init__(self, login, boardRows, boardCols, cardsAtHand):
        super().__init__(login, boardRows, boardCols, cardsAtHand)
        self.playerName = "brute"

    def play(self, newCardOnDesk):
        self.record(newCardOnDesk)
        shapes = self.mine.by_shape()
        if self.board.placed == 0:
            return self.opening(shapes)
        moves = all_moves(self.board, shapes)
        if not moves:
            return []
        best = max(m[0] for m in moves)
        moves = [m for m in moves if m[0] == best]
        area = max(m[3].area for m in moves)
        moves = [m for m in moves if m[3].area == area]
        _score, row, col, o = random.choice(moves)
        return self.answer(row, col, o)

    def opening(self, shapes):
        """The first card of the game scores 0 anywhere: a random placement of a largest card."""
        area = max([h * w for (h, w) in shapes if self.board.anchors(h, w)] or [0])
        if area == 0:
            return []
        blocks = [(self.board.anchors(h, w), orients) for (h, w), orients in shapes.items() if h * w == area]
        pick = random.randrange(sum(len(a) * len(o) for a, o in blocks))
        for anchors, orients in blocks:
            if pick < len(anchors) * len(orients):
                (row, col), o = anchors[pick // len(orients)], orients[pick % len(orients)]
                return self.answer(row, col, o)
            pick -= len(anchors) * len(orients)
        return []
