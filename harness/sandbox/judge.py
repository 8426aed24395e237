"""The parent's reading of a bot's reply: the trust boundary between a bot's process and a verdict.

Everything the worker sends was written in a process the bot shares, so every byte of it may
have been chosen by the bot (a replaced ``json.dumps``, a raised cap of the worker, a frame
written by hand). This module turns a reply frame into either an :class:`Answer` or a
:class:`Failure` with the parent's verdict, and nothing a reply says can do more than this:

* An answer is decoded under the parent's own caps (:func:`wire.decode_answer`: depth, at most
  20,000 values, integers of 256 bits, finite floats, dicts of at most 256 entries with ``str``
  keys; the frame's size was capped when it was read), so no answer costs the parent more than
  milliseconds. A reply that cannot be decoded, ``RecursionError`` included, is the bot's
  ``bad_answer``.
* An answer the game ignores (Quoridor's ``opponent_move``, every ``setattr``, a setup call) is
  not decoded at all (``value=False``): in the worker's own reply format it is not even parsed,
  only its envelope is read; a reply in any other shape has its envelope parsed, never its value.
* A reported failure is believed only as a charge to the bot: the verdicts in :data:`REPORTABLE`
  (what the worker itself reports: the bot raised, the guard refused something, the worker's
  own clock ran out, memory ran out, the bot exited, its answer could not be encoded). A reply
  that names any other verdict (``harness_error``, ``ok``, ``illegal_move``, an unknown name)
  is tampering, charged to the bot as ``forbidden``: a bot gains nothing by forging a report.
* A reply that does not have the worker's shape (not an object, a wrong sequence number,
  ``ok`` not a boolean, a reason that is not text, no answer) is tampering too.
* Only short, plain fields are kept: a reason and traceback of at most 2000 characters, a
  name of at most 200, a CPU figure only when it is a finite non-negative number.

A process that ended during a call is judged here too (:func:`death`), from its exit status and
its own cgroup's word on an OOM kill, never from anything it said. The parent's clocks and the
kernel's accounting of its time are judged in :mod:`harness.sandbox.process`; they apply
whatever a reply says.
"""

from __future__ import annotations

import math
import re
import signal
from dataclasses import dataclass, field
from typing import Any

from harness.games.base import WireObject
from harness.record import Verdict
from harness.sandbox.bot import wire
from harness.sandbox.limits import HOST_OOM, POLICIES, CallResult, mib

# What the worker may report: each charges the bot, so forging one gains the bot nothing.
REPORTABLE = frozenset({Verdict.EXCEPTION, Verdict.FORBIDDEN, Verdict.BAD_ANSWER, Verdict.MEMORY,
                        Verdict.CRASH, Verdict.TIMEOUT})
TAMPERED = "the bot tampered with the harness's reply channel"
REASON_CHARS = 2000
NAME_CHARS = 200
INFO_NAMES = ("playerName", "version", "name", "adopted")  # what a constructor's or import's reply may tell


@dataclass(frozen=True)
class Answer:
    """A call that returned: its decoded value, the bot's names, the CPU time the worker reports."""

    value: Any
    info: dict[str, Any] = field(default_factory=dict)
    cpu: float | None = None


@dataclass(frozen=True)
class Failure:
    """A call that did not return an answer, with the parent's verdict.

    ``tampered``: the reply itself was forged or malformed (the process is no longer to be
    talked to); ``clock``: for a reported timeout, which of the worker's clocks ran out.
    """

    verdict: Verdict
    reason: str
    traceback: str = ""
    clock: str | None = None
    cpu: float | None = None
    tampered: bool = False


# The worker's own reply to a call that returned (worker.Worker.reply), up to its value.
_ANSWERED = re.compile(rb'\{"ok":true,"cpu":([0-9][0-9.e+-]{0,30}),"seq":([0-9]{1,18}),"value":')


def read_reply(frame: bytes, seq: int, what: str, value: bool = True) -> Answer | Failure:
    """The parent's reading of the reply ``frame`` to request ``seq`` (a call described by ``what``).

    With ``value=False`` (the game ignores the answer) the answer is never decoded, and an
    :class:`Answer` holds ``None``.
    """
    if not value:
        head = _ANSWERED.match(frame)
        if head is not None and frame.endswith(b"}") and int(head[2]) == seq:
            try:
                cpu = _seconds(float(head[1]))
            except ValueError:  # not a number after all: the full reading below says what it is
                pass
            else:
                return Answer(None, {}, cpu)
    if crowded(frame, wire.ANSWER_NODES):  # refused before the parser builds anything
        return Failure(Verdict.BAD_ANSWER, f"{what} returned answer too large (more than {wire.ANSWER_NODES} values)")
    try:
        reply = wire.parse(frame)
    except wire.WireError as exc:
        return Failure(Verdict.BAD_ANSWER, f"{what} returned an answer that cannot be decoded ({exc})")
    if type(reply) is not dict:
        return tampering(f"{what}: a reply that is not an object")
    got = reply.get("seq")
    if type(got) is not int or got != seq:
        return tampering(f"{what}: a reply out of sequence (seq {_describe(got)}, expected {seq})")
    ok = reply.get("ok")
    if type(ok) is not bool:
        return tampering(f"{what}: a reply whose 'ok' is not true or false")
    cpu = _seconds(reply.get("cpu"))
    if ok:
        if "value" not in reply:
            return tampering(f"{what}: a reply without an answer")
        if not value:
            return Answer(None, _info(reply.get("info")), cpu)
        try:
            answer = wire.decode_answer(reply["value"], build_wire_object)
        except wire.WireError as exc:
            return Failure(Verdict.BAD_ANSWER, f"{what} returned {exc}", cpu=cpu)
        return Answer(answer, _info(reply.get("info")), cpu)
    name = reply.get("verdict")
    verdict = next((v for v in REPORTABLE if v.value == name), None) if type(name) is str else None
    if verdict is None:
        return tampering(f"{what}: a reply that names the verdict {_describe(name)}")
    reason, trace = reply.get("reason", ""), reply.get("traceback", "")
    if type(reason) is not str:
        return tampering(f"{what}: a reply whose reason is not text")
    if type(trace) is not str:
        return tampering(f"{what}: a reply whose traceback is not text")
    clock = reply.get("clock")
    return Failure(verdict, _cut(reason, REASON_CHARS), _cut(trace, REASON_CHARS),
                   clock if type(clock) is str and clock in POLICIES else None, cpu)


def crowded(data: bytes, max_nodes: int) -> bool:
    """True if the JSON ``data`` surely holds more than ``max_nodes`` values: refused unparsed.

    The parent's check of a bot's reply before the C parser builds anything: a 1 MiB frame of
    small lists costs the parser 40-70 ms of allocation alone, past any decode cap. Counted at C
    speed on the bytes: every value after the first of an array (and every member of an object)
    follows a comma outside a string, and a tagged value brings at most two commas of its own,
    so more than ``2 * max_nodes + 64`` such commas (or more than ``7 * max_nodes + 64``
    strings: keys and tags included, a value has at most seven) is more than ``max_nodes``
    values. Under those counts the parser's work is bounded by them too.
    """
    limit = 2 * max_nodes + 64
    if data.count(b",") <= limit:
        return False
    plain = data.replace(b"\\\\", b"").replace(b'\\"', b"")  # every '"' left delimits a string
    if plain.count(b'"') > 2 * (7 * max_nodes + 64):
        return True
    return b"".join(plain.split(b'"')[0::2]).count(b",") > limit


def death(code: int | None, evidence: str | None, what: str, memory_bytes: int, wall: float) -> CallResult:
    """The verdict on a bot's process that ended (or closed its channel) during ``what``.

    ``code`` is its exit status as :mod:`subprocess` gives it (``-N``: killed by signal N;
    ``None``: it closed its channel and was not reaped); ``evidence`` what its own cgroup's
    counters say of an OOM kill (:meth:`~harness.sandbox.cgroup.BotCgroup.oom_evidence`:
    ``"cap"``, ``"host"`` or ``None``). The bot's own evidence only, never the machine's count
    of OOM kills, which any other process at its own cap raises: a bot killing itself then
    would pass its SIGKILL off as the host's and have its lost game replayed.
    """
    if evidence == "cap":
        return CallResult(False, verdict=Verdict.MEMORY, wall=wall,
                          reason=f"the bot's process was killed at the memory cap ({mib(memory_bytes)}) during {what}")
    if code == -signal.SIGKILL and evidence == "host":
        # Not its cap and not the harness (a kill of ours never comes here): the kernel's OOM
        # killer killed a task of this bot while it was under its cap. The memory ran out above
        # it (the machine, or a cgroup around the harness): the game is played again.
        return CallResult(False, verdict=Verdict.HARNESS_ERROR, wall=wall, cause=HOST_OOM,
                          reason=f"the bot's process was killed by SIGKILL during {what} by the kernel's "
                                 f"OOM killer while under its own memory cap (the machine ran out of "
                                 f"memory, not the bot its cap)")
    if code is None:
        reason = f"{what}: the bot closed its channel to the harness"
    elif code < 0:
        name = signal.Signals(-code).name if -code in signal.Signals._value2member_map_ else str(-code)
        reason = f"the bot's process was killed by {name} during {what}"
    else:
        reason = f"the bot's process exited with code {code} during {what}"
    return CallResult(False, verdict=Verdict.CRASH, reason=reason, wall=wall)


def tampering(reason: str) -> Failure:
    """The verdict for a forged or malformed reply: the bot's ``forbidden``."""
    return Failure(Verdict.FORBIDDEN, f"{reason}: {TAMPERED}", tampered=True)


def is_hello(frame: Any) -> bool:
    """True if ``frame`` is the worker's greeting (sent before any bot code runs)."""
    try:
        message = wire.parse(frame)
    except wire.WireError:
        return False
    return type(message) is dict and message.get("hello") is True


def build_wire_object(name: Any, type_name: str, fields: dict[str, Any]) -> WireObject:
    """The parent's stand-in for an object a bot returned (never an instance of the bot's class)."""
    return WireObject(cls=name if type(name) is str else None, fields=fields,
                      type_name=_cut(type_name, NAME_CHARS))


def describe_wire_object(value: Any) -> tuple[str | None, str, Any] | None:
    """How a parent's stand-in is sent back to a bot (see :func:`wire.encode_value`)."""
    if isinstance(value, WireObject):
        return value.cls, value.type_name or str(value.cls), value.fields
    return None


def _info(raw: Any) -> dict[str, Any]:
    """The names a constructor's reply gives the bot: plain text, short; nothing else is kept."""
    if type(raw) is not dict:
        return {}
    return {k: _cut(raw[k], NAME_CHARS) for k in INFO_NAMES if type(raw.get(k)) is str}


def _seconds(raw: Any) -> float | None:
    """A CPU time the worker reports, if it is one (a finite, non-negative number)."""
    if type(raw) not in (int, float) or not math.isfinite(raw) or raw < 0:
        return None
    return float(raw)


def _describe(value: Any) -> str:
    """A short description of a value from a reply, computed without ever recursing into it."""
    if value is None or type(value) in (bool, int):
        return _cut(str(value), 20)
    if type(value) is str:
        return repr(_cut(value, 40))
    return {list: "a list", dict: "an object", float: "a number"}.get(type(value), "an unknown value")


def _cut(text: str, limit: int) -> str:
    """``text`` in at most ``limit`` characters."""
    return text if len(text) <= limit else text[:limit - 3] + "..."


__all__ = ["REPORTABLE", "Answer", "Failure", "build_wire_object", "crowded", "death", "describe_wire_object",
           "is_hello", "read_reply", "tampering"]
