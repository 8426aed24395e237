"""SemBasic without processes: the battery's coverage, the comparison of answers, the report."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from harness.games.base import WireObject
from harness.games.quoridor.battery import DEFAULT_SEED, Position, battery
from harness.games.quoridor.moves import key_edges
from harness.games.quoridor.sembasic import SemBasicResult, compare_steps, compare_walls


def obs(e: tuple[int, int, int, int], cls: str | None = "Obstacle") -> WireObject:
    return WireObject(cls, dict(zip(("fromx", "fromy", "tox", "toy"), e)), "obstacle.Obstacle" if cls else "player.Obstacle")


def referee_walls(p: Position) -> list[list[WireObject]]:
    return [[obs(a), obs(b)] for a, b in (key_edges(k) for k in p.state.wall_keys)]


def test_battery_is_seeded_and_large() -> None:
    a, b = battery(), battery(DEFAULT_SEED)
    assert [x.to_json() for x in a] == [x.to_json() for x in b]
    assert [x.to_json() for x in battery(DEFAULT_SEED + 1)] != [x.to_json() for x in a]
    assert len(a) >= 200


def test_battery_covers_what_the_seed_asks_for() -> None:
    positions = battery()
    sizes = {(p.sizex, p.sizey) for p in positions}
    assert len(sizes) >= 15 and any(x != y for x, y in sizes) and (15, 15) in sizes and (2, 2) in sizes
    assert Counter(p.seat for p in positions).keys() == {0, 1}  # both start rows
    assert all(p.max_obstacles > 0 for p in positions)  # budget > 0
    assert all(p.me[1] in (0, p.sizey - 1) and p.opponent_start[1] == p.sizey - 1 - p.me[1] for p in positions)
    with_walls = [p for p in positions if p.walls]
    assert len(with_walls) > len(positions) // 2
    crossing_walls = [p for p in positions if any(("V", x, y) in p.walls for k, x, y in p.walls if k == "H")]
    crossing_legal = [p for p in positions if any((("V" if k == "H" else "H"), x, y) in p.walls
                                                  for k, x, y in p.state.wall_keys)]
    assert len(crossing_walls) >= 30 and len(crossing_legal) >= 30
    # near-trapped: walls the path check forbids (they overlap nothing) in many positions
    cut = [p for p in positions if len(p.expected_walls) < sum(
        1 for kind in "HV" for x in range(p.sizex - 1) for y in range(p.sizey - 1)
        if not any(e in {e2 for w in p.walls for e2 in key_edges(w)} for e in key_edges((kind, x, y))))]
    assert len(cut) >= 60
    assert Counter(len(p.expected_steps) for p in positions).keys() == {0, 1, 2, 3}
    adjacent = [p for p in positions if abs(p.opponent[0] - p.me[0]) + abs(p.opponent[1] - p.me[1]) == 1]
    assert len(adjacent) >= 20
    moved = [p for p in positions if p.opponent != p.opponent_start]
    assert len(moved) >= 20 and all(p.opponent[1] != p.me[1] for p in moved)  # never on its goal row
    assert positions[0].label == "worked example" and len(positions[0].expected_walls) == 11


def test_positions_are_legal_and_in_play() -> None:
    for p in battery():
        state = p.state
        assert state.turn == p.seat and state.pawns[p.seat] == p.me and state.pawns[1 - p.seat] == p.opponent
        assert state.outcome in (None, "stuck")


def test_the_referees_answers_pass() -> None:
    for p in battery()[:60]:
        assert compare_steps(p, [[x, y] for x, y in p.expected_steps]) is None
        assert compare_walls(p, referee_walls(p)) is None
        # any order, tuples, either direction inside each obstacle
        flipped = [(obs(b[2:] + b[:2]), obs(a)) for a, b in (key_edges(k) for k in p.state.wall_keys)]
        assert compare_walls(p, tuple(reversed(flipped))) is None


def test_missing_extra_and_duplicates_fail() -> None:
    p = battery()[0]  # the worked example
    walls = referee_walls(p)
    f = compare_walls(p, walls[1:])
    assert f is not None and f.reason == "expand_obstacles() returned 10 items where the referee has 11: 1 missing"
    assert f.missing == [tuple(sorted(key_edges(p.state.wall_keys[0])))]
    f = compare_walls(p, walls + [walls[0][::-1]])
    assert f is not None and f.reason.endswith("1 duplicated") and not f.missing and not f.extra
    f = compare_walls(p, walls + [[obs((1, 1, 1, 2)), obs((2, 1, 2, 2))]])
    assert f is not None and f.extra == [((1, 1, 1, 2), (2, 1, 2, 2))]
    assert "overlaps the initial wall" in f.text()
    f = compare_steps(p, [[1, 0], [0, 1], [0, 1]])
    assert f is not None and f.duplicates == [(0, 1)]
    f = compare_steps(p, [[1, 0], [1, 1]])
    assert f is not None and f.missing == [(0, 1)] and f.extra == [(1, 1)]
    assert "not one cell left, right, up or down" in json.dumps(f.to_json())


def test_malformed_answers_fail_with_a_reason() -> None:
    p = battery()[0]
    cases: list[tuple[Any, str]] = [
        (None, "expand_obstacles() must return a list, got None (NoneType)"),
        ([[obs((0, 0, 0, 1), cls=None), obs((1, 0, 1, 1))]],
         "expand_obstacles()[0][0] is an object of class player.Obstacle, not the harness's Obstacle class"),
        ([[obs((0, 0, 0, 1))]], "expand_obstacles()[0] must be [o1, o2] (two Obstacles)"),
        ([[[0, 0, 0, 1], [1, 0, 1, 1]]], "expand_obstacles()[0][0] must be an Obstacle, got [0, 0, 0, 1] (list)"),
    ]
    for answer, reason in cases:
        f = compare_walls(p, answer)
        assert f is not None and f.reason.startswith(reason), f.reason
    f = compare_steps(p, [[1, 0], (0, 1.0)])
    assert f is not None and f.reason == "expand_player()[1]: y must be an int, got 1.0 (float)"
    f = compare_steps(p, {"x": 1})
    assert f is not None and f.reason == "expand_player() must return a list, got {'x': 1} (dict)"


def test_failure_report_draws_the_position() -> None:
    p = battery()[0]
    f = compare_walls(p, referee_walls(p)[:-1] + [[obs((0, 0, 1, 0)), obs((0, 1, 1, 1))]])
    assert f is not None
    f.login = "alice"
    text = f.text()
    assert "position 0 (worked example), 4x4 board" in text
    assert "p.initialization(4, 4, 0, 0, 0, 3, 5, [Obstacle(0,1,0,2), Obstacle(1,1,1,2)])" in text
    assert "(0,0)->(1,0) + (0,1)->(1,1)  <- wall (0,0)->(1,0) + (0,1)->(1,1) leaves you (at (0, 0)) no path" in text
    assert "  0 | M x" in text  # the extra wall drawn next to the pawn
    data = f.to_json()
    assert data["part"] == "expand_obstacles" and data["position"] == 0 and len(data["missing"]) == 1
    assert data["extra"][0]["item"] == [[0, 0, 1, 0], [0, 1, 1, 1]]
    assert data["calls"][0] == "p = Player('alice')"


def test_result_json_shape() -> None:
    p = battery()[0]
    r = SemBasicResult(interface=True, positions=1, login="bob")
    r.points_by_part["expand_player"] = 1
    r.passed["expand_player"] = 1
    failure = compare_walls(p, [])
    assert failure is not None
    r.failures["expand_obstacles"] = failure
    data = json.loads(json.dumps(r.to_json()))
    assert {k: data[k] for k in ("interface", "expand_player", "expand_obstacles", "points")} == \
        {"interface": True, "expand_player": 1, "expand_obstacles": 0, "points": 1}
    assert data["first_failure"]["part"] == "expand_obstacles"
    assert "expand_obstacles: 0 points (failed at position 0 after 0 passed)" in r.text()
    bad = SemBasicResult(interface=False, interface_reason="class Player has no method make_move")
    assert bad.to_json()["first_failure"] is None and bad.points == 0
    assert "interface: FAILED: class Player has no method make_move" in bad.text()
