"""BLOKOVANIE reference player "strong": exact play by Sprague-Grundy theory.

Blokovanie is an impartial game (both players have the same moves) under
the normal play rule (who cannot move loses). Picking a free cell removes it
and its free neighbours, so the free cells that touch (king-wise, diagonals
too) form independent parts: a move in one part never changes another. By
Sprague-Grundy theory each part has a number, its Grundy value (the
smallest value none of its moves reaches), and the player to move loses
exactly when the XOR of the values of all parts is 0. Values are remembered
per shape (moved to the top-left corner, and the same for all 8 rotations
and reflections), so the work done on one turn is reused on the next.

Each turn, within BUDGET seconds:
1. A symmetry win: a move after which the free cells are symmetric (point
   reflection through the centre, a mirror axis, or a diagonal on square
   boards) and no free cell is next to (or on) its own mirror image. From
   there the answer to every opponent move p is its mirror image p', which
   is always still free, so we make the last move. (On odd x odd boards
   the centre is such a first move.)
2. Exact search: the moves are tried in turn (those blocking the most free
   cells first, as they leave the smallest positions); the first one that
   leaves a position of value 0 wins. The search is not begun while some
   part has more than MAX_SEARCH free cells: it could not finish in time
   (an 8x8 board takes minutes), so the move is the one of step 3.
3. If every move is proven to lose, the one that leaves the opponent the
   largest share of replies that are mistakes. If time runs out, a move not
   yet proven to lose: the one blocking the most free cells (it shrinks the
   board towards sizes the search solves).

Measured (bench/bench_blokovanie.py): it wins every game against max_block
and random on boards it cannot solve at once, and loses to max_block only
where its seat is lost against perfect play. MAX_SEARCH = 64 beat 36 in 13
of 20 games and drew level with 49 and with no limit at all (which only
costs time).
"""

import time

# Seconds per move: the limit is 1 s, and a busy machine slows us 1.5-1.9x.
BUDGET = 0.3
# Shapes remembered before the memory is cleared (the sandbox caps memory).
MAX_MEMO = 400000
# Moves deep; deeper searches are given up (Python's stack is limited).
MAX_DEPTH = 120
# Free cells in one part: above this the search cannot finish in time.
MAX_SEARCH = 64


class OutOfTime(Exception):
    """The budget of this move is spent."""


class Grid:
    """Bit masks for an h x w grid: bit r * w + c is cell (r, c)."""

    def __init__(self, h, w):
        self.h, self.w = h, w
        self.full = (1 << (h * w)) - 1
        col0 = 0
        for r in range(h):
            col0 |= 1 << (r * w)
        self.not_first_col = self.full & ~col0
        self.not_last_col = self.full & ~(col0 << (w - 1))
        # block[i]: cell i and its neighbours, what a move at i blocks.
        self.block = []
        for r in range(h):
            for c in range(w):
                m = 0
                for rr in range(max(0, r - 1), min(h, r + 2)):
                    for cc in range(max(0, c - 1), min(w, c + 2)):
                        m |= 1 << (rr * w + cc)
                self.block.append(m)

    def parts(self, mask):
        """The king-connected parts of the cells in mask."""
        out = []
        w = self.w
        while mask:
            part = mask & -mask
            while True:
                x = (part | ((part << 1) & self.not_first_col)
                     | ((part >> 1) & self.not_last_col))
                x = (x | (x << w) | (x >> w)) & mask
                if x == part:
                    break
                part = x
            mask ^= part
            out.append(part)
        return out

    def shape(self, part):
        """The part moved to the top-left corner: (row bit masks, width)."""
        w = self.w
        r0 = ((part & -part).bit_length() - 1) // w
        r1 = (part.bit_length() - 1) // w
        row_mask = (1 << w) - 1
        rows = [(part >> (r * w)) & row_mask for r in range(r0, r1 + 1)]
        acc = 0
        for x in rows:
            acc |= x
        c0 = (acc & -acc).bit_length() - 1
        return tuple(x >> c0 for x in rows), acc.bit_length() - c0


def reverse_bits(x, n):
    """The n lowest bits of x in reverse order."""
    return int(format(x, "0%db" % n)[::-1], 2)


class Solver:
    """Grundy values of shapes, remembered across turns."""

    def __init__(self):
        self.grids = {}
        self.values = {}  # (width, rows) -> Grundy value, as the shape lies
        self.canonical = {}  # canonical form -> Grundy value
        self.deadline = float("inf")
        self.depth = 0

    def check_time(self):
        """Raise OutOfTime once the deadline has passed."""
        if time.perf_counter() > self.deadline:
            raise OutOfTime()

    def grid(self, h, w):
        """The Grid of an h x w board (made once)."""
        g = self.grids.get((h, w))
        if g is None:
            g = self.grids[(h, w)] = Grid(h, w)
        return g

    def position(self, grid, mask):
        """The Grundy value of the free cells mask: XOR of its parts."""
        value = 0
        for part in grid.parts(mask):
            rows, w = grid.shape(part)
            value ^= self.shape_value(rows, w)
        return value

    def shape_value(self, rows, w):
        """The Grundy value of one connected shape."""
        key = (w, rows)
        value = self.values.get(key)
        if value is not None:
            return value
        h = len(rows)
        if h <= 2 and w <= 2:
            value = 1  # every move blocks the whole shape
        else:
            canon = self.canonical_form(rows, w)
            value = self.canonical.get(canon)
            if value is None:
                if self.depth >= MAX_DEPTH:
                    raise OutOfTime()
                self.check_time()
                self.depth += 1
                try:
                    value = self.compute(rows, w)
                finally:
                    self.depth -= 1
                self.canonical[canon] = value
        if len(self.values) > MAX_MEMO:
            self.values.clear()
            self.canonical.clear()
        self.values[key] = value
        return value

    def compute(self, rows, w):
        """The smallest value that no move of the shape reaches."""
        grid = self.grid(len(rows), w)
        mask = 0
        for r, x in enumerate(rows):
            mask |= x << (r * w)
        reached = set()
        m = mask
        while m:
            low = m & -m
            m ^= low
            rest = mask & ~grid.block[low.bit_length() - 1]
            reached.add(self.position(grid, rest))
        value = 0
        while value in reached:
            value += 1
        return value

    def canonical_form(self, rows, w):
        """The smallest of the shape's 8 rotations and reflections."""
        h = len(rows)
        flipped = tuple(reverse_bits(x, w) for x in rows)
        cols = tuple(sum(((rows[r] >> c) & 1) << r for r in range(h))
                     for c in range(w))
        cols_flipped = tuple(reverse_bits(x, h) for x in cols)
        return min((h, w, rows), (h, w, flipped),
                   (h, w, rows[::-1]), (h, w, flipped[::-1]),
                   (w, h, cols), (w, h, cols_flipped),
                   (w, h, cols[::-1]), (w, h, cols_flipped[::-1]))


class Player:
    """Plays a winning move whenever it can prove one within BUDGET."""

    def __init__(self, name):
        self.name = name
        self.budget = BUDGET
        self.max_search = MAX_SEARCH
        self.solver = Solver()
        self.mirrors = {}

    # ---- the board -------------------------------------------------------
    def move(self, board):
        start = time.perf_counter()
        h, w = len(board), len(board[0])
        grid = self.solver.grid(h, w)
        free = 0
        for r in range(h):
            for c in range(w):
                if board[r][c] == '-':
                    free |= 1 << (r * w + c)
        if not free:
            return (0, 0)  # no free cell: the game is over, never asked then
        cell = self.choose(grid, free, start + self.budget)
        return divmod(cell, w)

    def choose(self, grid, free, deadline):
        """The cell (an index r * w + c) to play on the free cells free."""
        moves = []
        m = free
        while m:
            low = m & -m
            m ^= low
            moves.append(low.bit_length() - 1)
        # Most cells blocked first (the smallest positions left, cheapest
        # to solve); then row-major.
        moves.sort(key=lambda i: (-bin(free & grid.block[i]).count("1"), i))
        for i in moves:
            if self.symmetric_win(grid, free & ~grid.block[i]):
                return i
        largest = max(bin(part).count("1") for part in grid.parts(free))
        if largest > self.max_search:
            return moves[0]
        self.solver.deadline = deadline
        losing = {}  # move -> value of the position it leaves (not 0)
        try:
            for i in moves:
                # A remembered position costs no new shape, but time.
                self.solver.check_time()
                value = self.solver.position(grid, free & ~grid.block[i])
                if value == 0:
                    return i
                losing[i] = value
        except OutOfTime:
            # Not proven to lose, and the most cells blocked.
            return [i for i in moves if i not in losing][0]
        finally:
            self.solver.deadline = float("inf")
        return self.best_defence(grid, free, moves, deadline)

    # ---- symmetry --------------------------------------------------------
    def mirror_maps(self, grid):
        """Each symmetry of the board: (its name, the cells next to or on
        their own image)."""
        found = self.mirrors.get((grid.h, grid.w))
        if found is not None:
            return found
        h, w = grid.h, grid.w
        maps = {"point": lambda r, c: (h - 1 - r, w - 1 - c),
                "rows": lambda r, c: (h - 1 - r, c),
                "cols": lambda r, c: (r, w - 1 - c)}
        if h == w:
            maps["diagonal"] = lambda r, c: (c, r)
            maps["antidiagonal"] = lambda r, c: (w - 1 - c, h - 1 - r)
        found = []
        for name, f in maps.items():
            near = 0
            for r in range(h):
                for c in range(w):
                    rr, cc = f(r, c)
                    if abs(rr - r) <= 1 and abs(cc - c) <= 1:
                        near |= 1 << (r * w + c)
            found.append((name, near))
        self.mirrors[(h, w)] = found
        return found

    def image(self, grid, name, mask):
        """The mask reflected by the symmetry called name."""
        h, w, n = grid.h, grid.w, grid.h * grid.w
        if name == "point":
            return reverse_bits(mask, n)  # cell i goes to cell n - 1 - i
        if name == "antidiagonal":
            return reverse_bits(self.image(grid, "diagonal", mask), n)
        if name == "cols":
            # The point reflection, then the rows flipped back: only the
            # columns stay flipped.
            mask = reverse_bits(mask, n)
        if name in ("rows", "cols"):
            row_mask = (1 << w) - 1
            out = 0
            for r in range(h):
                row = (mask >> (r * w)) & row_mask
                out |= row << ((h - 1 - r) * w)
            return out
        out = 0  # "diagonal": (r, c) -> (c, r)
        while mask:
            low = mask & -mask
            mask ^= low
            r, c = divmod(low.bit_length() - 1, w)
            out |= 1 << (c * w + r)
        return out

    def symmetric_win(self, grid, free):
        """True if the opponent, to move on free, loses to mirror moves."""
        if not free:
            return True  # the opponent cannot move at all
        for name, near in self.mirror_maps(grid):
            if not free & near and self.image(grid, name, free) == free:
                return True
        return False

    # ---- a lost position -------------------------------------------------
    def best_defence(self, grid, free, moves, deadline):
        """Every move loses against perfect play: the one whose replies are
        most often mistakes."""
        best, best_share = moves[0], -1.0
        self.solver.deadline = deadline
        try:
            for i in moves:
                left = free & ~grid.block[i]
                replies = mistakes = 0
                m = left
                while m:
                    self.solver.check_time()
                    low = m & -m
                    m ^= low
                    replies += 1
                    rest = left & ~grid.block[low.bit_length() - 1]
                    if self.solver.position(grid, rest) != 0:
                        mistakes += 1
                share = mistakes / replies
                if share > best_share:
                    best, best_share = i, share
        except OutOfTime:
            pass
        finally:
            self.solver.deadline = float("inf")
        return best
