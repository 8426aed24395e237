"""The wire format: exact types survive, hostile values are refused, frames are capped."""

from __future__ import annotations

import os

import pytest

from harness.games.base import WireObject
from harness.sandbox import wire


class Obstacle:
    def __init__(self, x: int) -> None:
        self.fromx = x
        self._private = "not sent"


def build(name, type_name, fields):  # the parent's builder
    return WireObject(name, fields, type_name)


@pytest.mark.parametrize("value", [
    None, True, 0, -7, 1.5, "tah", [], [1, [2, [3]]], (1, 2), [(1, [2])], {"a": (1,)}, {1: [True]},
    [1, 2.0, False],
])
def test_round_trip_keeps_exact_types(value) -> None:
    back = wire.loads(wire.dumps(value), build)
    assert back == value
    assert repr(back) == repr(value)  # tuple stays tuple, 2.0 stays float, bool stays bool


def test_objects_carry_their_class_and_public_fields() -> None:
    data = wire.dumps([Obstacle(3)], {Obstacle: "Obstacle"})
    assert wire.loads(data, build) == [WireObject("Obstacle", {"fromx": 3}, f"{__name__}.Obstacle")]
    # The same class not declared as a wire class arrives as a look-alike (cls None).
    assert wire.loads(wire.dumps(Obstacle(1)), build).cls is None


@pytest.mark.parametrize(("value", "message"), [
    (float("nan"), "float nan"),
    (10 ** 100, "more than 256 bits"),
    (list(range(wire.MAX_NODES + 1)), "too large"),
])
def test_hostile_values_are_refused(value, message) -> None:
    with pytest.raises(wire.WireError, match=message):
        wire.dumps(value)


def test_cyclic_and_deep_structures_are_refused() -> None:
    cyclic: list = []
    cyclic.append(cyclic)
    with pytest.raises(wire.WireError, match="cyclic"):
        wire.dumps(cyclic)
    deep: list = []
    for _ in range(wire.MAX_DEPTH + 5):
        deep = [deep]
    with pytest.raises(wire.WireError, match="deeper than"):
        wire.dumps(deep)


def test_shared_but_acyclic_references_are_fine() -> None:
    row = [1, 2]
    assert wire.loads(wire.dumps([row, row]), build) == [[1, 2], [1, 2]]


def test_frames_round_trip_and_respect_the_cap() -> None:
    r, w = os.pipe()
    try:
        wire.write_frame(w, b'{"ok":true}')
        assert wire.read_frame(r, 100) == b'{"ok":true}'
        wire.write_frame(w, b"x" * 200)
        with pytest.raises(wire.WireError, match="exceeds the cap"):
            wire.read_frame(r, 100)
    finally:
        os.close(r)
        os.close(w)


@pytest.mark.parametrize("data", [b"{", b'{"$t": 3}', b'{"x": 1}', b'{"$d": [[[1], 2]]}'])
def test_malformed_messages_are_errors_not_crashes(data: bytes) -> None:
    with pytest.raises(wire.WireError):
        wire.loads(data, build)


def test_the_decoder_applies_the_encoder_s_caps_itself() -> None:
    """What the other side could have sent past its own caps is refused here, never a RecursionError."""
    def nested(depth: int, open_: str = "[", close: str = "]") -> bytes:
        return (open_ * depth + "0" + close * depth).encode()

    with pytest.raises(wire.WireError, match="deeper than 64"):
        wire.loads(nested(700), build)
    with pytest.raises(wire.WireError, match="deeper than 64"):
        wire.loads(nested(400, '{"$t":[', "]}"), build)
    with pytest.raises(wire.WireError, match="nested too deeply"):
        wire.loads(nested(100_000), build)
    assert wire.loads(nested(wire.MAX_DEPTH), build) is not None
    with pytest.raises(wire.WireError, match="more than 200000 values"):
        wire.loads(b"[" + b"0," * 200_000 + b"0]", build)
    with pytest.raises(wire.WireError, match="256 bits"):
        wire.loads(b"1" + b"0" * 4000, build)
    with pytest.raises(wire.WireError, match="float inf"):
        wire.loads(b"[1e999]", build)
    for constant in (b"NaN", b"Infinity", b"-Infinity"):
        with pytest.raises(wire.WireError, match="is not a number JSON allows"):
            wire.parse(b'{"cpu": ' + constant + b"}")


@pytest.mark.parametrize("data", [
    b'{"$t": [1], "x": 2}', b'{"$o": "Obstacle", "type": 3, "f": {}}', b'{"$o": 1, "type": "t", "f": {}}',
    b'{"$o": null, "type": "t", "f": []}', b'{"$d": [[{"$o": null, "type": "t", "f": {}}, 1]]}',
    b'{"$d": [[{"$t": [[1]]}, 1]]}', b'{"$d": [[1, 2, 3]]}', b"\xff",
])
def test_malformed_tags_and_unsafe_keys_are_errors(data: bytes) -> None:
    with pytest.raises(wire.WireError):
        wire.loads(data, build)


def test_plain_keys_are_kept() -> None:
    data = wire.dumps({(1, ("a", None)): 2, 2.5: True})
    assert wire.loads(data, build) == {(1, ("a", None)): 2, 2.5: True}
