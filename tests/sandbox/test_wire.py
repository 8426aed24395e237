"""The wire format: exact types survive, hostile values are refused, frames are capped."""

from __future__ import annotations

import os

import pytest

from harness.games.base import WireObject
from harness.sandbox.bot import wire


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


COLLIDING = 2 ** 61 - 1  # CPython hashes every int multiple of this to 0


def colliding_dict(entries: int) -> bytes:
    """A tagged dict of ``entries`` int keys that all hash to 0, as a forger would write it."""
    return b'{"$d": [' + b",".join(b"[%d, 0]" % (COLLIDING * k) for k in range(entries)) + b"]}"


def test_an_answer_s_dict_keys_must_be_str() -> None:
    """A key whose hash the bot chooses never reaches a dict: refused before anything is built."""
    for data in (colliding_dict(3), b'{"$d": [["a", 1], [2, 2]]}', b'{"$d": [[{"$t": [1]}, 2]]}',
                 b'{"$d": [[1.5, 2]]}', b'{"$d": [[null, 2]]}'):
        with pytest.raises(wire.WireError, match="dict key that is not a str"):
            wire.decode_answer(wire.parse(data), build)
    assert wire.decode_answer(wire.parse(b'{"$d": [["a", [1, {"$t": [2]}]]]}'), build) == {"a": [1, (2,)]}
    assert wire.loads(colliding_dict(3), build) == {0: 0, COLLIDING: 0, 2 * COLLIDING: 0}  # requests: as before


def test_an_answer_is_capped_in_values_and_dict_size() -> None:
    with pytest.raises(wire.WireError, match=f"a dict of {wire.ANSWER_DICT_ITEMS + 1} entries"):
        wire.decode_answer(wire.parse(colliding_dict(wire.ANSWER_DICT_ITEMS + 1)), build)
    big = {f"k{i}": i for i in range(wire.ANSWER_DICT_ITEMS)}
    assert wire.decode_answer(wire.parse(wire.dumps(big)), build) == big
    with pytest.raises(wire.WireError, match=f"more than {wire.ANSWER_NODES} values"):
        wire.decode_answer(wire.parse(wire.dumps([0] * wire.ANSWER_NODES)), build)
    wide = [[i, i] for i in range(wire.ANSWER_NODES // 3)]
    assert wire.decode_answer(wire.parse(wire.dumps(wide)), build) == wide


def test_quoridor_s_largest_real_answer_fits_the_caps() -> None:
    """SemBasic's expand_obstacles() on a 15x15 board: every wall as two Obstacles."""
    walls = [[WireObject("Obstacle", {"fromx": x, "fromy": y, "tox": x + 1, "toy": y}, "obstacle.Obstacle")] * 2
             for x in range(14) for y in range(14) for _ in range(2)]
    data = wire.dumps(walls, object_fields=lambda v: (v.cls, v.type_name, v.fields) if isinstance(v, WireObject) else None)
    assert len(wire.decode_answer(wire.parse(data), build)) == 392
