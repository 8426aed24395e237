"""Quoridor's settings: validation, defaults and the normalised (JSON) form.

Keys: ``sizex``, ``sizey`` (board size, 2..50), ``max_obstacles`` (walls per player, initial
walls excluded), ``ply_cap`` (default ``4 * sizex * sizey``; reaching it is a draw),
``start_columns`` (``[x_first, x_second]`` or ``"random"``) and ``initial_walls`` (a list of
walls, each ``[[x1, y1, x2, y2], [x1, y1, x2, y2]]``, or ``{"random": K}``). Random columns and
walls are drawn by :meth:`QuoridorRules.initial` from the game's seeded generator, so one seed
gives one start position whichever bot sits in which seat.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from harness.games.base import SettingsError
from harness.games.quoridor import board
from harness.games.quoridor.moves import Wall, WallKey, wall_key, wall_of_key

MAX_SIZE = 50
DEFAULT_SIZE = 9
DEFAULT_OBSTACLES = 10
KEYS = ("sizex", "sizey", "max_obstacles", "ply_cap", "start_columns", "initial_walls")


def _int(raw: Mapping[str, Any], key: str, default: int, low: int, high: int) -> int:
    value = raw.get(key, default)
    if type(value) is not int or not low <= value <= high:
        raise SettingsError(f"{key}: must be an integer from {low} to {high}, got {value!r}")
    return value


def parse(raw: Mapping[str, Any]) -> dict[str, Any]:
    """Validate ``raw`` settings and return them complete and normalised (see the module doc)."""
    unknown = sorted(set(raw) - set(KEYS))
    if unknown:
        raise SettingsError(f"unknown setting {unknown[0]!r} (known: {', '.join(KEYS)})")
    sx = _int(raw, "sizex", DEFAULT_SIZE, 2, MAX_SIZE)
    sy = _int(raw, "sizey", DEFAULT_SIZE, 2, MAX_SIZE)
    settings: dict[str, Any] = {
        "sizex": sx, "sizey": sy,
        "max_obstacles": _int(raw, "max_obstacles", DEFAULT_OBSTACLES, 0, 10_000),
        "ply_cap": _int(raw, "ply_cap", 4 * sx * sy, 1, 10_000_000),
        "start_columns": _columns(raw.get("start_columns", [sx // 2, sx // 2]), sx),
    }
    walls = raw.get("initial_walls", [])
    if isinstance(walls, Mapping):
        settings["initial_walls"] = _random_walls(walls, sx, sy)
    else:
        keys = _fixed_walls(walls, sx, sy)
        _check_paths(keys, settings["start_columns"], sx, sy)
        settings["initial_walls"] = [[list(e) for e in wall_of_key(k).ordered()] for k in keys]
    return settings


def _columns(value: Any, sx: int) -> Any:
    if value == "random":
        return "random"
    if (not isinstance(value, (list, tuple)) or len(value) != 2
            or not all(type(v) is int and 0 <= v < sx for v in value)):
        raise SettingsError(f"start_columns: must be \"random\" or a pair [x_first, x_second] of "
                            f"columns from 0 to {sx - 1}, got {value!r}")
    return [value[0], value[1]]


def _random_walls(value: Mapping[str, Any], sx: int, sy: int) -> dict[str, int]:
    count = value.get("random")
    limit = (sx - 1) * (sy - 1)
    if set(value) != {"random"} or type(count) is not int or not 0 <= count <= limit:
        raise SettingsError(f"initial_walls: must be a list of walls or {{\"random\": K}} with K from "
                            f"0 to {limit}, got {dict(value)!r}")
    return {"random": count}


def _fixed_walls(value: Any, sx: int, sy: int) -> list[WallKey]:
    if not isinstance(value, (list, tuple)):
        raise SettingsError(f"initial_walls: must be a list of walls or {{\"random\": K}}, got {value!r}")
    keys: list[WallKey] = []
    taken: dict[tuple[int, int, int, int], int] = {}
    for n, wall in enumerate(value):
        where = f"initial_walls[{n}]"
        if (not isinstance(wall, (list, tuple)) or len(wall) != 2
                or not all(isinstance(e, (list, tuple)) and len(e) == 4 and all(type(c) is int for c in e)
                           for e in wall)):
            raise SettingsError(f"{where}: a wall is [[x1, y1, x2, y2], [x1, y1, x2, y2]] of ints, "
                                f"got {wall!r}")
        key = wall_key(Wall.of(tuple(wall[0]), tuple(wall[1])), sx, sy)
        if isinstance(key, str):
            raise SettingsError(f"initial_walls: {where}: {key}")
        for edge in wall_of_key(key).edges:
            if edge in taken:
                raise SettingsError(f"initial_walls: {where} overlaps initial_walls[{taken[edge]}] "
                                    f"at edge ({edge[0]},{edge[1]})->({edge[2]},{edge[3]})")
            taken[edge] = n
        keys.append(key)
    return keys


def blocked_bits(keys: list[WallKey], sx: int) -> tuple[int, int]:
    """``(hb, vb)`` of a set of walls."""
    hb = vb = 0
    for key in keys:
        h, v = board.wall_bits(key, sx)
        hb |= h
        vb |= v
    return hb, vb


def open_columns(keys: list[WallKey], sx: int, sy: int, row: int) -> list[int]:
    """Columns of start row ``row`` from which the opposite row is reachable past ``keys``."""
    geo = board.geometry(sx, sy)
    hb, vb = blocked_bits(keys, sx)
    goal = geo.row(sy - 1 if row == 0 else 0)
    return [x for x in range(sx)
            if board.reaches(geo.bit(x, row), goal, geo.up_ok & ~hb, geo.right_ok & ~vb, sx)]


def _check_paths(keys: list[WallKey], columns: Any, sx: int, sy: int) -> None:
    for seat, row in ((0, 0), (1, sy - 1)):
        ok = open_columns(keys, sx, sy, row)
        if columns == "random":
            if not ok:
                raise SettingsError(f"initial_walls: no column of row {row} has a path to the "
                                    f"opposite row")
        elif columns[seat] not in ok:
            who = "first" if seat == 0 else "second"
            raise SettingsError(f"initial_walls: the {who} player, starting at ({columns[seat]}, {row}), "
                                f"has no path to its goal row {sy - 1 - row}")
