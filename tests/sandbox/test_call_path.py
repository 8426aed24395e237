"""The per-call path: one thread of the worker serves a call, frames are read whole, the fast
paths of the wire format give exactly what the full walk gives, and the wait meter follows the
threads on the call's path only.

Speed itself is measured in ``bench/bench_overhead.py``; these tests pin the behaviour the
speed rests on, with real processes and pipes.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import textwrap
import time

import pytest

from harness.games import get_game
from harness.games.base import Call, WireObject
from harness.sandbox import BotProcess, judge
from harness.sandbox.bot import wire
from harness.sandbox.timing import WaitMeter

GAME = get_game("priemspel")
TRIVIAL = b"class Player:\n    def __init__(self, name):\n        pass\n    def zet(self, spel):\n        return 2\n"
VIEW = WireObject("Spel", {"_N": 5, "_positie": 0, "_eind": 23})


def _switches(pid: int, tid: int) -> int:
    total = 0
    with open(f"/proc/{pid}/task/{tid}/status") as f:
        for line in f:
            if "ctxt_switches:" in line:
                total += int(line.split()[1])
    return total


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_a_call_is_served_by_the_bot_thread_alone() -> None:
    """Quick calls never wake the worker's clock thread: it wakes on its own timer only."""
    with BotProcess(GAME, TRIVIAL) as bot:
        assert bot.load().ok and bot.call(Call("__init__", ("x",), "init")).ok
        pid = bot.worker_pid
        assert pid is not None
        tids = sorted(int(t) for t in os.listdir(f"/proc/{pid}/task"))
        assert len(tids) == 2 and tids[0] == pid  # the main thread (the bot's) and the clock's
        clock_tid = tids[1]
        assert bot.clock is not None and set(bot.clock.waits.tids) == {str(pid)}  # the clock's wait is no one's
        clock0, bot0, t0 = _switches(pid, clock_tid), _switches(pid, pid), time.monotonic()
        calls = 2000
        for _ in range(calls):
            assert bot.call(Call("zet", (VIEW,), "move")).value == 2
        clock1, bot1, elapsed = _switches(pid, clock_tid), _switches(pid, pid), time.monotonic() - t0
    # The bot thread sleeps between calls (so the count below is of a thread that really ran
    # them); not always: on another core the parent may have written the next request before
    # the bot thread is back at its read.
    assert bot1 - bot0 >= calls // 2
    # The clock looks every 50 ms (a loaded machine may add involuntary switches to each look):
    # a hand-off per call would be thousands.
    assert clock1 - clock0 <= 10 + 3 * elapsed / 0.05, (clock1 - clock0, elapsed)


def test_frame_reader_reads_whole_frames_however_they_arrive(tmp_path) -> None:
    payloads = [b"{}", b"x" * 70_000, b'{"op":"call"}', b""]
    source = tmp_path / "frames"
    source.write_bytes(b"".join(wire.frame(p) for p in payloads))
    r, w = os.pipe()
    try:
        with source.open("rb") as stdin:  # a writer in odd pieces: headers split across reads
            writer = subprocess.Popen([sys.executable, "-c", textwrap.dedent(f"""
                import os, sys, time
                data = sys.stdin.buffer.read()
                for i in range(0, len(data), 4093):
                    os.write({w}, data[i:i + 4093])
                    time.sleep(0.001)
                """)], stdin=stdin, pass_fds=(w,))
        os.close(w)
        w = -1
        reader = wire.FrameReader(r)
        assert [reader.next(1 << 20) for _ in payloads] == payloads
        with pytest.raises(EOFError):
            reader.next(1 << 20)
        assert writer.wait(timeout=60) == 0
    finally:
        os.close(r)
        if w != -1:
            os.close(w)


def test_frame_reader_refuses_a_frame_over_the_cap_before_reading_it() -> None:
    r, w = os.pipe()
    try:
        os.write(w, wire.HEADER.pack(1 << 30))
        with pytest.raises(wire.WireError, match="exceeds the cap"):
            wire.FrameReader(r).next(1 << 20)
    finally:
        os.close(r)
        os.close(w)


def _random_plain(rng: random.Random) -> object:
    return rng.choice([None, True, False, rng.randint(-10**6, 10**6), 1 << 255, -(1 << 256) + 1, rng.random(),
                       "tah", "", "\u017e"])


def test_flat_encoding_is_the_walk_s_encoding() -> None:
    """Arguments of plain values and stand-ins: the fast path gives what the walk gives."""
    rng = random.Random(7)
    for _ in range(300):
        args = [_random_plain(rng) if rng.random() < 0.5 else
                WireObject(rng.choice(["Spel", None]), {f"f{i}": _random_plain(rng) for i in range(rng.randint(0, 4))},
                           "Spel") for _ in range(rng.randint(0, 5))]
        fast = wire.encode_value(args, object_fields=judge.describe_wire_object)
        walked = wire.encode_value(args, object_fields=judge.describe_wire_object, max_chars=1 << 30)  # no fast path
        assert fast == walked


def test_flat_encoding_still_refuses_what_the_walk_refuses() -> None:
    for bad in ([float("nan")], [WireObject("Spel", {"x": float("inf")})], [1 << 300]):
        with pytest.raises(wire.WireError):
            wire.encode_value(bad, object_fields=judge.describe_wire_object)


def test_flat_decoding_is_the_walk_s_decoding() -> None:
    """A list of plain values and objects: decoded as the walk decodes the same items in a tuple."""
    rng = random.Random(11)
    for _ in range(300):
        raw = [_random_plain(rng) if rng.random() < 0.5 else
               {"$o": rng.choice(["Spel", None]), "type": "Spel",
                "f": {f"f{i}": _random_plain(rng) for i in range(rng.randint(0, 4))}} for _ in range(rng.randint(0, 5))]
        fast = wire.decode_value(raw, judge.build_wire_object)
        walked = wire.decode_value({"$t": raw}, judge.build_wire_object)  # a tuple: always the walk
        assert fast == list(walked)


@pytest.mark.parametrize("raw", [
    [1 << 300], [float("inf")], [{"$o": 3, "type": "x", "f": {}}], [{"$o": None, "type": 3, "f": {}}],
    [{"$o": None, "type": "x", "f": []}], [{"$o": None, "type": "x"}], [{"a": 1}],
    [{"$o": None, "type": "x", "f": {"a": 1 << 300}}],
])
def test_flat_decoding_still_refuses_what_the_walk_refuses(raw: list) -> None:
    with pytest.raises(wire.WireError):
        wire.decode_value(raw, judge.build_wire_object)


def _walked_dumps(value: object, max_bytes: int | None) -> bytes:
    """What :func:`wire.dumps` gives through the walk (a one-item tuple takes it; its brackets cut)."""
    data = wire.dumps((value,), max_bytes=None if max_bytes is None else max_bytes + 8)
    inner = data[len(b'{"$t":['):-len(b"]}")]
    if max_bytes is not None and len(inner) > max_bytes:
        raise wire.WireError("too large")
    return inner


def test_a_plain_answer_is_encoded_as_the_walk_encodes_it() -> None:
    rng = random.Random(5)
    values = [_random_plain(rng) for _ in range(500)] + [True, False, None, 0, -1, 1 << 256 - 1, 1.5e-300, -0.0,
                                                          "\ud800", "\x00\n\"\\", "\u017e" * 50]
    for value in values:
        assert wire.dumps(value, max_bytes=1 << 20) == _walked_dumps(value, None), value
        assert json.loads(wire.dumps(value)) == value or value != value


@pytest.mark.parametrize("value", [float("nan"), float("inf"), -float("inf"), 1 << 256, -(1 << 256), "x" * 9,
                                   "\u017e" * 2])
def test_a_plain_answer_is_refused_as_the_walk_refuses_it(value: object) -> None:
    with pytest.raises(wire.WireError):
        _walked_dumps(value, 8)
    with pytest.raises(wire.WireError):
        wire.dumps(value, max_bytes=8)


def test_a_bot_s_subclass_of_a_plain_type_takes_the_walk() -> None:
    class Loud(int):
        def __repr__(self) -> str:
            return "boom"

    assert wire.dumps(Loud(3)) == b'{"$o":null,"type":"' + f"{Loud.__module__}.{Loud.__qualname__}".encode() + \
        b'","f":{}}'


@pytest.mark.parametrize("frame", [
    b'{"a":1}', b'{"a":1} ', b' {"a":1}', b'{"a":1}x', b'{"a":NaN}', b'{"a":Infinity}', b"{", b"{}",
    b'{"a":"\\ud800"}', b'{"a":1}{"b":2}', b"{\xff}", b'{"a":"\xc3\xa9"}', b'\xef\xbb\xbf{"a":1}',
    '{"a":1}'.encode("utf-16-le"), '{"a":1}'.encode("utf-32-le"), b"[1]", b"1", b"",
    b'{"a":' + b"[" * 100_000 + b"]" * 100_000 + b"}",
])
def test_a_frame_parses_as_json_loads_reads_it(frame: bytes) -> None:
    """The scanner's fast path for one UTF-8 object gives json.loads's value, or refuses what it refuses."""
    def constant(name: str) -> None:
        raise ValueError(name)

    try:
        expected = json.loads(frame, parse_constant=constant)
    except (ValueError, RecursionError):
        with pytest.raises(wire.WireError):
            wire.parse(frame)
        return
    assert wire.parse(frame) == expected


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_the_wait_meter_follows_every_thread_but_the_skipped_one() -> None:
    child = subprocess.Popen([sys.executable, "-c", textwrap.dedent("""
        import threading, time
        for _ in range(2):
            threading.Thread(target=time.sleep, args=(30,), daemon=True).start()
        print("ready", flush=True)
        time.sleep(30)
        """)], stdout=subprocess.PIPE)
    try:
        assert child.stdout is not None and child.stdout.readline() == b"ready\n"
        meter = WaitMeter(child.pid, skip=frozenset({child.pid}))
        tids = set(os.listdir(f"/proc/{child.pid}/task"))
        assert meter.listed == meter.threads == len(tids) == 3
        assert set(meter.tids) == tids - {str(child.pid)}
        assert set(meter.read()) == (tids - {str(child.pid)}) | ({"parent"} if meter.parent is not None else set())
        meter.close()
    finally:
        child.kill()
        child.wait()


EMPTY_FRAME = b'''
import os, stat

class Player:
    def __init__(self, name):
        pass

    def zet(self, spel):
        for fd in range(3, 64):  # every pipe it may write to: the reply channel among them
            try:
                if stat.S_ISFIFO(os.fstat(fd).st_mode):
                    os.write(fd, bytes(4))  # a frame of length 0
            except OSError:
                pass
        return 2
'''


def test_an_empty_reply_frame_is_the_bot_s_bad_answer_not_a_hang() -> None:
    """A frame whose length is 0 is read as an (undecodable) empty reply: the parent never spins."""
    from harness.match import play_match
    from harness.record import Verdict
    from tests.conftest import REPO

    basis = (REPO / "reference_players/priemspel/basis.py").read_bytes()
    t0 = time.monotonic()
    record = play_match(GAME, [EMPTY_FRAME, basis], seed=1, logins=["hostile", "basis"])
    me, other = record.players
    assert (me.verdict, other.verdict) == (Verdict.BAD_ANSWER, Verdict.OK), me.reason
    assert "cannot be decoded" in me.reason
    assert time.monotonic() - t0 < 60
