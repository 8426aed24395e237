"""One conformance suite that every registered game must pass (parametrised over the registry).

Seeded random playouts through the referee alone: every listed legal move is accepted by
``check``, moves survive the JSON round trip, games end within their bound, outcomes are
well formed, and the adapter turns malformed answers into ``BadAnswer`` instead of raising.
A game tunes the playouts with its spec's ``conformance``
(:class:`harness.games.base.Conformance`: raw settings, playouts, the bound on plies).
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from harness.games import game_names, get_game
from harness.games.base import BadAnswer, GameSpec, WireObject

MALFORMED: list[Any] = [None, "move", 3.5, True, [], [None], {"a": 1}, (1,), [[[]]], -10**9,
                        WireObject(None, {"x": 1}, "player.Fake"), [1, 2, 3, 4, 5]]


def conformance(game: GameSpec) -> dict[str, Any]:
    c = game.conformance
    return {"settings": list(c.settings), "playouts": c.playouts, "max_plies": c.max_plies}


@pytest.fixture(params=game_names())
def game(request: pytest.FixtureRequest) -> GameSpec:
    return get_game(request.param)


def test_random_playouts_keep_the_invariants(game: GameSpec) -> None:
    conf = conformance(game)
    rules = game.rules
    for i in range(conf["playouts"]):
        raw = conf["settings"][i % len(conf["settings"])]
        settings = rules.parse_settings(dict(raw))
        rng = random.Random(i)
        state = rules.initial(settings, random.Random(i))
        plies = 0
        while not rules.is_over(state):
            mover = rules.to_move(state)
            assert 0 <= mover < game.players
            moves = rules.legal_moves(state)
            assert moves, f"{game.name}: no legal move (not even a pass) in a running game"
            move = moves[rng.randrange(len(moves))]
            assert rules.check(state, move) is None, f"{game.name}: a listed move is refused"
            assert rules.move_from_json(rules.move_to_json(move)) == move
            state = rules.apply(state, move)
            plies += 1
            assert plies <= conf["max_plies"], f"{game.name}: game did not end"
        scores = rules.scores(state)
        assert len(scores) == game.players
        winner = rules.winner(state)
        assert winner is None or 0 <= winner < game.players


def test_settings_are_json_and_idempotent(game: GameSpec) -> None:
    import json

    for raw in conformance(game)["settings"]:
        settings = game.rules.parse_settings(dict(raw))
        assert json.loads(json.dumps(settings)) == settings
        assert game.rules.parse_settings(settings) == settings


def test_malformed_answers_are_bad_answers(game: GameSpec) -> None:
    rules = game.rules
    state = rules.initial(rules.parse_settings(dict(conformance(game)["settings"][0])), random.Random(0))
    seat = rules.to_move(state)
    for answer in MALFORMED:
        decoded = game.adapter.decode(state, seat, answer)
        if not isinstance(decoded, BadAnswer):
            # Some games accept one of these shapes (a pass); then the referee must judge it.
            assert rules.check(state, decoded) is None or isinstance(rules.check(state, decoded), str)


def test_setup_and_turn_calls_are_well_formed(game: GameSpec) -> None:
    rules = game.rules
    state = rules.initial(rules.parse_settings(dict(conformance(game)["settings"][0])), random.Random(0))
    for seat in range(game.players):
        calls = game.adapter.setup_calls(state, seat, "login", False)
        assert calls and calls[0].method == "__init__" and calls[0].limit == "init"
    calls = game.adapter.turn_calls(state, rules.to_move(state), [])
    assert calls and all(c.limit == "move" for c in calls)


def test_game_declares_its_interface(game: GameSpec) -> None:
    assert game.interface.required_methods, "a game names the methods a student's class must have"
    if game.botapi_dir is not None:
        assert game.botapi_dir.is_dir()
        for module, _cls in game.wire_classes.values():
            assert (game.botapi_dir / f"{module}.py").is_file()
    assert game.reference_dir.is_dir(), "a game ships reference players"
    if game.render is not None:
        import xml.etree.ElementTree as ET

        state = game.rules.initial(game.rules.parse_settings(dict(conformance(game)["settings"][0])),
                                   random.Random(0))
        ET.fromstring(game.render(state, None))  # well-formed SVG


def test_resolved_settings_rebuild_the_start_without_the_seed(game: GameSpec) -> None:
    """What a record stores as ``settings`` (:func:`resolved_settings`) is valid JSON settings that
    start the same game whatever the generator: the same mover, legal moves and scores."""
    import json

    from harness.games.base import resolved_settings

    rules = game.rules
    for i, raw in enumerate(conformance(game)["settings"]):
        settings = rules.parse_settings(dict(raw))
        start = rules.initial(settings, random.Random(i))
        resolved = resolved_settings(rules, settings, start)
        assert json.loads(json.dumps(resolved)) == resolved
        assert rules.parse_settings(resolved) == resolved
        if resolved == settings:
            continue  # nothing random to resolve in these settings
        again = rules.initial(resolved, random.Random(i + 1000))
        assert rules.to_move(again) == rules.to_move(start)
        assert [rules.move_to_json(m) for m in rules.legal_moves(again)] == \
            [rules.move_to_json(m) for m in rules.legal_moves(start)]
        assert rules.scores(again) == rules.scores(start)
