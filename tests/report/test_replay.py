"""Replays re-derive every position through the referee; frames, viewer data and odd records."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

from harness.record import GameRecord
from harness.report.replay import (FrameRenderer, frames_of, render_replay, replay_frames, replay_positions,
                                   viewer_data, write_replay)
from tests.report.conftest import GAME


def test_frames_reproduce_the_recorded_transcript(games: dict[str, GameRecord]) -> None:
    record = games["clean"]
    frames = replay_frames(record)
    assert record.plies == 8 and len(frames) == 9  # the start, then one frame per move
    # The match wrote the seed's notation after every move; the replay must land on the same squares.
    assert [f.text for f in frames] == record.transcript
    assert [f.move for f in frames[1:]] == [json.dumps(m.answer) for m in record.moves]
    assert [f.player for f in frames] == [None, 0, 1, 0, 1, 0, 1, 0, 1]
    assert frames[-1].score == record.scores == (0.0, 1.0)
    assert all(f.svg.startswith("<svg") and 'xmlns="http://www.w3.org/2000/svg"' in f.svg for f in frames)
    assert len({f.svg for f in frames}) == 9
    assert all(f.error == "" and f.accepted for f in frames)
    assert [f.wall for f in frames[1:]] == [m.wall for m in record.moves]


def test_a_rejected_answer_is_the_last_frame_with_the_verdict(games: dict[str, GameRecord]) -> None:
    record = games["bad_answer"]
    last = replay_frames(record)[-1]
    assert (last.ply, last.player, last.move, last.accepted) == (0, 0, '"2"', False)
    assert last.error == "wrong: bad_answer: zet() must return an int number of squares, got '2' (str)"
    assert last.svg.startswith("<svg")  # drawn without a highlight: "2" is no move


def test_an_illegal_move_is_shown_on_the_position_it_was_made_from(games: dict[str, GameRecord]) -> None:
    record = games["illegal"]
    positions = replay_positions(record).positions
    last = positions[-1]
    assert last.state.position == 3 and last.highlight == 3 and last.move is not None
    assert not last.move.accepted
    assert "illegal_move: square 6 (= 3 + 3) is not prime" in last.error


def test_a_verdict_without_an_answer_gets_its_own_last_frame(games: dict[str, GameRecord]) -> None:
    record = games["exception"]
    frames = replay_frames(record)
    assert len(frames) == record.plies + 2
    assert frames[-1].player is None and frames[-1].move == ""
    assert "crashy: exception: zet() raised IndexError" in frames[-1].error
    assert frames[-1].svg == frames[-2].svg  # the position did not change


def test_a_record_from_storage_replays_the_same(games: dict[str, GameRecord]) -> None:
    record = games["clean"]
    stored = GameRecord.from_json(json.loads(json.dumps(record.to_json())))
    assert ([(f.svg, f.text, f.move, f.score) for f in replay_frames(stored)]
            == [(f.svg, f.text, f.move, f.score) for f in replay_frames(record)])


def test_a_record_the_referee_refuses_stops_the_replay_with_the_reason(games: dict[str, GameRecord]) -> None:
    record = games["clean"]
    assert [m.answer for m in record.moves][:3] == [2, 3, 2]  # squares 2, 5, 7
    moves = list(record.moves)
    moves[2] = dataclasses.replace(moves[2], answer=1)  # from square 5 onto 6
    replay = replay_positions(dataclasses.replace(record, moves=moves))
    assert replay.problem == "recorded move 3 is refused by the referee now: square 6 (= 5 + 1) is not prime"
    assert [p.state.position for p in replay.positions] == [0, 2, 5]


def test_a_game_that_is_not_installed_still_gets_a_page(games: dict[str, GameRecord], tmp_path: Path) -> None:
    record = dataclasses.replace(games["clean"], game="no_such_game")
    assert replay_frames(record) == []
    page = write_replay(record, tmp_path / "deep/er/page.html").read_text()
    assert "This replay is incomplete: unknown game &#39;no_such_game&#39;" in page


def test_the_renderer_draws_each_position_once(games: dict[str, GameRecord]) -> None:
    renderer = FrameRenderer()
    record = games["clean"]
    replay_frames(record, renderer)
    assert renderer.drawn == 9
    replay_frames(record, renderer)  # the same game again: all drawn already
    replay_frames(games["clean_swapped"], renderer)  # same start square: the start is drawn already
    assert renderer.drawn == 9 + games["clean_swapped"].plies


def test_viewer_data_holds_each_distinct_drawing_once(games: dict[str, GameRecord]) -> None:
    frames = replay_frames(games["exception"])
    data = viewer_data(games["exception"], frames, start=-1 % len(frames))
    assert len(data["svgs"]) == len(frames) - 1  # the verdict frame reuses the last drawing
    assert [f["s"] for f in data["frames"]][-2:] == [len(frames) - 2] * 2
    assert data["start"] == len(frames) - 1 and data["players"] == ["crashy", "basis"]


def test_a_renderer_that_fails_leaves_the_frame_blank_not_the_page(games: dict[str, GameRecord]) -> None:
    def broken(state: object, highlight: object) -> str:
        raise RuntimeError("no drawing today")

    game = dataclasses.replace(GAME, render=broken)
    replay = replay_positions(games["clean"], game)
    frames = frames_of(games["clean"], replay)
    assert len(frames) == 9 and all(f.svg == "" for f in frames)


def test_a_board_the_deal_drew_is_shown_with_its_real_size(big_games: dict[str, GameRecord]) -> None:
    record = big_games["streky-random"]
    stored = json.dumps(record.to_json(), sort_keys=True)
    assert record.requested["rows"] is None and record.requested["cols"] is None  # the deal drew them
    start = replay_positions(record).positions[0].state
    assert (record.settings["rows"], record.settings["cols"]) == (start.rows, start.cols)  # as played
    size = f"board {start.rows} \u00d7 {start.cols}, "
    assert all(size in f.svg for f in replay_frames(record))  # every drawing says it
    page = render_replay(record)
    assert size in page  # the page holds the first drawing whole
    # ... and its settings line gives the real size where the record says null
    assert f"&#34;cols&#34;: {start.cols}" in page and f"&#34;rows&#34;: {start.rows}" in page
    assert json.dumps(record.to_json(), sort_keys=True) == stored  # the record is untouched
