"""Shared helpers of the Človeče tests: positions written by colour, moves by name."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Sequence
from types import ModuleType

from harness.games.clovece.rules import COLORS, Move, Position, State, begin

STABLE = (None, None, None, None)


def pieces(**by_color: Sequence[Position]) -> tuple[tuple[Position, ...], ...]:
    """Every colour's four positions; colours not named are all in the stable."""
    unknown = set(by_color) - set(COLORS)
    if unknown:
        raise ValueError(f"unknown colours {unknown}")
    return tuple(tuple(by_color.get(c, STABLE)) for c in COLORS)


def position(turn: str, rolls: Sequence[int], finished: Sequence[str] = (), dice_seed: int = 0,
             ply_cap: int = 4000, **by_color: Sequence[Position]) -> State:
    """``turn`` starts its turn with ``rolls`` (rolls without a move are skipped as in play)."""
    return begin(pieces(**by_color), COLORS.index(turn), dice_seed, rolls=tuple(rolls),
                 finished=tuple(COLORS.index(c) for c in finished), ply_cap=ply_cap)


def move(color: str, piece: int, target: int) -> Move:
    return Move(COLORS.index(color), piece, target)


def botapi() -> ModuleType:
    """The bot API module ``clovece`` exactly as a bot imports it (the wire classes' module)."""
    from harness.games.clovece import GAME

    if str(GAME.botapi_dir) not in sys.path:
        sys.path.insert(0, str(GAME.botapi_dir))
    return importlib.import_module("clovece")


def reference(name: str) -> type:
    """The ``Player`` class of ``reference_players/clovece/<name>.py`` (random, safe, mean, eager)."""
    from harness.games.clovece import GAME
    from harness.inprocess import load_class

    return load_class(GAME, GAME.reference_dir / f"{name}.py")
