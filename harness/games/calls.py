"""A method call the harness makes on a bot: what games, batteries and the sandbox exchange.

Its own module so that :mod:`harness.games.battery` and :mod:`harness.games.base` (which names a
game's battery) import it without importing each other.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Call:
    """One method call the harness makes on a bot.

    ``method`` is ``"__init__"`` for the constructor (``args`` are the constructor's), a method
    name otherwise, or ``"setattr"`` with ``args == (name, value)`` to set an attribute (e.g.
    Štreky's ``tournament``; not timed as a bot call). ``limit`` picks which time limit
    applies: ``"init"`` or ``"move"``. Arguments are plain values or :class:`WireObject` s
    naming a wire class; the sandbox rebuilds them as real objects in the bot's process.
    """

    method: str
    args: tuple[Any, ...] = ()
    limit: str = "move"
    # A constructor of several accepted shapes: the arguments' names (for the reason a class that
    # fits no shape gets) and how many trailing ``args`` a class may leave out. E.g. Človeče's
    # ("color", "board") with 1: ``Player(color, board)``, else ``Player(color)``.
    params: tuple[str, ...] = ()
    optional: int = 0


__all__ = ["Call"]
