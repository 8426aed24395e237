"""Plain data across the door: JSON with tags for what JSON lacks, and raw blobs for bytes.

Used on both sides of :mod:`harness.door` (standard library only: the child imports it by
itself). A value is ``None``, ``bool``, ``int``, ``float``, ``str``, ``bytes``, a ``list``, a
``tuple``, a ``set``, a ``dict`` or a dataclass instance of one of the task's declared types.
JSON holds the rest as it is; the others are tagged objects:

* ``{"$t": [...]}`` a tuple; ``{"$s": [...]}`` a set (a frozenset comes back as a set; in
  iteration order, so an item holding a set of str may not have the same cache key twice);
  ``{"$d": [[key, value], ...]}`` a dict whose keys are not all str;
* ``{"$b": i}`` the ``i``-th blob, its bytes carried raw after the JSON text (never base64);
* ``{"$c": "module:Name", "f": {...}}`` a dataclass instance, rebuilt by the reader only if
  ``module:Name`` is one of the types it was told to expect (never an arbitrary import).

A plain dict that happens to have a key starting with ``$`` is tagged ``{"$d": ...}`` too, so
no value a task returns is mistaken for a tag.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Mapping
from typing import Any

TAGS = frozenset({"$t", "$s", "$d", "$b", "$c"})


class Malformed(ValueError):
    """Data that is not what :func:`encode` writes (or names a type the reader does not expect)."""


def type_name(cls: type) -> str:
    """``module:QualName``: how a dataclass is named on the wire and in a task's ``types``."""
    return f"{cls.__module__}:{cls.__qualname__}"


def encode(value: Any) -> tuple[bytes, list[bytes]]:
    """``value`` as JSON text and its blobs (the bytes it holds, in order)."""
    blobs: list[bytes] = []

    def walk(v: Any) -> Any:  # results are shallow (a few levels): plain recursion is enough
        if v is None or isinstance(v, (bool, int, float, str)):
            return v
        if isinstance(v, (bytes, bytearray, memoryview)):
            blobs.append(bytes(v))
            return {"$b": len(blobs) - 1}
        if isinstance(v, list):
            return [walk(x) for x in v]
        if isinstance(v, tuple):
            return {"$t": [walk(x) for x in v]}
        if isinstance(v, (set, frozenset)):
            return {"$s": [walk(x) for x in v]}
        if isinstance(v, Mapping):
            if all(type(k) is str and not k.startswith("$") for k in v):
                return {k: walk(x) for k, x in v.items()}
            return {"$d": [[walk(k), walk(x)] for k, x in v.items()]}
        if dataclasses.is_dataclass(v) and not isinstance(v, type):
            return {"$c": type_name(type(v)), "f": {f.name: walk(getattr(v, f.name)) for f in dataclasses.fields(v)}}
        raise TypeError(f"not plain data: {type(v).__name__}")

    text = json.dumps(walk(value), separators=(",", ":"), ensure_ascii=False).encode()
    return text, blobs


def decode(text: bytes, blobs: list[bytes], types: Mapping[str, Callable[..., Any]] | None = None) -> Any:
    """The value :func:`encode` wrote as ``text`` and ``blobs``; ``types`` maps the dataclass
    names it may hold to their classes. :class:`Malformed` for anything else.

    Tags are rebuilt by ``json``'s own object hook, innermost first, as the C parser meets them.
    """
    known = types or {}

    def hook(v: dict[str, Any]) -> Any:
        if not v.keys() & TAGS:
            return v
        if v.keys() == {"$t"} and isinstance(v["$t"], list):
            return tuple(v["$t"])
        if v.keys() == {"$s"} and isinstance(v["$s"], list):
            try:
                return set(v["$s"])
            except TypeError:  # an unhashable member
                raise Malformed("a set member is not hashable") from None
        if v.keys() == {"$d"} and isinstance(v["$d"], list):
            out = {}
            for pair in v["$d"]:
                if not isinstance(pair, list) or len(pair) != 2:
                    raise Malformed("a dict entry is not a pair")
                try:
                    out[pair[0]] = pair[1]
                except TypeError:  # an unhashable key
                    raise Malformed("a dict key is not hashable") from None
            return out
        if v.keys() == {"$b"} and type(v["$b"]) is int and 0 <= v["$b"] < len(blobs):
            return blobs[v["$b"]]
        if v.keys() == {"$c", "f"} and isinstance(v["f"], dict):
            cls = known.get(v["$c"])
            if cls is None:
                raise Malformed(f"an unexpected type {str(v['$c'])[:80]!r}")
            try:
                return cls(**v["f"])
            except TypeError as exc:
                raise Malformed(f"{v['$c']}: {exc}") from None
        raise Malformed("an unknown tag")

    try:
        return json.loads(text, object_hook=hook)
    except Malformed:
        raise
    except (ValueError, RecursionError) as exc:
        raise Malformed(f"not JSON ({str(exc)[:100]})") from None


__all__ = ["Malformed", "decode", "encode", "type_name"]
