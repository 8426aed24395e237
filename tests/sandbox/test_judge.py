"""The parent's reading of a reply frame (sandbox/judge.py), one forged field at a time.

The end-to-end attacks (a bot forging these from inside its process) are in
tests/hostile/test_trust.py; here every field the parent reads is checked on its own.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from harness.games.base import WireObject
from harness.record import Verdict
from harness.sandbox import judge


def read(message: Any, raw: bytes | None = None) -> judge.Answer | judge.Failure:
    return judge.read_reply(raw if raw is not None else json.dumps(message).encode(), 7, "zet()")


def test_an_answer_is_decoded_with_only_short_names_kept() -> None:
    reply = read({"seq": 7, "ok": True, "value": [1, {"$t": [2]}], "cpu": 0.25,
                  "info": {"playerName": "x" * 500, "version": 3, "evil": "y"}})
    assert isinstance(reply, judge.Answer)
    assert reply.value == [1, (2,)] and reply.cpu == 0.25
    assert reply.info == {"playerName": "x" * 197 + "..."}


@pytest.mark.parametrize("name", ["harness_error", "ok", "illegal_move", "cosmic_ray", None, 3, ["timeout"]])
def test_a_verdict_the_worker_cannot_report_is_tampering(name: Any) -> None:
    reply = read({"seq": 7, "ok": False, "verdict": name, "reason": "r"})
    assert isinstance(reply, judge.Failure) and reply.tampered
    assert reply.verdict is Verdict.FORBIDDEN
    assert reply.reason.startswith("zet(): a reply that names the verdict ")
    assert reply.reason.endswith(judge.TAMPERED)


@pytest.mark.parametrize("verdict", sorted(v.value for v in judge.REPORTABLE))
def test_a_reported_failure_is_believed_only_as_a_charge_to_the_bot(verdict: str) -> None:
    reply = read({"seq": 7, "ok": False, "verdict": verdict, "reason": "why", "traceback": "tb", "clock": "cpu"})
    assert isinstance(reply, judge.Failure) and not reply.tampered
    assert reply.verdict.value == verdict and reply.verdict.charged
    assert (reply.reason, reply.traceback, reply.clock) == ("why", "tb", "cpu")


@pytest.mark.parametrize(("message", "reason"), [
    ([1, 2], "a reply that is not an object"),
    ({"ok": True, "value": 1}, r"a reply out of sequence \(seq None, expected 7\)"),
    ({"seq": 6, "ok": True, "value": 1}, r"a reply out of sequence \(seq 6, expected 7\)"),
    ({"seq": True, "ok": True, "value": 1}, r"a reply out of sequence \(seq True, expected 7\)"),
    ({"seq": 7.0, "ok": True, "value": 1}, r"a reply out of sequence \(seq a number, expected 7\)"),
    ({"seq": 7, "ok": 1, "value": 1}, "a reply whose 'ok' is not true or false"),
    ({"seq": 7, "ok": True}, "a reply without an answer"),
    ({"seq": 7, "ok": False, "verdict": "exception", "reason": ["x"]}, "a reply whose reason is not text"),
    ({"seq": 7, "ok": False, "verdict": "exception", "traceback": {}}, "a reply whose traceback is not text"),
])
def test_a_reply_without_the_worker_s_shape_is_tampering(message: Any, reason: str) -> None:
    reply = read(message)
    assert isinstance(reply, judge.Failure) and reply.tampered and reply.verdict is Verdict.FORBIDDEN
    assert re.match("zet\\(\\): " + reason, reply.reason), reply.reason


@pytest.mark.parametrize(("raw", "reason"), [
    (b'{"seq": 7, "ok": true, "value": ' + b"[" * 700 + b"]" * 700 + b"}", "zet() returned answer nested deeper than 64 levels"),
    (b'{"seq": 7, "ok": true, "value": ' + b"[" * 50_000 + b"]" * 50_000 + b"}",
     "zet() returned an answer that cannot be decoded (nested too deeply)"),
    (b'{"seq": 7, "ok": true, "value": 1, "cpu": NaN}',
     "zet() returned an answer that cannot be decoded (NaN is not a number JSON allows)"),
    (b'{"seq": 7, "ok": true, "value": 1e999}', "zet() returned answer contains the float inf"),
    (b'{"seq": 7, "ok": tru', "zet() returned an answer that cannot be decoded ("),
])
def test_an_answer_past_the_parent_s_caps_is_the_bot_s_bad_answer(raw: bytes, reason: str) -> None:
    reply = read(None, raw)
    assert isinstance(reply, judge.Failure) and not reply.tampered
    assert reply.verdict is Verdict.BAD_ANSWER
    assert reply.reason.startswith(reason), reply.reason


@pytest.mark.parametrize("cpu", [-1, "0.5", True, 1e308 * 10, [0.1]])
def test_a_cpu_figure_that_is_not_a_time_is_ignored(cpu: Any) -> None:
    raw = json.dumps({"seq": 7, "ok": True, "value": None, "cpu": cpu}).replace("Infinity", "1e999").encode()
    reply = read(None, raw)
    assert isinstance(reply, judge.Answer) and reply.cpu is None


def test_objects_become_the_parent_s_stand_ins() -> None:
    reply = read({"seq": 7, "ok": True, "value": {"$o": "Obstacle", "type": "m." + "C" * 500, "f": {"x": 1}}})
    assert isinstance(reply, judge.Answer) and isinstance(reply.value, WireObject)
    assert reply.value.cls == "Obstacle" and reply.value.fields == {"x": 1} and len(reply.value.type_name) == 200


COLLIDING = 2 ** 61 - 1  # every int multiple of this hashes to 0


def test_an_answer_with_hash_colliding_keys_is_refused_at_once() -> None:
    pairs = ",".join(f"[{COLLIDING * k}, 0]" for k in range(200))
    reply = read(None, b'{"seq": 7, "ok": true, "value": {"$d": [' + pairs.encode() + b"]}}")
    assert isinstance(reply, judge.Failure) and reply.verdict is Verdict.BAD_ANSWER and not reply.tampered
    assert reply.reason == "zet() returned answer contains a dict key that is not a str (int): " \
                           "an answer's dict keys must be str"


def test_an_ignored_answer_is_never_decoded() -> None:
    """The worker's own format is read up to its value; any other shape has only its envelope read."""
    pairs = ",".join(f"[{COLLIDING * k}, 0]" for k in range(20_000)).encode()  # just under judge.crowded's count
    worker = b'{"ok":true,"cpu":0.125,"seq":7,"value":{"$d":[' + pairs + b"," + pairs + b"]}}"
    spaced = b'{"seq": 7, "ok": true, "cpu": 0.5, "value": {"$d": [' + pairs + b"]}}"
    for raw, cpu in ((worker, 0.125), (spaced, 0.5), (b'{"ok":true,"cpu":0.125,"seq":7,"value":not json}', 0.125)):
        reply = judge.read_reply(raw, 7, "opponent_move()", value=False)
        assert isinstance(reply, judge.Answer) and reply.value is None and reply.cpu == cpu
    # Its envelope is still judged: out of sequence, a forged verdict, garbage.
    for raw, verdict in ((spaced.replace(b'"seq": 7', b'"seq": 8'), Verdict.FORBIDDEN),
                         (b'{"ok":false,"seq":7,"verdict":"ok"}', Verdict.FORBIDDEN),
                         (b'{"ok":false,"seq":7,"verdict":"exception","reason":"boom"}', Verdict.EXCEPTION),
                         (b'{"ok":tr', Verdict.BAD_ANSWER), (spaced.replace(b"[0", b"[0" + pairs + b","), Verdict.BAD_ANSWER)):
        reply = judge.read_reply(raw, 7, "opponent_move()", value=False)
        assert isinstance(reply, judge.Failure) and reply.verdict is verdict, reply


def test_a_reply_of_too_many_values_is_refused_before_it_is_parsed() -> None:
    """More separators outside strings than the values an answer may hold: refused unparsed."""
    many = b'{"seq": 7, "ok": true, "value": [' + b",".join([b"[1,2]"] * 20_100) + b"]}"
    reply = read(None, many)
    assert isinstance(reply, judge.Failure) and reply.verdict is Verdict.BAD_ANSWER
    assert reply.reason == "zet() returned answer too large (more than 20000 values)"
    # Commas inside strings are no values: a long text (a bad answer of the game's) is read as it is.
    text = read(None, b'{"seq": 7, "ok": true, "value": "' + b"[,\\\"," * 100_000 + b'"}')
    assert isinstance(text, judge.Answer) and text.value == '[,",' * 100_000


@pytest.mark.parametrize(("code", "evidence", "verdict", "reason"), [
    (-9, "cap", Verdict.MEMORY, "the bot's process was killed at the memory cap (256 MiB) during zet()"),
    (-9, "host", Verdict.HARNESS_ERROR, "the bot's process was killed by SIGKILL during zet() by the kernel's OOM "
                                        "killer while under its own memory cap (the machine ran out of memory, "
                                        "not the bot its cap)"),
    (-9, None, Verdict.CRASH, "the bot's process was killed by SIGKILL during zet()"),
    (-11, "host", Verdict.CRASH, "the bot's process was killed by SIGSEGV during zet()"),  # no OOM kill: its own
    (3, None, Verdict.CRASH, "the bot's process exited with code 3 during zet()"),
    (None, None, Verdict.CRASH, "zet(): the bot closed its channel to the harness"),
    (-200, None, Verdict.CRASH, "the bot's process was killed by 200 during zet()"),
])
def test_a_death_is_judged_from_its_exit_status_and_its_own_cgroup(code: int | None, evidence: str | None,
                                                                   verdict: Verdict, reason: str) -> None:
    result = judge.death(code, evidence, "zet()", 256 << 20, 1.5)
    assert (result.ok, result.verdict, result.reason, result.wall) == (False, verdict, reason, 1.5)
    assert bool(result.cause) == (verdict is Verdict.HARNESS_ERROR)  # only a host's OOM kill is replayed
