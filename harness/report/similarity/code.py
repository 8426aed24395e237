"""The code channel of ``harness similarity``: winnowed fingerprints of normalised tokens.

The method is MOSS's (Schleimer, Wilkerson and Aiken, "Winnowing: local algorithms for
document fingerprinting", SIGMOD 2003), over Python's own :mod:`tokenize`:

* Tokens are normalised so that what a copier changes cheaply does not count: every identifier
  the file names itself becomes ``N`` (builtins such as ``len`` and keywords stay), every number
  ``0`` and every string ``S``; round brackets (optional around tuples, conditions and
  broken lines) are dropped; comments, docstrings, blank lines and line continuations go.
* The tokens are cut into chunks at every ``def`` and ``class``, and k-grams never cross a cut,
  so reordering functions or methods changes nothing; added dead code only adds chunks.
* In every window of :data:`WINDOW` consecutive k-gram hashes the smallest is kept (the
  rightmost of equal ones): any run of at least ``K + WINDOW - 1`` matching tokens shares a
  fingerprint, and a file keeps about ``2 / (WINDOW + 1)`` of its k-grams.

Here the source is only tokenised; :func:`fingerprint` also hands it to the syntax-tree channel
(:mod:`.ast_channel`: parsed with :func:`ast.parse`, never compiled or run). Each file is capped
at :data:`MAX_FILE_BYTES`, :data:`MAX_TOKENS` and ``ast_channel.MAX_NODES``. A file that does not
tokenise has no fingerprints, one that does not parse no tree fingerprints, with a note.
:func:`fingerprint` is a pure function of ``(name, bytes)`` pairs returning plain, picklable
data (hashes of int tuples: the same in every process), so it can run in a worker or a capped
child process.
"""

from __future__ import annotations

import builtins
import io
import keyword
import tokenize
import zlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from harness.report.similarity import ast_channel

K = 10  # tokens in a k-gram: shorter runs (``for N in range(len(N)):``) are idioms, not copies
WINDOW = 6  # k-grams per winnowing window: a match of K + WINDOW - 1 = 15 tokens is always found
MAX_FILE_BYTES = 256 * 1024  # a bot's source file is a few kB; more is not read
MAX_TOKENS = 60_000

_KEEP = frozenset(keyword.kwlist) | frozenset(keyword.softkwlist) | frozenset(dir(builtins))
_SKIP = frozenset({tokenize.COMMENT, tokenize.NL, tokenize.ENCODING, tokenize.ENDMARKER})
_CUT = frozenset({"def", "class"})
_DROP = frozenset({"(", ")", "\\"})


@dataclass(frozen=True)
class Span:
    """Lines ``first``..``last`` (1-based, inclusive) of one file of a submission."""

    file: str
    first: int
    last: int


@dataclass
class Fingerprints:
    """A submission's fingerprints, each with the places it comes from, and notes on unread files:
    ``where`` of the token channel, ``tree`` of the syntax-tree channel (:mod:`.ast_channel`)."""

    where: dict[int, list[Span]] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    tree: dict[int, list[Span]] = field(default_factory=dict)
    drawing: set[int] = field(default_factory=set)  # statements drawing from the seeded ``random``, hashed
    parsed: bool = True  # every file parsed: the syntax-tree channel speaks for it

    def __len__(self) -> int:
        return len(self.where)


def normalised(text: str) -> tuple[list[str], list[int]]:
    """The normalised tokens of ``text`` and the line of each; ``ValueError`` if it does not tokenise."""
    out: list[str] = []
    lines: list[int] = []
    previous = tokenize.NEWLINE  # a string right after a statement's start may be a docstring
    pending: tuple[str, int] | None = None  # a string that is a statement of its own is dropped
    try:
        for tok in tokenize.generate_tokens(io.StringIO(text).readline):
            kind = tok.type
            if kind in _SKIP:
                continue
            if pending is not None:
                if kind != tokenize.NEWLINE:  # the string was part of an expression after all
                    out.append(pending[0])
                    lines.append(pending[1])
                pending = None
            if kind == tokenize.STRING and previous in (tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT):
                pending = ("S", tok.start[0])
                previous = kind
                continue
            if kind == tokenize.NAME:
                word = tok.string if tok.string in _KEEP else "N"
            elif kind == tokenize.NUMBER:
                word = "0"
            elif kind == tokenize.STRING or kind in _FSTRING:
                word = "S"
            elif kind == tokenize.NEWLINE:
                if previous == tokenize.NEWLINE:
                    continue
                word = ";"
            elif kind == tokenize.INDENT:
                word = "{"
            elif kind == tokenize.DEDENT:
                word = "}"
            elif tok.string in _DROP:  # round brackets are often optional (tuples, conditions, line breaks): layout
                previous = kind
                continue
            else:
                word = tok.string
            previous = kind
            out.append(word)
            lines.append(tok.start[0])
            if len(out) > MAX_TOKENS:
                raise ValueError(f"more than {MAX_TOKENS} tokens")
    except (tokenize.TokenError, SyntaxError) as exc:  # IndentationError is a SyntaxError
        raise ValueError(f"does not tokenise ({type(exc).__name__}: {str(exc)[:80]})") from None
    return out, lines


_FSTRING = frozenset(getattr(tokenize, name) for name in ("FSTRING_START", "FSTRING_MIDDLE", "FSTRING_END")
                     if hasattr(tokenize, name))


def chunks(tokens: list[str]) -> list[tuple[int, int]]:
    """``[start, end)`` ranges of ``tokens`` cut before every ``def`` and ``class`` that starts a
    statement, so each definition is fingerprinted on its own."""
    cuts = [0] + [i for i in range(1, len(tokens))
                  if tokens[i] in _CUT and tokens[i - 1] in (";", "{", "}", "async")]
    cuts.append(len(tokens))
    return [(a, b) for a, b in zip(cuts, cuts[1:]) if b > a]


_IDS: dict[str, int] = {}


def _ids(tokens: list[str]) -> list[int]:
    """Each token as a number that is the same in every process (so fingerprints can be stored)."""
    out = []
    for word in tokens:
        code = _IDS.get(word)
        if code is None:
            code = _IDS[word] = zlib.crc32(word.encode())
        out.append(code)
    return out


def kgram_hashes(tokens: list[str]) -> list[tuple[int, int]]:
    """(hash, start index) of every k-gram that lies inside one chunk."""
    ids = _ids(tokens)
    out: list[tuple[int, int]] = []
    for a, b in chunks(tokens):
        for i in range(a, b - K + 1):
            out.append((hash(tuple(ids[i:i + K])), i))  # a tuple of ints hashes the same in every run
    return out


def winnow(hashes: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The (hash, start) pairs winnowing keeps: the rightmost minimum of every window."""
    if len(hashes) <= WINDOW:
        return [min(hashes, key=lambda h: (h[0], -h[1]))] if hashes else []
    kept: dict[int, tuple[int, int]] = {}
    for start in range(len(hashes) - WINDOW + 1):
        best = start
        for i in range(start + 1, start + WINDOW):
            if hashes[i][0] <= hashes[best][0]:
                best = i
        kept[best] = hashes[best]
    return [kept[i] for i in sorted(kept)]


def _text(name: str, data: bytes) -> str:
    if len(data) > MAX_FILE_BYTES:
        raise ValueError(f"larger than {MAX_FILE_BYTES // 1024} kB")
    return data.decode("utf-8", errors="replace")


def fingerprint(files: Iterable[tuple[str, bytes]]) -> Fingerprints:
    """The winnowed fingerprints of a submission's Python files (name, source), both channels.

    A pure function of its argument returning plain, picklable data: it may run in any process."""
    result = Fingerprints()
    for name, data in files:
        try:
            text = _text(name, data)
            tokens, lines = normalised(text)
        except ValueError as exc:
            result.notes.append(f"{name}: {exc}: no fingerprints from this file")
            result.parsed = False
            continue
        for value, start in winnow(kgram_hashes(tokens)):
            span = Span(name, lines[start], lines[min(start + K, len(lines)) - 1])
            result.where.setdefault(value, []).append(span)
        try:
            units, drawing = ast_channel.canonical(text)
        except ValueError as exc:
            result.notes.append(f"{name}: {exc}: no syntax-tree fingerprints from this file")
            result.parsed = False
            continue
        result.drawing |= drawing
        for unit in units:
            for value, start in winnow(ast_channel.unit_hashes(unit)):
                seen = unit.lines[start:start + ast_channel.K]
                first, last = min(seen), max(seen)
                if last - first > ast_channel.K:  # statements put in canonical order: mark where it starts
                    first = last = unit.lines[start]
                result.tree.setdefault(value, []).append(Span(name, first, last))
    return result


def random_draws(files: Iterable[tuple[str, bytes]]) -> set[int]:
    """The simple statements of ``files`` that draw from ``random``, each hashed whole (a template's
    seeded move choice); files that do not parse give none."""
    found: set[int] = set()
    for name, data in files:
        try:
            found |= ast_channel.canonical(_text(name, data))[1]
        except ValueError:
            continue
    return found


def every_kgram(files: Iterable[tuple[str, bytes]]) -> set[int]:
    """Every k-gram hash of given code (a template, the bot API), of both channels: all of them,
    not only the winnowed ones, so a student's copy of any part of it is recognised as given."""
    found: set[int] = set()
    for name, data in files:
        try:
            tokens, _ = normalised(_text(name, data))
        except ValueError:
            continue
        found.update(h for h, _ in kgram_hashes(tokens))
        try:
            units = ast_channel.canonical_units(_text(name, data))
        except ValueError:
            continue
        for unit in units:
            found.update(h for h, _ in ast_channel.unit_hashes(unit))
    return found


@dataclass(frozen=True)
class CodeMatch:
    """How much of two submissions' own code is the same: ``shared`` fingerprints of ``smaller``."""

    shared: int
    smaller: int
    score: float


MIN_FINGERPRINTS = 10  # a submission with fewer own fingerprints is scored as if it had this many


def compare_all(prints: Mapping[str, Fingerprints], given: set[int], *, channel: str = "where",
                common: int | None = None) -> dict[tuple[str, str], CodeMatch]:
    """The code score of every pair of ``prints`` with a fingerprint in common (others score 0),
    in one channel (``where``: tokens, ``tree``: the syntax tree).

    ``given`` fingerprints (template, bot API, excluded files) are no evidence. A fingerprint many
    submissions hold is evidence all the same (a solution shared by a group is the widest copying,
    reported as a group), unless ``common`` caps the holders. The score is the *containment*: the
    shared fingerprints over those of the submission with fewer (at least
    :data:`MIN_FINGERPRINTS`), so a copy padded with dead code, or a bot merged from two, still
    scores high against each source. An inverted index from fingerprint to submissions visits
    only pairs that share something: 44,850 pairs cost what their overlaps cost.
    """
    names = sorted(prints)
    index: dict[int, list[int]] = {}
    for n, name in enumerate(names):
        for value in getattr(prints[name], channel):
            if value not in given:
                index.setdefault(value, []).append(n)
    own = [0] * len(names)
    counts: dict[tuple[int, int], int] = {}
    wide: list[list[int]] = []  # fingerprints many hold: counted as matrices (their pairs grow as the square)
    for holders in index.values():
        for n in holders:
            own[n] += 1
        if common is not None and len(holders) > common:
            continue
        if len(holders) > WIDE:
            wide.append(holders)
            continue
        for x in range(len(holders)):
            for y in range(x + 1, len(holders)):
                key = (holders[x], holders[y])
                counts[key] = counts.get(key, 0) + 1
    if wide:
        for (x, y), shared in _wide_pairs(wide, len(names)).items():
            counts[x, y] = counts.get((x, y), 0) + shared
    out: dict[tuple[str, str], CodeMatch] = {}
    for (x, y), shared in counts.items():
        pair = (names[x], names[y])
        smaller = min(own[x], own[y])
        out[pair] = CodeMatch(shared, smaller, min(1.0, shared / max(smaller, MIN_FINGERPRINTS)))
    return out


WIDE = 16  # holders from which a fingerprint's pairs are counted with numpy


def _wide_pairs(wide: list[list[int]], n: int) -> dict[tuple[int, int], int]:
    """Shared counts of every pair (x < y) over fingerprints each held by many: the incidence
    matrix times its transpose, a block of fingerprints at a time (memory stays a few MB)."""
    import numpy as np

    total = np.zeros((n, n), dtype=np.float64)
    block = 2048
    for start in range(0, len(wide), block):
        part = wide[start:start + block]
        m = np.zeros((len(part), n), dtype=np.float32)
        for row, holders in enumerate(part):
            m[row, holders] = 1.0
        total += m.T @ m
    xs, ys = np.nonzero(np.triu(total, 1))
    return {(int(x), int(y)): int(round(total[x, y])) for x, y in zip(xs, ys)}


def own_prints(prints: Fingerprints, given: set[int], channel: str = "where") -> int:
    """How many of a submission's fingerprints in ``channel`` are its own (not given code)."""
    return sum(1 for h in getattr(prints, channel) if h not in given)


def shared_spans(a: Fingerprints, b: Fingerprints, given: set[int]) -> tuple[list[Span], list[Span]]:
    """The places in ``a`` and in ``b`` of the fingerprints they share (not given code), both channels."""
    out: tuple[list[Span], list[Span]] = ([], [])
    for channel in ("where", "tree"):
        mine, theirs = getattr(a, channel), getattr(b, channel)
        both = [h for h in mine if h in theirs and h not in given]
        out[0].extend(s for h in both for s in mine[h])
        out[1].extend(s for h in both for s in theirs[h])
    return out


__all__ = ["CodeMatch", "Fingerprints", "K", "MAX_FILE_BYTES", "MIN_FINGERPRINTS", "Span", "WINDOW",
           "chunks", "compare_all", "every_kgram", "fingerprint", "kgram_hashes", "normalised", "own_prints", "shared_spans",
           "winnow"]
