"""STREKY reference player "strong": the course's Brute (best immediate score) plus one move of lookahead.

For each of its placements (best immediate score first) it works out the opponent's best
reply with the opponent's remaining cards (both players are dealt the same cards, so they are
known exactly) and plays the placement with the best difference: my points now minus the
opponent's points next. Keeps its own board from newCardOnDesk, like a student's player.
"""

import random
import time

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


def best_gain(board, shapes):
    """The highest immediate score among all legal placements (0 if there is none), by brute
    force. The lookahead uses Replies instead; this is its reference."""
    return max([m[0] for m in all_moves(board, shapes)] or [0])


class Replies:
    """The opponent's best reply after each of my candidate moves, computed incrementally.

    Built once per turn on the current board: for every anchor where the opponent can place a
    card, the best score there and the regions it touches. After my candidate move m, a reply
    is either (1) untouched by m: its score is unchanged; (2) touching a region m extends:
    rescored on the trial board; or (3) next to m's card: enumerated around m on the trial
    board. The best of the three is exact.
    """

    def __init__(self, board, shapes):
        self.board = board
        self.shapes = [((h, w), orients, board.ring_offsets(h, w)) for (h, w), orients in shapes.items()]
        entries = []
        by_root = {}
        size = board.size
        for shape in self.shapes:
            (h, w), orients, offsets = shape
            for r, c in board.anchors(h, w):
                cont = board.contacts(r, c, offsets)
                if not cont:
                    continue
                best = max(gain(o, cont, size) for o in orients)
                roots = {root for _p, _x, root in cont}
                entry = (best, r, c, shape, roots)
                entries.append(entry)
                for root in roots:
                    by_root.setdefault(root, []).append(entry)
        entries.sort(key=lambda e: e[0], reverse=True)
        self.entries = entries
        self.by_root = by_root

    def floor(self, row, col, o):
        """A lower bound of the opponent's best score after I play o at (row, col): the best
        reply my card does not cover or touch (merging regions only ever raises scores)."""
        r1, c1 = row + o.h, col + o.w
        for g, r, c, ((h, w), _o, _off), _roots in self.entries:
            if not ((r - 1 < r1 and row < r + h + 1 and c < c1 and col < c + w)
                    or (r < r1 and row < r + h and c - 1 < c1 and col < c + w + 1)):
                return g
        return 0

    def after(self, row, col, o, merged):
        """The opponent's best score after I play o at (row, col); merged: the regions it extends."""
        board = self.board
        h0, w0 = o.h, o.w
        r1, c1 = row + h0, col + w0

        def near(r, c, h, w):
            # overlapping or sharing an edge with my card
            return ((r - 1 < r1 and row < r + h + 1 and c < c1 and col < c + w)
                    or (r < r1 and row < r + h and c - 1 < c1 and col < c + w + 1))

        best = 0
        for entry in self.entries:  # (1) the best reply m leaves alone
            g, r, c, ((h, w), _o, _off), roots = entry
            if g <= best:
                break
            if not near(r, c, h, w) and not (roots & merged):
                best = g
                break
        trial = board.copy()
        trial.place(row, col, o.matrix)
        seen = set()
        for root in merged:  # (2) replies that reach a region m extends
            for entry in self.by_root.get(root, ()):
                g, r, c, shape, roots = entry
                (h, w), orients, offsets = shape
                if id(entry) in seen or near(r, c, h, w):
                    continue
                seen.add(id(entry))
                best = _best_here(trial, r, c, orients, offsets, h * w, best)
        for (h, w), orients, offsets in self.shapes:  # (3) replies next to m
            for r in range(max(0, row - h), min(board.rows - h, r1) + 1):
                for c in range(max(0, col - w), min(board.cols - w, c1) + 1):
                    if r < r1 and row < r + h and c < c1 and col < c + w:
                        continue  # overlaps m
                    if not near(r, c, h, w) or not board.free(r, c, h, w):
                        continue  # only a corner of m, or not free
                    best = _best_here(trial, r, c, orients, offsets, h * w, best)
        return best


def _best_here(board, r, c, orients, offsets, area, best):
    """max(best, the best score of any of orients at (r, c)), skipped when it cannot win."""
    cont = board.contacts(r, c, offsets)
    if not cont:
        return best
    size = board.size
    if sum(size[root] for root in {root for _p, _x, root in cont}) + area <= best:
        return best
    for o in orients:
        g = gain(o, cont, size)
        best = max(best, g)
    return best


def merged_roots(board, row, col, o):
    """The regions my card o at (row, col) would extend (their roots on the current board)."""
    found = set()
    for p, x, root in board.contacts(row, col, board.ring_offsets(o.h, o.w)):
        if o.ring_v[p] == x:
            found.add(root)
    return found


class Player(StrekyCore):
    """Brute's greedy choice with one move of lookahead: my points minus the opponent's best reply.

    Candidates are my placements, best immediate score first (ties: larger card, then random);
    for each, the opponent's best answer with its remaining cards is computed exactly (see
    Replies). Candidates are examined until the time budget is spent or no later one can win.
    """

    BUDGET = 0.2  # seconds of lookahead per move (the limit is 1 s)

    def __init__(self, login, boardRows, boardCols, cardsAtHand):
        super().__init__(login, boardRows, boardCols, cardsAtHand)
        self.playerName = "lookahead"

    def play(self, newCardOnDesk):
        start = time.time()
        self.record(newCardOnDesk)
        shapes = self.mine.by_shape()
        moves = all_moves(self.board, shapes) if self.board.placed else self.opening_moves(shapes)
        if not moves:
            return []
        random.shuffle(moves)
        moves.sort(key=lambda m: (m[0], m[3].area), reverse=True)
        best, best_value = moves[0], None
        their_shapes = self.theirs.by_shape()
        if their_shapes and self.board.placed:
            replies = Replies(self.board, their_shapes)
            for move in moves:
                score, row, col, o = move
                if best_value is not None:
                    if score <= best_value:
                        break  # a reply costs at least 0: no later candidate can do better
                    if score - replies.floor(row, col, o) <= best_value:
                        continue  # cannot beat the best so far, whatever the exact reply
                if time.time() - start > self.BUDGET:
                    break
                value = score - replies.after(row, col, o, merged_roots(self.board, row, col, o))
                if best_value is None or value > best_value:
                    best, best_value = move, value
        _score, row, col, o = best
        return self.answer(row, col, o)

    def opening_moves(self, shapes):
        """First moves (all score 0): each card in each rotation near the middle of the board."""
        rows, cols = self.board.rows, self.board.cols
        out = []
        for (h, w), orients in shapes.items():
            if h <= rows and w <= cols:
                r, c = (rows - h) // 2, (cols - w) // 2
                for o in orients:
                    out.append((0, r, c, o))
        return out
