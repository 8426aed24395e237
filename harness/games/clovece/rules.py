"""Človeče nehnevaj sa (seed 000): the pure referee, per ``docs/rules.md (Človeče)``.

Four seats in the seed's colour order: 0 black, 1 yellow, 2 green, 3 red, whose start cells are
track cells 0, 10, 20, 30. A piece's position is seen from the piece: ``None`` in the stable,
0..39 on the track counted from its own start cell, 40..43 its own (private) home cells.

A turn's rolls are drawn first (the seed's ``get_player_rolls``): one roll and another after
every 6 if the player has a piece on the track, else up to three rolls until a 6 comes and then
on while 6s come. Each roll is then one decision (a :class:`Move`) against the position as the
previous rolls left it; a roll with no valid move is skipped here, by the referee, so the state
machine always presents a decision until the game is over.

Dice are a pure function of the state: ``initial`` draws a 64-bit dice seed from the
``random.Random`` it is given, and the k-th roll of the game is :func:`roll_die` (seed, k).
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, NamedTuple

from harness.games.base import SettingsError

COLORS = ("black", "yellow", "green", "red")
STARTS = (0, 10, 20, 30)  # the seed's STARTING_POSITIONS, in seat order
PLAYERS = 4
PIECES = 4
TRACK = 40  # track cells 0..39; positions seen from a piece 0..39 are on the track
HOME = 40  # the first home cell; 40..43 are a colour's own home cells
LAST = 43
POINTS = (3.0, 2.0, 1.0, 0.0)  # points by place 1..4
DEFAULT_PLY_CAP = 4000
SETTINGS = ("ply_cap",)
# Turns in a row without any decision after which the game ends as capped. Unreachable in play
# (every position has a roll with a move, so this needs ~1000 unlucky turns in a row); it only
# keeps the referee total on hand-made positions where no roll could ever move.
MAX_IDLE_TURNS = 1000
SKIP_LOG = 24  # skipped rolls kept in the state, for drawings and transcripts

Position = int | None


class Move(NamedTuple):
    """One decision: move piece ``piece`` of seat ``seat`` to ``target`` (seen from the piece).

    ``seat`` is the colour of the piece the bot returned, which need not be the mover's: the
    referee refuses someone else's piece with a reason, so it must be expressible.
    """

    seat: int
    piece: int
    target: int


@dataclass(frozen=True)
class Last:
    """The previous decision, for drawings: who moved which piece from where to where, with
    which roll, and whom it captured (``(seat, piece)``)."""

    seat: int
    piece: int
    source: Position
    target: int
    roll: int
    captured: tuple[int, int] | None = None


@dataclass(frozen=True)
class State:
    """A position. Never mutated: :meth:`CloveceRules.apply` returns a new one.

    ``pieces[seat][i]`` is piece ``i``'s position seen from it. ``rolls`` are the current turn's
    rolls of seat ``turn``, ``index`` the one to decide now (the earlier ones are used or were
    skipped). ``drawn`` counts the rolls drawn so far in the game (the next roll is number
    ``drawn``). ``finished`` lists seats in the order they got their fourth piece home.
    ``skipped`` logs the last rolls without any valid move since the previous decision.
    """

    pieces: tuple[tuple[Position, ...], ...]
    turn: int
    rolls: tuple[int, ...]
    index: int
    dice_seed: int
    drawn: int
    finished: tuple[int, ...] = ()
    plies: int = 0
    ply_cap: int = DEFAULT_PLY_CAP
    capped: bool = False
    last: Last | None = None
    skipped: tuple[tuple[int, int], ...] = ()

    @property
    def over(self) -> bool:
        """True when every player is done or the ply cap ended the game."""
        return self.capped or len(self.finished) == PLAYERS

    @property
    def roll(self) -> int | None:
        """The roll to decide now (``None`` once the game is over)."""
        return None if self.over else self.rolls[self.index]


# ---- the board ------------------------------------------------------------------------------
def normalize(position: Position, seat: int) -> Position:
    """The seed's ``normalize_position``: a track position as a track index 0..39; a home
    position (40..43) and the stable (``None``) unchanged."""
    if position is None or position >= HOME:
        return position
    return (STARTS[seat] + position) % TRACK


def occupancy(pieces: Sequence[Sequence[Position]]) -> dict[int, tuple[int, int]]:
    """Track index -> (seat, piece) of the piece standing there."""
    cells = {}
    for seat, own in enumerate(pieces):
        for i, pos in enumerate(own):
            if pos is not None and pos < HOME:
                cells[(STARTS[seat] + pos) % TRACK] = (seat, i)
    return cells


def is_done(own: Sequence[Position]) -> bool:
    """All four pieces in the home (the seed's ``Player.is_done``)."""
    return all(p is not None and p >= HOME for p in own)


def has_active(own: Sequence[Position]) -> bool:
    """A piece on the track, 0..39 (the seed's ``Player.has_active``): decides the rolls."""
    return any(p is not None and p < HOME for p in own)


def progress(own: Sequence[Position]) -> int:
    """How far a player got: the sum over its pieces of 0 in the stable, else position + 1."""
    return sum(0 if p is None else p + 1 for p in own)


def moves_for(pieces: Sequence[Sequence[Position]], seat: int, roll: int) -> tuple[Move, ...]:
    """Every valid move of ``seat`` for ``roll``, by piece (the seed's ``get_valid_moves``).

    A 6 with a piece in the stable and the start cell free (no piece at all on it) forces the
    first stable piece out. Otherwise a stable piece comes out only with a 6 (capturing an
    opponent on the start cell), and a piece on the track or in its home moves ``roll`` cells
    if that is at most 43; a target holding a piece of the same colour is refused.
    """
    own = pieces[seat]
    if roll == 6 and None in own and STARTS[seat] not in occupancy(pieces):
        return (Move(seat, own.index(None), 0),)
    moves = []
    for i, pos in enumerate(own):
        if pos is None:
            if roll != 6:
                continue
            target = 0
        else:
            target = pos + roll
            if target > LAST:
                continue
        # Own pieces are all seen from the same start, so "own piece at target" is this test,
        # on the track and in the home alike.
        if target not in own:
            moves.append(Move(seat, i, target))
    return tuple(moves)


# ---- dice -----------------------------------------------------------------------------------
def roll_die(dice_seed: int, k: int) -> int:
    """The k-th roll (from 0) of a game with ``dice_seed``: a pure function, 1..6."""
    digest = hashlib.blake2b(b"clovece/%d/%d" % (dice_seed, k), digest_size=8).digest()
    # 2**64 % 6 == 4: the bias is below 1e-18, far under anything a game can show.
    return int.from_bytes(digest, "big") % 6 + 1


def draw_rolls(own: Sequence[Position], dice_seed: int, drawn: int) -> tuple[tuple[int, ...], int]:
    """A turn's rolls for a player whose pieces are ``own`` (the seed's ``get_player_rolls``),
    and the new count of rolls drawn."""
    rolls: list[int] = []

    def roll() -> int:
        nonlocal drawn
        rolls.append(roll_die(dice_seed, drawn))
        drawn += 1
        return rolls[-1]

    if not has_active(own):
        while len(rolls) < 3 and roll() != 6:  # up to three tries for a 6
            pass
        if rolls[-1] != 6:
            return tuple(rolls), drawn
    elif roll() != 6:
        return tuple(rolls), drawn
    while roll() == 6:  # after a 6 the player rolls again, and again after every further 6
        pass
    return tuple(rolls), drawn


# ---- the state machine -------------------------------------------------------------------
def next_seat(finished: Sequence[int], after: int) -> int:
    """The next seat after ``after`` in seat order that is not done (one must exist)."""
    for k in range(1, PLAYERS + 1):
        seat = (after + k) % PLAYERS
        if seat not in finished:
            return seat
    raise ValueError("every player is done")


def settle(state: State) -> State:
    """Skip rolls without a valid move (and turns of done players) until a decision or the end."""
    pieces, turn, rolls, index, drawn = state.pieces, state.turn, state.rolls, state.index, state.drawn
    skipped = list(state.skipped)
    capped = state.capped
    idle = 0
    while not (capped or len(state.finished) == PLAYERS):
        while index < len(rolls):
            found = moves_for(pieces, turn, rolls[index])
            if found:
                settled = replace(state, turn=turn, rolls=rolls, index=index, drawn=drawn,
                                  skipped=tuple(skipped[-SKIP_LOG:]))
                settled.__dict__["_legal"] = found  # computed here anyway: legal_moves reuses it
                return settled
            skipped.append((turn, rolls[index]))
            index += 1
        idle += 1
        if idle > MAX_IDLE_TURNS:
            capped = True
            break
        turn = next_seat(state.finished, turn)
        rolls, drawn = draw_rolls(pieces[turn], state.dice_seed, drawn)
        index = 0
    return replace(state, turn=turn, rolls=(), index=0, drawn=drawn, capped=capped,
                   skipped=tuple(skipped[-SKIP_LOG:]))


def begin(pieces: Sequence[Sequence[Position]], turn: int, dice_seed: int, drawn: int = 0,
          finished: Sequence[int] = (), ply_cap: int = DEFAULT_PLY_CAP, rolls: Sequence[int] | None = None,
          plies: int = 0) -> State:
    """A position where seat ``turn`` starts its turn; its ``rolls`` are drawn unless given.

    ``initial`` uses it; so do tests, to set up the seed's situations with chosen rolls.
    """
    own = tuple(tuple(p) for p in pieces)
    if len(own) != PLAYERS or any(len(p) != PIECES for p in own):
        raise ValueError("pieces must be 4 seats of 4 positions")
    for seat, ps in enumerate(own):
        for p in ps:
            if p is not None and (type(p) is not int or not 0 <= p <= LAST):
                raise ValueError(f"bad position {p!r} of {COLORS[seat]}")
        placed = [p for p in ps if p is not None]
        if len(set(placed)) != len(placed):
            raise ValueError(f"two pieces of {COLORS[seat]} on one cell")
    if len(occupancy(own)) != sum(1 for ps in own for p in ps if p is not None and p < HOME):
        raise ValueError("two pieces on one track cell")
    done = tuple(finished) + tuple(s for s in range(PLAYERS) if is_done(own[s]) and s not in finished)
    if rolls is None:
        rolls, drawn = draw_rolls(own[turn], dice_seed, drawn)
    state = State(own, turn, tuple(rolls), 0, dice_seed, drawn, done, plies, ply_cap)
    if turn in done:
        return settle(replace(state, rolls=(), index=0))
    return settle(state)


class CloveceRules:
    """The referee. A move is a :class:`Move`; JSON ``{"color", "piece", "target"}``."""

    def parse_settings(self, raw: Mapping[str, Any]) -> dict[str, Any]:
        unknown = sorted(set(raw) - set(SETTINGS))
        if unknown:
            raise SettingsError(f"unknown setting {unknown[0]!r} (known: {', '.join(SETTINGS)})")
        cap = raw.get("ply_cap", DEFAULT_PLY_CAP)
        if type(cap) is not int or not 1 <= cap <= 10_000_000:
            raise SettingsError(f"ply_cap: must be an integer from 1 to 10000000, got {cap!r}")
        return {"ply_cap": cap}

    def initial(self, settings: Mapping[str, Any], rng: random.Random) -> State:
        empty = ((None,) * PIECES,) * PLAYERS
        return begin(empty, 0, rng.getrandbits(64), ply_cap=settings["ply_cap"])

    def to_move(self, state: State) -> int:
        return state.turn

    def legal_moves(self, state: State) -> Sequence[Move]:
        if state.over:
            return ()
        found = state.__dict__.get("_legal")
        if found is None:  # a state built another way (``begin``, ``replace`` in tests)
            found = state.__dict__["_legal"] = moves_for(state.pieces, state.turn, state.rolls[state.index])
        return found

    def check(self, state: State, move: Move) -> str | None:
        if state.over:
            return "the game is over"
        seat, i, target = move
        me = COLORS[state.turn]
        if not 0 <= seat < PLAYERS or not 0 <= i < PIECES:
            return f"there is no piece {i} of seat {seat}: seats and pieces are numbered 0..3"
        if seat != state.turn:
            return f"piece {i} of {COLORS[seat]} is not yours: you play {me}"
        roll = state.rolls[state.index]
        own = state.pieces[seat]
        pos = own[i]
        if roll == 6 and None in own and STARTS[seat] not in occupancy(state.pieces):
            first = own.index(None)
            if (i, target) != (first, 0):
                return (f"a 6 with a piece in the stable and {me}'s start cell free: piece {first} "
                        f"(the first piece in the stable) must come out to 0")
            return None
        if pos is None:
            if roll != 6:
                return f"piece {i} of {me} is in the stable: only a 6 brings it out (the roll is {roll})"
            expected = 0
            if target != 0:
                return f"piece {i} of {me} comes out of the stable onto its start 0, not to {target}"
        else:
            expected = pos + roll
            if expected > LAST:
                return (f"piece {i} of {me} at {pos} cannot move {roll}: {expected} is past the last "
                        f"home cell {LAST}")
            if target != expected:
                return f"piece {i} of {me} is at {pos} and the roll is {roll}: its target is {expected}, not {target}"
        if expected in own:
            j = own.index(expected)
            if expected >= HOME:
                return f"target {expected}: {me}'s home cell {expected} is occupied by its own piece {j}"
            return (f"target {expected} (track cell {normalize(expected, seat)}) is occupied by {me}'s "
                    f"own piece {j}")
        return None

    def apply(self, state: State, move: Move) -> State:
        seat, i, target = move
        pieces = [list(own) for own in state.pieces]
        source = pieces[seat][i]
        captured = None
        if target < HOME:
            hit = occupancy(state.pieces).get((STARTS[seat] + target) % TRACK)
            if hit is not None and hit[0] != seat:
                captured = hit
                pieces[hit[0]][hit[1]] = None  # back to its stable
        pieces[seat][i] = target
        finished = state.finished
        if seat not in finished and is_done(pieces[seat]):
            finished += (seat,)
        plies = state.plies + 1
        after = replace(state, pieces=tuple(tuple(own) for own in pieces), index=state.index + 1,
                        finished=finished, plies=plies, capped=plies >= state.ply_cap,
                        last=Last(seat, i, source, target, state.rolls[state.index], captured), skipped=())
        return settle(after)

    def is_over(self, state: State) -> bool:
        return state.over

    def ranking(self, state: State) -> tuple[int, ...]:
        """Places 1..4: finishers in finishing order, then the others by :func:`progress`
        (more is better; equal progress shares the better place)."""
        places = [0] * PLAYERS
        for place, seat in enumerate(state.finished, start=1):
            places[seat] = place
        rest = sorted((s for s in range(PLAYERS) if s not in state.finished),
                      key=lambda s: -progress(state.pieces[s]))
        for k, seat in enumerate(rest):
            same = k and progress(state.pieces[seat]) == progress(state.pieces[rest[k - 1]])
            places[seat] = places[rest[k - 1]] if same else len(state.finished) + k + 1
        return tuple(places)

    def scores(self, state: State) -> tuple[float, ...]:
        """3/2/1/0 points by place; while the game runs, finishers have theirs, the others 0."""
        places = self.ranking(state)
        return tuple(POINTS[p - 1] if state.over or s in state.finished else 0.0 for s, p in enumerate(places))

    def winner(self, state: State) -> int | None:
        if state.finished:
            return state.finished[0]
        if not state.over:
            return None
        firsts = [s for s, p in enumerate(self.ranking(state)) if p == 1]
        return firsts[0] if len(firsts) == 1 else None

    def move_to_json(self, move: Move) -> dict[str, Any]:
        return {"color": COLORS[move.seat], "piece": move.piece, "target": move.target}

    def move_from_json(self, data: Any) -> Move:
        if not isinstance(data, dict) or set(data) != {"color", "piece", "target"}:
            raise ValueError(f'a Človeče move is {{"color", "piece", "target"}}, got {data!r}')
        color, piece, target = data["color"], data["piece"], data["target"]
        if color not in COLORS:
            raise ValueError(f"color must be one of {', '.join(COLORS)}, got {color!r}")
        if type(piece) is not int or not 0 <= piece < PIECES:
            raise ValueError(f"piece must be 0..3, got {piece!r}")
        if type(target) is not int:
            raise ValueError(f"target must be an int, got {target!r}")
        return Move(COLORS.index(color), piece, target)


def describe(state: State, names: Sequence[str]) -> str:
    """One short line per position (the record's transcript): who decides which roll of the
    turn's rolls, and the rolls skipped since the previous decision; at the end, the order."""
    def who(seat: int) -> str:
        return f"{COLORS[seat]} ({names[seat]})" if seat < len(names) else COLORS[seat]

    skipped = f"; no move: {', '.join(f'{COLORS[s]} {r}' for s, r in state.skipped)}" if state.skipped else ""
    if state.over:
        end = "ply cap reached" if state.capped else "everyone is home"
        order = ", ".join(who(s) for s in state.finished) or "nobody"
        return f"ply {state.plies}: over, {end}; finished: {order}{skipped}"
    rolls = " ".join(f"[{r}]" if k == state.index else str(r) for k, r in enumerate(state.rolls))
    return f"ply {state.plies}: {who(state.turn)} to play the {state.roll} of {rolls}{skipped}"


RULES = CloveceRules()
