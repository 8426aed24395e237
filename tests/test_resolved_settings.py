"""Records carry what was played: a game with a random or hidden setup (Štreky's drawn board and
deal, the tournament's shuffled deal, Quoridor's random start columns and walls) stores its
resolved settings, which rebuild the start from the record alone; the settings asked for stay
in ``requested``; records from before still load and replay; replays and reports show both."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from harness.games import get_game
from harness.games.base import resolved_settings
from harness.match import play_match
from harness.record import GameRecord
from harness.report.replay import render_replay, replay_positions
from harness.sandbox.process import Limits

REPO = Path(__file__).resolve().parents[1]
LIMITS = Limits(init=30.0, move=30.0, load=60.0)  # a busy machine must not end these games early


def reference(game: str, name: str) -> bytes:
    return (REPO / "reference_players" / game / f"{name}.py").read_bytes()


def round_trip(record: GameRecord) -> GameRecord:
    """The record as the store keeps it: JSON text and back."""
    return GameRecord.from_json(json.loads(json.dumps(record.to_json())))


@pytest.fixture(scope="module")
def streky_random() -> GameRecord:
    brute = reference("streky", "brute")
    return play_match(get_game("streky"), [brute, brute], settings={"cards": "random"}, seed=7,
                      logins=["a", "b"], limits=LIMITS)


def test_a_random_streky_record_holds_the_board_and_the_dealt_cards(streky_random: GameRecord) -> None:
    record = round_trip(streky_random)
    assert record.requested == {"rows": None, "cols": None, "cards": "random", "seed": None}
    settings = record.settings
    assert type(settings["rows"]) is int and type(settings["cols"]) is int
    assert isinstance(settings["cards"], list) and 7 <= len(settings["cards"]) <= 24
    rules = get_game("streky").rules
    start = rules.initial(rules.parse_settings({"cards": "random"}), random.Random(7))  # the deal of seed 7
    assert (settings["rows"], settings["cols"]) == (start.rows, start.cols)
    assert settings["cards"] == [[list(row) for row in m] for m in start.deck.cards]  # in the order dealt
    assert rules.parse_settings(settings) == settings  # valid settings, as any job could give


def test_the_record_alone_rebuilds_the_start_whatever_the_seed(streky_random: GameRecord) -> None:
    record = round_trip(streky_random)
    rules = get_game("streky").rules
    other = rules.initial(record.settings, random.Random(12345))  # no randomness is left to draw
    start = rules.initial(rules.parse_settings({"cards": "random"}), random.Random(7))
    assert (other.rows, other.cols, other.deck.cards) == (start.rows, start.cols, start.deck.cards)
    replay = replay_positions(record)
    assert replay.problem == "" and len(replay.positions) == record.plies + 1


def test_the_tournament_deal_is_resolved_too() -> None:
    game = get_game("streky")
    rules = game.rules
    settings = rules.parse_settings({"cards": "tournament"})
    start = rules.initial(settings, random.Random(3))
    resolved = resolved_settings(rules, settings, start)
    assert resolved == {"rows": 33, "cols": 33, "cards": [[list(r) for r in m] for m in start.deck.cards],
                        "seed": None}
    assert len(resolved["cards"]) == 24


@pytest.mark.parametrize("raw", [
    {"start_columns": "random"},
    {"start_columns": "random", "initial_walls": {"random": 4}},
    {"sizex": 11, "sizey": 11, "max_obstacles": 12, "start_columns": "random", "initial_walls": {"random": 7}},
])
def test_quoridor_s_random_start_is_spelled_out(raw: dict[str, Any]) -> None:
    rules = get_game("quoridor").rules
    settings = rules.parse_settings(raw)
    for seed in range(5):
        start = rules.initial(settings, random.Random(seed))
        resolved = resolved_settings(rules, settings, start)
        assert resolved["start_columns"] == [start.pawns[0][0], start.pawns[1][0]]
        assert isinstance(resolved["initial_walls"], list)
        assert len(resolved["initial_walls"]) == raw.get("initial_walls", {"random": 0})["random"]
        assert rules.parse_settings(resolved) == resolved
        again = rules.initial(resolved, random.Random(seed + 100))
        assert (again.pawns, again.hb, again.vb, again.walls) == (start.pawns, start.hb, start.vb, start.walls)


def test_a_quoridor_record_replays_from_its_resolved_start() -> None:
    bot = reference("quoridor", "random_legal")
    raw = {"start_columns": "random", "initial_walls": {"random": 4}}
    record = round_trip(play_match(get_game("quoridor"), [bot, bot], settings=raw, seed=4, limits=LIMITS))
    assert record.requested["start_columns"] == "random" and record.requested["initial_walls"] == {"random": 4}
    assert type(record.settings["start_columns"][0]) is int and len(record.settings["initial_walls"]) == 4
    replay = replay_positions(record)
    assert replay.problem == "" and len(replay.positions) == record.plies + 1


def test_a_game_without_a_random_setup_keeps_its_settings() -> None:
    bot = reference("blokovanie", "random")
    record = play_match(get_game("blokovanie"), [bot, bot], settings={"rows": 5, "cols": 6}, seed=1, limits=LIMITS)
    assert record.settings == record.requested == {"rows": 5, "cols": 6}


def test_an_old_record_without_resolved_settings_still_loads_and_replays(streky_random: GameRecord) -> None:
    data = streky_random.to_json()
    del data["requested"]  # a record written before resolved settings...
    data["settings"] = {"rows": None, "cols": None, "cards": "random", "seed": None}  # ... said only "random"
    old = GameRecord.from_json(data)
    assert old.requested == old.settings == data["settings"]
    # it is replayed from its seed (the deal of the current generator: the same here)
    replay = replay_positions(old)
    assert replay.problem == "" and len(replay.positions) == old.plies + 1
    page = render_replay(old)
    assert "as played" not in page  # nothing resolved to show


def test_the_replay_page_shows_the_settings_asked_for_and_as_played(streky_random: GameRecord) -> None:
    page = render_replay(streky_random)
    assert "&#34;cards&#34;: &#34;random&#34;" in page  # asked for
    assert "as played" in page
    rows, cols = streky_random.settings["rows"], streky_random.settings["cols"]
    assert f"rows: {rows}" in page and f"cols: {cols}" in page
    first = streky_random.settings["cards"][0]
    assert f"  0: {json.dumps(first, separators=(',', ':'))}" in page  # every dealt card, one a line
    assert f"cards: {len(streky_random.settings['cards'])}" in page


def test_games_stored_before_the_new_deals_are_not_reused() -> None:
    """Štreky's setup version is part of its games' keys: a store's games of the old generator (the
    same settings and seed) are played again; games of a game without a version keep their keys."""
    from harness.tournament.schedule import game_key

    seats = [("alice", "a" * 64), ("brute", "b" * 64)]
    settings = get_game("streky").rules.parse_settings({"cards": "random"})
    assert get_game("streky").setup_version == 1
    old = game_key("streky", settings, 1, seats, False, {})
    assert game_key("streky", settings, 1, seats, False, {}, 1) != old
    assert game_key("priemspel", {}, 1, seats, False, {}, 0) == game_key("priemspel", {}, 1, seats, False, {})


def test_harness_play_records_and_shows_the_deal(tmp_path: Path) -> None:
    import subprocess
    import sys

    page = tmp_path / "game.html"
    run = subprocess.run([sys.executable, "-m", "harness", "play", "streky",
                          str(REPO / "reference_players/streky/brute.py"), str(REPO / "reference_players/streky/random.py"),
                          "--set", "cards=random", "--seed", "4", "--json", "--replay", str(page)],
                         capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    record = json.loads(run.stdout)
    assert record["requested"]["cards"] == "random"
    rows, cols, cards = record["settings"]["rows"], record["settings"]["cols"], record["settings"]["cards"]
    assert 19 <= rows <= 33 and 19 <= cols <= 33 and 7 <= len(cards) <= 24
    html = page.read_text(encoding="utf-8")
    assert "as played" in html and f"rows: {rows}" in html and f"cards: {len(cards)}" in html
