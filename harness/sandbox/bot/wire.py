"""The wire format between the harness and a bot's process: tagged JSON in length-prefixed frames.

Standard library only: the bot-side worker imports a copy of this very file, so parent and child
always agree on the format. Nothing here ever unpickles or evaluates data.

Values are JSON with a few tags, so that the parent sees exactly what type the bot returned
(a tuple is not a list; a bool is not an int; an ``Obstacle`` is not a look-alike class)::

    None, bool, int, float, str -> themselves     list  -> [ ... ]
    tuple -> {"$t": [...]}                         dict  -> {"$d": [[key, value], ...]}
    object -> {"$o": wire name or null, "type": "module.Class", "f": {attribute: value}}

Frames are a 4-byte big-endian length followed by that many bytes of UTF-8 JSON.
"""

from __future__ import annotations

import math
import os
import struct

TYPE_CHECKING = False  # typing and collections.abc would cost milliseconds of every bot's start
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Mapping
    from typing import Any

    # The parent's view of an object: (wire name or None, "module.Class", fields) -> value.
    ObjectBuilder = Callable[[Any, str, dict[str, Any]], Any]

HEADER = struct.Struct(">I")
# Bound at import: in the bot's process this runs before any bot code, so a bot that replaces
# os.write/os.read (for its own reasons or to meddle) does not change how the worker talks.
_os_write = os.write
_os_read = os.read
_isfinite = math.isfinite


# ---- JSON, as the json module does it, without importing it ------------------------------
# ``import json`` imports ``re`` (with enum, functools, collections): about 8 ms of every bot's
# start. Its C accelerator ``_json`` does all the work of json.dumps and json.loads here (the
# json module calls the very same functions), so the worker uses it alone; the json module is
# the fallback where ``_json`` is missing or not as expected (another Python), and is imported
# on an error path only, for the exact exception json would raise.

def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number JSON allows")


def _not_serializable(o: Any) -> Any:
    """``JSONEncoder.default``: every value the wire sends is plain, so this is a bug or tampering."""
    raise TypeError(f"Object of type {o.__class__.__name__} is not JSON serializable")


class _ScannerContext:
    """What ``_json.make_scanner`` reads from a ``json.JSONDecoder(parse_constant=_no_constant)``."""

    def __init__(self) -> None:
        self.strict = True
        self.object_hook = None
        self.object_pairs_hook = None
        self.parse_float = float
        self.parse_int = int
        self.parse_constant = _no_constant
        self.memo: dict[Any, Any] = {}


_WHITESPACE = " \t\n\r"  # json.decoder.WHITESPACE, without its regular expression
try:
    import _json

    _scan = _json.make_scanner(_ScannerContext())  # a JSON value from a str at an index, and where it ends
    _make_encoder = _json.make_encoder
    _encode_str = _json.encode_basestring_ascii  # a str as a JSON string (ASCII, as the encoder)
    _make_encoder({}, _not_serializable, _encode_str, None, ":", ",", False, False, False)  # its signature
except (ImportError, AttributeError, TypeError):  # pragma: no cover - a Python without (this) _json
    _json = None  # type: ignore[assignment]
    import json

    _scan = json.JSONDecoder(parse_constant=_no_constant).scan_once
    _make_encoder = json.encoder.c_make_encoder
    _encode_str = json.encoder.encode_basestring_ascii


def _premade(separators: tuple[str, str]) -> Callable[[Any], str]:
    """A JSON encoder of the C module made once (``JSONEncoder.encode`` makes one per call).

    For :func:`encode_value`'s output only: plain, acyclic (so no cycle check), at most
    ``MAX_DEPTH`` deep, finite floats. Where the C encoder is missing, the Python one.
    """
    if _make_encoder is None:  # pragma: no cover - CPython always has it
        import json

        return json.JSONEncoder(separators=separators, allow_nan=False).encode
    encoder = _make_encoder(None, None, _encode_str, None, separators[1], separators[0], False, False, False)
    join = "".join

    def encode(value: Any) -> str:
        return join(encoder(value, 0))

    return encode


def encode_json(value: Any) -> str:
    """``value`` as ``json.JSONEncoder().encode`` writes it (a reply's envelope), by the same C encoder."""
    if isinstance(value, str):
        return _encode_str(value)
    if _make_encoder is None:  # pragma: no cover - CPython always has it
        import json

        return json.JSONEncoder().encode(value)
    # A new encoder each time, as JSONEncoder.encode makes one: its markers (cycle check) start empty.
    return "".join(_make_encoder({}, _not_serializable, _encode_str, None, ": ", ", ", False, False, True)(value, 0))


def _decode(text: str) -> Any:
    """``json.JSONDecoder(parse_constant=_no_constant).decode(text)``, by the same C scanner."""
    try:
        value, end = _scan(text, _skip_whitespace(text, 0))
    except StopIteration as exc:
        raise _decode_error("Expecting value", text, exc.value) from None
    end = _skip_whitespace(text, end)
    if end != len(text):
        raise _decode_error("Extra data", text, end)
    return value


def _skip_whitespace(text: str, at: int) -> int:
    """Where the JSON whitespace from ``at`` on ends (``WHITESPACE.match(text, at).end()``)."""
    if at < len(text) and text[at] in _WHITESPACE:  # rare: copy the rest only then
        rest = text[at:]
        return at + len(rest) - len(rest.lstrip(_WHITESPACE))
    return at


def _decode_error(message: str, text: str, at: int) -> ValueError:
    from json import JSONDecodeError  # an error: the json module's own exception, as it raises it

    return JSONDecodeError(message, text, at)


def _text(data: bytes) -> str:
    """The text of a frame, as ``json.loads`` finds it (``json.detect_encoding``)."""
    # Only a BOM (ef, fe, ff) or a zero byte in the first two makes detect_encoding say anything
    # but utf-8: look them up in the json module then, as it would.
    if data[:1] not in (b"", b"\x00", b"\xef", b"\xfe", b"\xff") and data[1:2] != b"\x00":
        return data.decode("utf-8", "surrogatepass")
    from json import detect_encoding

    return data.decode(detect_encoding(data), "surrogatepass")


COMPACT = _premade((",", ":"))  # an answer in the bot's process
SPACED = _premade((", ", ": "))  # a request in the parent (json.dumps's separators)
MAX_DEPTH = 64  # nesting deeper than any sane answer; deeper structures are refused
MAX_NODES = 200_000  # values in one message; an enormous answer is refused, not serialised
# The parent's caps on a bot's answer (decode_answer), from what the games' real answers need: the
# largest is Quoridor's SemBasic expand_obstacles() on a 15x15 board (392 walls of two Obstacles
# with four fields: about 4,300 values). No game's answer holds a dict; a small one is still
# decoded so the game's adapter can say what it expected. Walking 20,000 values costs the
# parent a few milliseconds; a dict key that is not a str is refused, because an int, float or
# tuple key's hash is the bot's choice (multiples of 2**61-1 all hash to 0: a dict of such keys
# is quadratic to build) while a str's hash is salted per process.
ANSWER_NODES = 20_000
ANSWER_DICT_ITEMS = 256


class WireError(ValueError):
    """A value cannot be carried (cyclic, too deep, too large, unknown type) or a frame is bad."""


def dumps(value: Any, wire_classes: Mapping[type, str] | None = None,
          object_fields: Callable[[Any], tuple[str | None, str, Mapping[str, Any]] | None] | None = None,
          max_bytes: int | None = None) -> bytes:
    """Encode ``value`` as tagged JSON bytes (see :func:`encode_value`), refusing over ``max_bytes``."""
    t = type(value)
    if t is int or t is str or t is float or value is None or t is bool:  # most answers: no walk
        return _scalar(value, max_bytes)
    try:
        data = COMPACT(encode_value(value, wire_classes, object_fields, max_chars=max_bytes)).encode()
    except RecursionError as exc:  # pragma: no cover - MAX_DEPTH keeps us well clear of it
        raise WireError("answer nested too deeply") from exc
    if max_bytes is not None and len(data) > max_bytes:
        raise WireError(f"answer too large ({len(data)} bytes > {max_bytes})")
    return data


def _scalar(value: Any, max_bytes: int | None) -> bytes:
    """A plain answer's JSON, as :func:`dumps` makes it through the walk, with the same refusals."""
    t = type(value)
    if t is int:
        if value.bit_length() > 256:
            raise WireError("answer contains an integer with more than 256 bits")
        data = b"%d" % value
    elif t is str:
        if max_bytes is not None and len(value) > max_bytes:
            raise WireError(f"answer too large (more than {max_bytes} characters of text)")
        data = _encode_str(value).encode()
    elif t is float:
        if not math.isfinite(value):
            raise WireError(f"answer contains the float {value!r}")
        data = float.__repr__(value).encode()
    else:
        data = b"null" if value is None else b"true" if value else b"false"
    if max_bytes is not None and len(data) > max_bytes:
        raise WireError(f"answer too large ({len(data)} bytes > {max_bytes})")
    return data


def encode_value(value: Any, wire_classes: Mapping[type, str] | None = None,
                 object_fields: Callable[[Any], tuple[str | None, str, Mapping[str, Any]] | None] | None = None,
                 max_chars: int | None = None) -> Any:
    """``value`` as a JSON-serialisable tagged structure.

    ``wire_classes`` maps classes that may cross the wire to their wire names (child side).
    ``object_fields`` lets the parent encode its own stand-ins (``WireObject``) for such
    objects: it returns ``(wire name, type name, fields)`` or ``None`` if not a stand-in.
    ``max_chars`` caps the total length of the strings (checked before any JSON is built, so
    an enormous string is refused at once rather than serialised first).
    Raises :class:`WireError` for cycles, excessive depth or size, or unencodable floats.
    """
    if type(value) is list and max_chars is None and object_fields is not None and len(value) <= 16:
        flat = _encode_flat(value, object_fields)
        if flat is not None:
            return flat
    classes = wire_classes or {}
    budget = [MAX_NODES]
    chars = [max_chars if max_chars is not None else -1]
    active: set[int] = set()

    def enc(v: Any, depth: int) -> Any:
        budget[0] -= 1
        if budget[0] < 0:
            raise WireError(f"answer too large (more than {MAX_NODES} values)")
        if depth > MAX_DEPTH:
            raise WireError(f"answer nested deeper than {MAX_DEPTH} levels")
        t = type(v)
        if t is str and chars[0] >= 0:
            chars[0] -= len(v)
            if chars[0] < 0:
                raise WireError(f"answer too large (more than {max_chars} characters of text)")
            return v
        if v is None or t is bool or t is str:
            return v
        if t is int:
            if v.bit_length() > 256:
                raise WireError("answer contains an integer with more than 256 bits")
            return v
        if t is float:
            if not math.isfinite(v):
                raise WireError(f"answer contains the float {v!r}")
            return v
        if id(v) in active:
            raise WireError("answer is a cyclic structure")
        active.add(id(v))
        try:
            if t is list:
                return [enc(x, depth + 1) for x in v]
            if t is tuple:
                return {"$t": [enc(x, depth + 1) for x in v]}
            if t is dict:
                return {"$d": [[enc(k, depth + 1), enc(x, depth + 1)] for k, x in v.items()]}
            if object_fields is not None:
                described = object_fields(v)
                if described is not None:
                    name, type_name, fields = described
                    return {"$o": name, "type": type_name,
                            "f": {str(k): enc(x, depth + 1) for k, x in fields.items()}}
            type_name = f"{t.__module__}.{t.__qualname__}"
            fields = {}
            attrs = getattr(v, "__dict__", None)
            if isinstance(attrs, dict):
                fields = {k: enc(x, depth + 1) for k, x in list(attrs.items())
                          if isinstance(k, str) and not k.startswith("_")}
            return {"$o": classes.get(t), "type": type_name, "f": fields}
        finally:
            active.discard(id(v))

    return enc(value, 0)


def _plain(v: Any) -> bool:
    """True if ``v`` is a value :func:`encode_value` passes on as it is."""
    t = type(v)
    return v is None or t is bool or t is str or (t is int and v.bit_length() <= 256) \
        or (t is float and math.isfinite(v))


def _all_plain(values: Iterable[Any]) -> bool:
    """True if every one of ``values`` is :func:`_plain` (one loop, no call per value)."""
    for v in values:
        t = type(v)
        if t is int:
            if v.bit_length() > 256:
                return False
        elif not (t is str or v is None or t is bool or (t is float and _isfinite(v))):
            return False
    return True


def _encode_flat(values: list[Any], object_fields: Callable[[Any], Any]) -> list[Any] | None:
    """A call's arguments (plain values, stand-ins with plain fields) encoded without the walk of
    :func:`encode_value`, as it would; ``None`` if they are anything else (the walk then does it)."""
    out: list[Any] = []
    for v in values:
        if _plain(v):
            out.append(v)
            continue
        described = object_fields(v)
        if described is None:
            return None
        name, type_name, fields = described
        if len(fields) > 64 or not _all_plain(fields.values()):
            return None
        out.append({"$o": name, "type": type_name, "f": {str(k): x for k, x in fields.items()}})
    return out


def loads(data: bytes, build_object: ObjectBuilder) -> Any:
    """Decode tagged JSON bytes; objects are made by ``build_object(name, type, fields)``."""
    return decode_value(parse(data), build_object)


def decode_answer(raw: Any, build_object: ObjectBuilder) -> Any:
    """:func:`decode_value` under the parent's caps on a bot's answer: at most
    :data:`ANSWER_NODES` values, dicts of at most :data:`ANSWER_DICT_ITEMS` entries whose keys
    are all ``str``. Whatever the bot sent, this costs milliseconds; past a cap, a :class:`WireError`."""
    return decode_value(raw, build_object, max_nodes=ANSWER_NODES, max_dict=ANSWER_DICT_ITEMS)


def parse(data: bytes) -> Any:
    """Plain JSON bytes (an envelope) to Python values; :class:`WireError` if malformed.

    ``NaN`` and ``Infinity`` are refused (standard JSON has neither). The C parser's own
    nesting limit is the interpreter's recursion limit: past it, this is a :class:`WireError`
    too, never a ``RecursionError`` for the caller. The frame's size was capped before.
    """
    try:
        if type(data) is str:
            if data.startswith("\ufeff"):  # json.loads's check for text
                raise _decode_error("Unexpected UTF-8 BOM (decode using utf-8-sig)", data, 0)
            return _decode(data)
        if data[:1] == b"{" and data[1:2] != b"\0":
            # What json.detect_encoding calls UTF-8 (no BOM, no zero among the first two bytes),
            # scanned without the decoder's Python layer; anything but one object filling the
            # whole frame (whitespace around it, extra data, an error) takes the full path below.
            text = data.decode("utf-8", "surrogatepass")
            try:
                value, end = _scan(text, 0)
            except StopIteration:
                value, end = None, -1
            if end == len(text):
                return value
        return _decode(_text(data))  # as json.loads decodes bytes
    except RecursionError:
        raise WireError("nested too deeply") from None
    except MemoryError:
        raise WireError("too large to decode") from None
    except ValueError as exc:  # JSONDecodeError, bad UTF-8, an integer of more than 4300 digits
        raise WireError(str(exc)[:200]) from None


class _Node:
    """A container being decoded: its raw items, the values decoded so far, how to finish it."""

    __slots__ = ("kind", "items", "depth", "values", "extra")

    def __init__(self, kind: str, items: list[Any], depth: int, extra: Any = None) -> None:
        self.kind = kind
        self.items = items
        self.depth = depth
        self.values: list[Any] = []
        self.extra = extra


def decode_value(raw: Any, build_object: ObjectBuilder, max_nodes: int = MAX_NODES,
                 max_dict: int | None = None) -> Any:
    """Resolve the tags of a parsed tagged structure (the inverse of :func:`encode_value`).

    Iterative, with the encoder's own caps applied while it walks (at most ``MAX_DEPTH`` levels
    of nesting, ``max_nodes`` values, integers of 256 bits, finite floats), so no input makes
    it recurse or run long: whatever the other side claims, a cap broken is a
    :class:`WireError`. Dict keys must be plain values (no objects: hashing one could run code).
    With ``max_dict`` (a bot's answer, :func:`decode_answer`), a dict has at most that many
    entries and str keys only, checked before any dict is built.
    """
    t = type(raw)
    if raw is None or t is bool or t is str or (t is int and raw.bit_length() <= 256) \
            or (t is float and math.isfinite(raw)):
        return raw  # a plain answer (most moves): no walk
    if t is list and len(raw) <= 16:
        flat = _decode_flat(raw, build_object)
        if flat is not None:
            return flat
    root = _Node("root", [raw], -1)
    stack = [root]
    nodes = 0
    while True:
        node = stack[-1]
        if len(node.values) < len(node.items):
            v = node.items[len(node.values)]
            nodes += 1
            if nodes > max_nodes:
                raise WireError(f"answer too large (more than {max_nodes} values)")
            depth = node.depth + 1
            if depth > MAX_DEPTH:
                raise WireError(f"answer nested deeper than {MAX_DEPTH} levels")
            t = type(v)
            if v is None or t is bool or t is str:
                node.values.append(v)
            elif t is int:
                if v.bit_length() > 256:
                    raise WireError("answer contains an integer with more than 256 bits")
                node.values.append(v)
            elif t is float:
                if not math.isfinite(v):
                    raise WireError(f"answer contains the float {v!r}")
                node.values.append(v)
            elif t is list:
                stack.append(_Node("list", v, depth))
            elif t is dict:
                stack.append(_tagged(v, depth, max_dict))
            else:
                raise WireError(f"answer contains a value of type {t.__name__}")
            continue
        stack.pop()
        value = _finish(node, build_object)
        if not stack:
            return value
        stack[-1].values.append(value)


def _decode_flat(raw: list[Any], build_object: ObjectBuilder) -> list[Any] | None:
    """A list of plain values and objects with plain fields (a call's usual arguments) decoded
    without the walk of :func:`decode_value`, as it would; ``None`` for anything else."""
    out: list[Any] = []
    for v in raw:
        if _plain(v):
            out.append(v)
            continue
        if type(v) is not dict or v.keys() != {"$o", "type", "f"}:
            return None
        name, type_name, fields = v["$o"], v["type"], v["f"]
        if not (name is None or type(name) is str) or type(type_name) is not str or type(fields) is not dict \
                or len(fields) > 64 or not _all_plain(fields.values()):
            return None
        out.append(build_object(name, type_name, dict(fields)))
    return out


def _tagged(v: dict[str, Any], depth: int, max_dict: int | None = None) -> _Node:
    """The node of a tagged JSON object (tuple, dict or object), its shape checked (and, with
    ``max_dict``, a dict's size and the type of its keys, before anything of it is built)."""
    keys = v.keys()
    if keys == {"$t"}:
        return _Node("tuple", _list(v["$t"]), depth)
    if keys == {"$d"}:
        pairs = _list(v["$d"])
        if max_dict is not None and len(pairs) > max_dict:
            raise WireError(f"answer contains a dict of {len(pairs)} entries (at most {max_dict})")
        items: list[Any] = []
        for pair in pairs:
            items.extend(_pair(pair))
            if max_dict is not None and type(pair[0]) is not str:
                raise WireError(f"answer contains a dict key that is not a str ({_kind(pair[0])}): "
                                f"an answer's dict keys must be str")
        return _Node("dict", items, depth)
    if keys == {"$o", "type", "f"}:
        name, type_name, fields = v["$o"], v["type"], v["f"]
        if not (name is None or type(name) is str) or type(type_name) is not str or type(fields) is not dict:
            raise WireError("malformed object")
        return _Node("object", list(fields.values()), depth, (name, type_name, list(fields)))
    raise WireError("untagged JSON object" if not keys & {"$t", "$d", "$o"} else "malformed tagged value")


def _finish(node: _Node, build_object: ObjectBuilder) -> Any:
    values = node.values
    if node.kind == "root":
        return values[0]
    if node.kind == "list":
        return values
    if node.kind == "tuple":
        return tuple(values)
    if node.kind == "dict":
        return {_key(values[i]): values[i + 1] for i in range(0, len(values), 2)}
    name, type_name, keys = node.extra
    return build_object(name, type_name, dict(zip(keys, values)))


def _kind(raw: Any) -> str:
    """What a raw (undecoded) dict key is, for a reason."""
    if type(raw) is dict:
        return "a tuple" if raw.keys() == {"$t"} else "an object" if "$o" in raw else "a dict"
    return {list: "a list", bool: "a bool", type(None): "None"}.get(type(raw), type(raw).__name__)


def _list(v: Any) -> list[Any]:
    if type(v) is not list:
        raise WireError("malformed tagged value")
    return v


def _pair(v: Any) -> list[Any]:
    if type(v) is not list or len(v) != 2:
        raise WireError("malformed dict entry")
    return v


def _key(k: Any) -> Any:
    """``k`` if it is a plain immutable value (tuples of such included): hashing it runs no code."""
    todo = [k]
    while todo:
        v = todo.pop()
        t = type(v)
        if t is tuple:
            todo.extend(v)
        elif not (v is None or t in (bool, int, float, str)):
            raise WireError("a dict key that is not a plain value")
    return k


def frame(payload: bytes) -> bytes:
    """``payload`` with its length prefix."""
    return HEADER.pack(len(payload)) + payload


def write_frame(fd: int, payload: bytes) -> None:
    """Write one whole frame to a blocking file descriptor."""
    view = memoryview(frame(payload))
    while view:
        written = _os_write(fd, view)
        view = view[written:]


def read_exact(fd: int, n: int) -> bytes:
    """Read exactly ``n`` bytes from a blocking descriptor; raise EOFError if it closes first."""
    chunks = []
    while n:
        chunk = _os_read(fd, n)
        if not chunk:
            raise EOFError("channel closed")
        chunks.append(chunk)
        n -= len(chunk)
    return b"".join(chunks)


class FrameReader:
    """Frames from a blocking descriptor, read in large chunks: one ``read`` a frame, not two."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.buf = bytearray()

    def next(self, max_bytes: int) -> bytes:
        """The next frame; EOFError if the channel closes first, WireError if it is over ``max_bytes``."""
        buf = self.buf
        need = HEADER.size
        sized = False  # the header was read (a frame may be empty: its length alone says so)
        while True:
            if len(buf) >= need:
                if not sized:
                    (length,) = HEADER.unpack_from(buf)
                    if length > max_bytes:
                        raise WireError(f"frame of {length} bytes exceeds the cap of {max_bytes}")
                    need += length
                    sized = True
                    continue
                payload = bytes(buf[HEADER.size:need])
                del buf[:need]
                return payload
            chunk = _os_read(self.fd, max(1 << 16, need - len(buf)))
            if not chunk:
                raise EOFError("channel closed")
            buf += chunk


def read_frame(fd: int, max_bytes: int) -> bytes:
    """Read one frame from a blocking descriptor, refusing frames over ``max_bytes``."""
    (length,) = HEADER.unpack(read_exact(fd, HEADER.size))
    if length > max_bytes:
        raise WireError(f"frame of {length} bytes exceeds the cap of {max_bytes}")
    return read_exact(fd, length)
