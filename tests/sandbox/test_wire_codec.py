"""The wire's JSON without the json module (``_json`` alone) does exactly what json does.

:mod:`harness.sandbox.bot.wire` encodes and parses with the C accelerator ``_json`` directly, so a
bot's process never imports ``json`` (and ``re``). These tests hold it to the json module's own
results on the same hostile inputs: the same values, the same refusals with the same messages.
The fallback (a Python without ``_json``) is run too, in a real interpreter where ``_json``
cannot be imported.
"""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from harness.sandbox.bot import wire

ROOT = Path(__file__).resolve().parents[2]  # the checkout (tests/sandbox/ is two below it)


def _reference_parse(data: bytes | str) -> Any:
    """What ``wire.parse`` did with the json module: its value, or its WireError's text."""
    try:
        return ("ok", json.loads(data, parse_constant=wire._no_constant))
    except RecursionError:
        return ("error", "nested too deeply")
    except ValueError as exc:
        return ("error", str(exc)[:200])


def _parse(data: bytes | str) -> Any:
    try:
        return ("ok", wire.parse(data))
    except wire.WireError as exc:
        return ("error", str(exc))


HOSTILE: list[bytes | str] = [
    b"", b" ", b"\n\t\r ", b"{", b"}", b"[", b"[1,", b"[1,]", b'{"a" 1}', b'{"a":1,}', b"nul", b"tru",
    b'"abc', b'"\\x"', b'"\\u12"', b'"\\ud800"', b'"\\udc00\\ud800"', b'"a\x01b"', b'"tab\there"',
    b"NaN", b"Infinity", b"-Infinity", b"[NaN]", b'{"cpu": -Infinity}', b"nan", b"inf",
    b"1e999", b"-1e999", b"1" + b"0" * 4300, b"1" + b"0" * 4299, b"-0", b"0.0e-400", b"01", b"1.", b".5",
    b"  {} ", b"{}x", b"[] []", b"1 2", b'{"a":1}\n', b'{"a":1} \x00', b"\x00", b"\x00{", b"{\x00",
    b"\xef\xbb\xbf{}", b"\xfe\xff\x00{\x00}", b"\xff\xfe{\x00}\x00", b"\x00\x00\xfe\xff\x00\x00\x00[\x00\x00\x00]",
    b"\xff\xfe\x00\x00[\x00\x00\x00]\x00\x00\x00", "[1]".encode("utf-16-le"), "[1]".encode("utf-16-be"),
    "[1]".encode("utf-32-le"), "[1]".encode("utf-32-be"), b"\x00[", b"[\x00", b"\xff", b"\xc3", b'"\xed\xa0\x80"',
    b"\xed\xa0\x80", "\"é\"".encode(), b'{"a":1,"a":2}', b'{"$t":[1,2]}', b"[" * 100_000 + b"]" * 100_000,
    b'{"a":' * 3000 + b"1" + b"}" * 3000, b"[" + b"0," * 50_000 + b"0]", b'"' + b"\\u0041" * 10_000 + b'"',
    b" " * 100_000 + b"1", b"1" + b" " * 100_000, b"1" + b" " * 100_000 + b"x",
    "", " ", "\ufeff{}", "{}", "[1] x", "\ud800", '"\ud800"', "NaN", "[1e999]",
]


@pytest.mark.parametrize("data", HOSTILE, ids=lambda d: repr(d[:24]))
def test_parse_matches_the_json_module(data: bytes | str) -> None:
    assert repr(_parse(data)) == repr(_reference_parse(data))


class Weird(str):
    """A bot's str subclass (the worker's envelope and a value's field names may be one)."""


class Number(int):
    def __repr__(self) -> str:  # json ignores it: int.__repr__
        return "bad"


class Thing:
    pass


def _values() -> list[Any]:
    cyclic: list[Any] = [1]
    cyclic.append(cyclic)
    deep: Any = 0
    for _ in range(100_000):
        deep = [deep]
    return [
        None, True, False, 0, -1, 10 ** 400, 1.5, -0.0, 1e300, 5e-324, math.nan, math.inf, -math.inf,
        [math.nan], {"a": math.inf}, "", "é\u2028\ud800\x00\x1f\"\\", Weird("w"), {Weird("k"): Weird("v")},
        Number(5), [Number(7)], {1: 2, 2.5: 3, None: 4, True: 5, False: 6}, {(1, 2): 3}, {Thing(): 1},
        Thing(), [Thing()], (1, 2), [(1, [2])], {"a": (1,)}, b"bytes", {1, 2}, cyclic, {"x": cyclic}, deep,
        list(range(1000)), {"ok": True, "seq": 7, "cpu": 0.0123, "reason": "x" * 5000},
    ]


def _outcome(encode: Any, value: Any) -> tuple[str, str]:
    try:
        return ("ok", encode(value))
    except (TypeError, ValueError, RecursionError) as exc:
        return (type(exc).__name__, str(exc))


@pytest.mark.parametrize("index", range(len(_values())))
def test_the_envelope_encoder_matches_the_json_module(index: int) -> None:
    value = _values()[index]
    assert _outcome(wire.encode_json, value) == _outcome(json.JSONEncoder().encode, value)


def test_the_answer_encoder_matches_the_json_module_on_what_the_walk_hands_it() -> None:
    """``COMPACT`` gets :func:`wire.encode_value`'s output only (plain, acyclic, capped): on that it
    writes what json writes, and refuses NaN and the infinities as json does."""
    compact = json.JSONEncoder(separators=(",", ":"), allow_nan=False).encode
    for value in _values():
        try:
            plain = wire.encode_value(value)
        except wire.WireError:
            continue
        assert _outcome(wire.COMPACT, plain) == _outcome(compact, plain)
    for value in ([math.nan], {"a": math.inf}, -math.inf, Weird("w"), {Weird("k"): 1}, {1: 2, None: 3}):
        assert _outcome(wire.COMPACT, value) == _outcome(compact, value)


def test_an_envelope_encoder_left_mid_value_does_not_remember_it() -> None:
    """A refusal part-way through leaves no marker behind: the next envelope is not called cyclic."""
    shared = [1]
    with pytest.raises(TypeError):
        wire.encode_json([shared, Thing()])
    assert wire.encode_json([shared, shared]) == "[[1], [1]]"


_FALLBACK = """
import json, sys
sys.modules["_json"] = None  # this Python has no _json: the wire must use the json module
sys.path.insert(0, sys.argv[1])
from harness.sandbox.bot import wire
assert wire._json is None
out = []
for data in json.loads(sys.stdin.read()):
    data = bytes.fromhex(data)
    try:
        out.append(["ok", repr(wire.parse(data))])
    except wire.WireError as exc:
        out.append(["error", str(exc)])
for value in ([1, 2.5, "x"], {"a": [None, True]}, [float("nan")], "s"):
    for encode in (wire.COMPACT, wire.encode_json):
        try:
            out.append(["ok", encode(value)])
        except ValueError as exc:
            out.append(["error", str(exc)])
print(json.dumps(out))
"""


def test_the_fallback_without__json_gives_the_same_results() -> None:
    # Inputs the pure-Python scanner handles alike (not the 100,000-deep ones: its recursion differs).
    inputs = [d for d in HOSTILE if isinstance(d, bytes) and len(d) < 50_000]
    run = subprocess.run([sys.executable, "-I", "-S", "-c", _FALLBACK, str(ROOT)], capture_output=True, text=True,
                         input=json.dumps([d.hex() for d in inputs]), timeout=120, check=True)
    got = json.loads(run.stdout)
    expected = []
    for data in inputs:
        kind, value = _parse(data)
        expected.append([kind, repr(value) if kind == "ok" else value])
    for value in ([1, 2.5, "x"], {"a": [None, True]}, [float("nan")], "s"):
        for encode in (wire.COMPACT, wire.encode_json):
            kind, text = _outcome(encode, value)
            expected.append([kind if kind == "ok" else "error", text])
    assert got == expected
