"""The Clovece nehnevaj sa bot API: ``from clovece import BasePlayer``.

Write ``class Player(BasePlayer)`` with one method, ``get_move(self, roll)``. The harness
creates your player as the assignment does, ``Player(color, board)`` (``"black"``, ``"yellow"``,
``"green"`` or ``"red"``, and the board view: "referencia sa nastavi v konstruktore"); a
constructor that takes only the colour, ``__init__(self, color)``, is called as
``Player(color)``. Before each decision the harness sets ``self.board`` to a fresh read-only
view of the whole board,
then calls ``get_move(roll)`` once for each roll that has a valid move (a roll without one is
skipped by the harness, as is the whole turn of a player who is done).

``get_move`` returns the seed's form: a list with one tuple ``[(piece, target)]``, where
``piece`` is one of your ``Piece`` objects from ``self.pieces`` or ``self.board`` and ``target``
the position the piece moves to, seen from the piece (0 its start cell, 40..43 its home).
``self.prepare_targets([(piece, roll)])`` turns a move from ``get_valid_moves(roll)`` into
exactly that form::

    import random
    from clovece import BasePlayer

    class Player(BasePlayer):
        def get_move(self, roll):
            return self.prepare_targets([random.choice(self.get_valid_moves(roll))])

Positions are seen from the piece: ``None`` in the stable, 0..39 on the track counted from the
colour's start cell (``STARTING_POSITIONS``), 40..43 the colour's own home cells.
``board.normalize_position(position, color)`` gives the track index 0..39 of a track position.

Standard library only; the views are read-only copies, so changing them changes nothing.
"""

COLORS = ("black", "yellow", "green", "red")
STARTING_POSITIONS = {"black": 0, "yellow": 10, "green": 20, "red": 30}
TRACK_LENGTH = 40
HOME_POSITIONS = (40, 41, 42, 43)
LAST_POSITION = 43


class Piece:
    """A read-only view of one piece: ``color``, ``index`` (0..3 in its colour's piece order),
    ``position`` (seen from the piece) and ``active`` (out of the stable)."""

    def __init__(self, color, index=0, position=None):
        object.__setattr__(self, "color", color)
        object.__setattr__(self, "index", index)
        object.__setattr__(self, "position", position)

    @property
    def active(self):
        """False in the stable, True on the track or in the home (the seed's ``active``)."""
        return self.position is not None

    def is_active(self):
        """The same as ``active``."""
        return self.position is not None

    def get_color(self):
        """The piece's colour."""
        return self.color

    def get_position(self):
        """The piece's position seen from the piece (None in the stable)."""
        return self.position

    def get_index(self):
        """The piece's number 0..3 in its colour's piece order."""
        return self.index

    def is_done(self):
        """True if the piece is in its home (40..43)."""
        return self.position is not None and self.position >= HOME_POSITIONS[0]

    def move(self, steps):
        """The seed's ``Piece.move``: the position the piece would move to with ``steps``.

        A stable piece goes to 0 with a 6 and stays in the stable (None) otherwise; a piece
        that would pass 43 stays where it is. Whether the target is free is not checked here
        (see ``Board.can_move_there``).
        """
        if self.position is None:
            return 0 if steps == 6 else None
        target = self.position + steps
        return target if target <= LAST_POSITION else self.position

    def __setattr__(self, name, value):
        raise AttributeError("a Piece of the board view is read-only: the harness moves the pieces")

    def __delattr__(self, name):
        raise AttributeError("a Piece of the board view is read-only")

    def __repr__(self):
        where = "stable" if self.position is None else self.position
        return "Piece(%s %s at %s)" % (self.color, self.index, where)


class Board:
    """A read-only view of the whole board: every colour's four pieces.

    ``board`` is the seed's list of the 40 track cells (None or the ``Piece`` standing there,
    index 0 = black's start cell). The homes and stables are not part of it; see
    ``get_pieces``. ``Board(positions)`` builds a board for your own tests, e.g.
    ``Board({"yellow": [4, None, None, 41]})`` (missing colours stay in their stables).
    """

    __slots__ = ("_pieces",)

    def __init__(self, positions=None):
        positions = positions or {}
        pieces = []
        for color in COLORS:
            own = list(positions.get(color, [None] * 4))
            pieces.extend(Piece(color, i, p) for i, p in enumerate(own))
        object.__setattr__(self, "_pieces", pieces)

    @property
    def board(self):
        """The 40 track cells: None, or the Piece standing on the cell."""
        cells = [None] * TRACK_LENGTH
        for piece in self._pieces:
            if piece.position is not None and piece.position < TRACK_LENGTH:
                cells[self.normalize_position(piece.position, piece.color)] = piece
        return cells

    def get_pieces(self, color=None):
        """The four pieces of ``color`` in piece order (every colour's, 16, if None)."""
        if color is None:
            return list(self._pieces)
        return [p for p in self._pieces if p.color == color]

    def get_piece(self, color, index):
        """Piece ``index`` (0..3) of ``color``."""
        return self.get_pieces(color)[index]

    def normalize_position(self, position, player_color):
        """The seed's method: a track position (0..39, seen from a piece of ``player_color``)
        as the track index 0..39; a home position (40..43) and None unchanged."""
        if position is None or position >= TRACK_LENGTH:
            return position
        return (STARTING_POSITIONS[player_color] + position) % TRACK_LENGTH

    def get_piece_at(self, position, color):
        """The piece standing where a piece of ``color`` at ``position`` would stand, or None:
        on the track any colour's piece, in a home only ``color``'s own."""
        if position is None:
            return None
        if position >= TRACK_LENGTH:
            return next((p for p in self.get_pieces(color) if p.position == position), None)
        return self.board[self.normalize_position(position, color)]

    def can_move_there(self, player, piece, position):
        """The seed's method: True if ``piece`` may move to ``position`` (seen from the piece):
        the cell is empty or holds an opponent's piece (a capture); home cells must be free.
        ``player`` is accepted for the seed's signature; the piece's colour decides."""
        if type(position) is not int or not 0 <= position <= LAST_POSITION:
            return False
        other = self.get_piece_at(position, piece.color)
        return other is None or other.color != piece.color

    def __setattr__(self, name, value):
        raise AttributeError("the board view is read-only: the harness moves the pieces")

    def __repr__(self):
        parts = []
        for color in COLORS:
            shown = ["S" if p.position is None else str(p.position) for p in self.get_pieces(color)]
            parts.append("%s[%s]" % (color, ",".join(shown)))
        return "Board(%s)" % " ".join(parts)


class BasePlayer:
    """The seed's ``Player`` with its helper methods; subclass it and write ``get_move``.

    ``color`` is your colour; ``board`` the current board view (given to the constructor, as
    in the assignment, and set again by the harness before every ``get_move``); ``pieces``
    your four pieces on that board, in piece order. ``BasePlayer(color)`` works too.
    """

    def __init__(self, color, board=None):
        self.color = color
        self.board = board if board is not None else Board()

    @property
    def pieces(self):
        """Your four pieces on the current board, in piece order."""
        return self.board.get_pieces(self.color)

    @pieces.setter
    def pieces(self, value):
        raise AttributeError("self.pieces is your four pieces on the current board view "
                             "(self.board.get_pieces(self.color)): the harness keeps them, do not assign them")

    def is_done(self):
        """True if all four of your pieces are in the home."""
        return all(p.is_done() for p in self.pieces)

    def has_active(self):
        """True if at least one of your pieces is on the track (0..39)."""
        return any(p.position is not None and p.position < TRACK_LENGTH for p in self.pieces)

    def get_piece_positions(self):
        """Your pieces' positions seen from the pieces (None for the stable)."""
        return [p.position for p in self.pieces]

    def get_valid_moves(self, roll):
        """The seed's method: every valid move for ``roll`` as ``(piece, roll)``.

        The one exception: a 6 with a piece in the stable and your start cell free (no piece at
        all on it) must bring the first stable piece out, ``[(that piece, 0)]``.
        """
        pieces = self.pieces
        stable = [p for p in pieces if p.position is None]
        start = self.board.board[STARTING_POSITIONS[self.color]]
        if roll == 6 and stable and start is None:
            return [(stable[0], 0)]
        moves = []
        for piece in pieces:
            if piece.position is None and roll != 6:
                continue
            if piece.position is not None and piece.position + roll > LAST_POSITION:
                continue
            if self.board.can_move_there(self, piece, piece.move(roll)):
                moves.append((piece, roll))
        return moves

    def prepare_targets(self, moves):
        """The seed's method: planned moves ``[(piece, steps), ...]`` as one move per piece,
        ``[(piece, target), ...]`` in the order the pieces first appear.

        A stable piece's first move brings it out to 0 (its steps, 6 or the 0 of
        ``get_valid_moves``, are used up by that); every further move adds its steps:
        ``[(p1, 6), (p1, 6), (p1, 3)]`` for a stable ``p1`` gives ``[(p1, 9)]``,
        ``[(p2, 6), (p2, 2)]`` for ``p2`` at 14 gives ``[(p2, 22)]``. Targets are not checked.
        """
        targets = {}
        order = []
        for piece, steps in moves:
            if piece not in targets:
                order.append(piece)
                targets[piece] = piece.position
            targets[piece] = 0 if targets[piece] is None else targets[piece] + steps
        return [(piece, targets[piece]) for piece in order]

    def get_move(self, roll):
        """Your strategy: ``[(piece, target)]`` for ``roll``. Write it in your Player."""
        raise NotImplementedError("write get_move(self, roll) in your Player class")
