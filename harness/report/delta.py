"""Consecutive drawings of a game differ a little: store each as an edit of the one before.

A game's SVG frames mostly repeat the previous frame (one more card, one pawn moved), so a
replay page stores a frame either whole, as a string, or as ``[base, keep_head, keep_tail,
middle]``: the text of entry ``base`` with everything but its first ``keep_head`` and last
``keep_tail`` characters replaced by ``middle``. The viewer script (``static/replay.js``)
undoes this exactly as :func:`decode` does.
"""

from __future__ import annotations

from collections.abc import Sequence

Entry = str | list[int | str]

WORTH = 0.8  # keep an edit only if it is smaller than this share of the whole text


def common_prefix(a: str, b: str) -> int:
    """Length of the longest common prefix (binary search on slices: the comparisons run in C)."""
    lo, hi = 0, min(len(a), len(b))
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if a[:mid] == b[:mid]:
            lo = mid
        else:
            hi = mid - 1
    return lo


def edit(base: str, text: str) -> tuple[int, int, str]:
    """``(keep_head, keep_tail, middle)`` that turn ``base`` into ``text``."""
    head = common_prefix(base, text)
    tail = common_prefix(base[head:][::-1], text[head:][::-1])
    return head, tail, text[head:len(text) - tail]


def encode(texts: Sequence[str]) -> list[Entry]:
    """Each text whole, or as an edit of the text before it when that is clearly smaller."""
    entries: list[Entry] = []
    for i, text in enumerate(texts):
        if i > 0:
            head, tail, middle = edit(texts[i - 1], text)
            if len(middle) + 24 < WORTH * len(text):
                entries.append([i - 1, head, tail, middle])
                continue
        entries.append(text)
    return entries


def decode(entries: Sequence[Entry]) -> list[str]:
    """The texts back (what the viewer script computes, one frame at a time)."""
    texts: list[str] = []
    for entry in entries:
        if isinstance(entry, str):
            texts.append(entry)
        else:
            base, head, tail, middle = int(entry[0]), int(entry[1]), int(entry[2]), str(entry[3])
            source = texts[base]
            texts.append(source[:head] + middle + source[len(source) - tail:])
    return texts
