"""Quoridor's settings: validation with one clear message per key, normalisation, seeded starts."""

from __future__ import annotations

import json
import random

import pytest

from harness.games.base import SettingsError
from harness.games.quoridor.rules import RULES


def test_defaults() -> None:
    assert RULES.parse_settings({}) == {"sizex": 9, "sizey": 9, "max_obstacles": 10, "ply_cap": 324,
                                        "start_columns": [4, 4], "initial_walls": []}


def test_ply_cap_and_start_columns_follow_the_size() -> None:
    s = RULES.parse_settings({"sizex": 15, "sizey": 10})
    assert s["ply_cap"] == 600 and s["start_columns"] == [7, 7]


@pytest.mark.parametrize("raw", [
    {"sizex": 5, "sizey": 7, "start_columns": (0, 4), "initial_walls": [((1, 2, 1, 3), [2, 3, 2, 2])]},
    {"initial_walls": {"random": 3}, "start_columns": "random"},
    {"sizex": 4, "sizey": 4, "initial_walls": [[[1, 1, 0, 1], [1, 2, 0, 2]], [[0, 1, 0, 2], [1, 1, 1, 2]]],
     "start_columns": [0, 0], "max_obstacles": 0, "ply_cap": 7},
])
def test_normalised_settings_are_json_and_idempotent(raw: dict) -> None:
    settings = RULES.parse_settings(raw)
    assert json.loads(json.dumps(settings)) == settings
    assert RULES.parse_settings(settings) == settings


def test_initial_walls_are_normalised() -> None:
    s = RULES.parse_settings({"sizex": 5, "sizey": 7, "initial_walls": [[[2, 3, 2, 2], [1, 2, 1, 3]]]})
    assert s["initial_walls"] == [[[1, 2, 1, 3], [2, 2, 2, 3]]]


@pytest.mark.parametrize(("raw", "message"), [
    ({"size": 9}, "unknown setting 'size' (known: sizex, sizey, max_obstacles, ply_cap, start_columns, initial_walls)"),
    ({"sizex": 1}, "sizex: must be an integer from 2 to 50, got 1"),
    ({"sizey": 51}, "sizey: must be an integer from 2 to 50, got 51"),
    ({"sizex": 9.0}, "sizex: must be an integer from 2 to 50, got 9.0"),
    ({"sizey": True}, "sizey: must be an integer from 2 to 50, got True"),
    ({"max_obstacles": -1}, "max_obstacles: must be an integer from 0 to 10000, got -1"),
    ({"ply_cap": 0}, "ply_cap: must be an integer from 1 to 10000000, got 0"),
    ({"start_columns": [0, 9]}, "start_columns: must be \"random\" or a pair [x_first, x_second] of columns from 0 to 8, got [0, 9]"),
    ({"start_columns": "middle"}, "start_columns: must be \"random\" or a pair"),
    ({"start_columns": [1]}, "start_columns: must be \"random\" or a pair"),
    ({"initial_walls": {"random": -1}}, "initial_walls: must be a list of walls or {\"random\": K} with K from 0 to 64, got {'random': -1}"),
    ({"initial_walls": {"many": 2}}, "initial_walls: must be a list of walls or {\"random\": K}"),
    ({"initial_walls": "none"}, "initial_walls: must be a list of walls or {\"random\": K}, got 'none'"),
    ({"initial_walls": [[[0, 0, 0, 1]]]}, "initial_walls[0]: a wall is [[x1, y1, x2, y2], [x1, y1, x2, y2]] of ints"),
    ({"initial_walls": [[[0, 0, 0, 1], [1, 0, 1, 1.5]]]}, "initial_walls[0]: a wall is"),
    ({"initial_walls": [[[0, 0, 0, 1], [2, 0, 2, 1]]]},
     "initial_walls: initial_walls[0]: obstacles (0,0)->(0,1) and (2,0)->(2,1) do not form a straight wall"),
    ({"initial_walls": [[[8, 0, 9, 0], [8, 1, 9, 1]]]}, "initial_walls: initial_walls[0]: obstacle (8,0)->(9,0) is off the 9x9 board"),
    ({"initial_walls": [[[0, 0, 0, 1], [1, 0, 1, 1]], [[1, 0, 1, 1], [2, 0, 2, 1]]]},
     "initial_walls: initial_walls[1] overlaps initial_walls[0] at edge (1,0)->(1,1)"),
    ({"sizex": 4, "sizey": 4, "start_columns": [0, 0],
      "initial_walls": [[[0, 0, 1, 0], [0, 1, 1, 1]], [[0, 1, 0, 2], [1, 1, 1, 2]]]},
     "initial_walls: the first player, starting at (0, 0), has no path to its goal row 3"),
    ({"sizex": 2, "sizey": 2, "initial_walls": [[[0, 0, 0, 1], [1, 0, 1, 1]]]},
     "initial_walls: the first player, starting at (1, 0), has no path to its goal row 1"),
    ({"sizex": 2, "sizey": 2, "start_columns": "random", "initial_walls": [[[0, 0, 0, 1], [1, 0, 1, 1]]]},
     "initial_walls: no column of row 0 has a path to the opposite row"),
])
def test_bad_settings_name_the_key(raw: dict, message: str) -> None:
    with pytest.raises(SettingsError) as info:
        RULES.parse_settings(raw)
    assert str(info.value).startswith(message), str(info.value)


def test_crossing_initial_walls_are_allowed() -> None:
    s = RULES.parse_settings({"initial_walls": [[[3, 3, 3, 4], [4, 3, 4, 4]], [[3, 3, 4, 3], [3, 4, 4, 4]]]})
    state = RULES.initial(s, random.Random(0))
    assert [w.key for w in state.walls] == [("H", 3, 3), ("V", 3, 3)]


def test_random_start_is_seeded_and_legal() -> None:
    settings = RULES.parse_settings({"sizex": 7, "sizey": 6, "start_columns": "random",
                                     "initial_walls": {"random": 8}})
    starts = set()
    for seed in range(30):
        a = RULES.initial(settings, random.Random(seed))
        b = RULES.initial(settings, random.Random(seed))
        assert a == b  # one seed, one start: both seatings of a pair play the same position
        assert len(a.walls) == 8 and a.used == (0, 0) and all(w.owner is None for w in a.walls)
        assert a.pawns[0][1] == 0 and a.pawns[1][1] == 5
        assert RULES.legal_moves(a)
        starts.add((a.pawns, a.walls))
    assert len(starts) > 20


def test_random_columns_avoid_walled_in_cells() -> None:
    # column 0 of row 0 is walled in; a random start never puts the first player there
    walls = [[[0, 0, 1, 0], [0, 1, 1, 1]], [[0, 1, 0, 2], [1, 1, 1, 2]]]
    settings = RULES.parse_settings({"sizex": 3, "sizey": 4, "start_columns": "random", "initial_walls": walls})
    assert {RULES.initial(settings, random.Random(s)).pawns[0][0] for s in range(40)} == {1, 2}


def test_too_many_random_walls_fill_the_board() -> None:
    # 2x3: both horizontal walls cut the board and the two vertical ones overlap: one wall fits
    settings = RULES.parse_settings({"sizex": 2, "sizey": 3, "initial_walls": {"random": 2}})
    for seed in range(5):
        state = RULES.initial(settings, random.Random(seed))
        assert [w.key[0] for w in state.walls] == ["V"] and state.wall_keys == ()
