"""The frame edits of replay pages decode to exactly the drawings, and keep pages small."""

from __future__ import annotations

import pytest

from harness.record import GameRecord
from harness.report import delta
from harness.report.replay import replay_frames

CASES = [
    [],
    ["<svg>a</svg>"],
    ["abc", "abc", "abXc", "Xabc", "abcX", "", "abc", "a" * 100, "a" * 99 + "b", "b" + "a" * 99],
    ["<svg>" + "<rect/>" * 50 + "</svg>", "<svg>" + "<rect/>" * 51 + "</svg>", "<svg>" + "<rect/>" * 49 + "</svg>"],
    ["aaaa" * 30, "aaaa" * 31, "aaaa" * 29],  # repeats make prefix and suffix overlap: they must not
]


@pytest.mark.parametrize("texts", CASES)
def test_decode_undoes_encode(texts: list[str]) -> None:
    assert delta.decode(delta.encode(texts)) == texts


def test_common_prefix() -> None:
    assert [delta.common_prefix(a, b) for a, b in [("", "x"), ("abc", "abd"), ("abc", "abc"), ("ab", "abc")]] \
        == [0, 2, 3, 2]


def test_a_game_is_stored_as_small_edits(games: dict[str, GameRecord]) -> None:
    svgs = [f.svg for f in replay_frames(games["clean"])]
    entries = delta.encode(svgs)
    assert isinstance(entries[0], str) and all(isinstance(e, list) for e in entries[1:])
    assert delta.decode(entries) == svgs
    assert sum(len(str(e)) for e in entries) < 0.4 * sum(len(s) for s in svgs)
