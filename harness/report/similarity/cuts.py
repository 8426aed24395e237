"""Where ``harness similarity`` draws the line, learned from the course's own pairs, and the
groups of submissions that share one solution.

**The per-course cut of the syntax-tree channel.** Independent bots of one game share idioms (the
loop over the board's cells, a neighbour count), and how much depends on the game and the
assignment. So the cut is drawn where a pair stands far outside the population's independent
pairs: the median of every pair's score plus :data:`Z` robust standard deviations (1.4826 times the
median absolute deviation), which copies hardly move, as long as fewer than half the pairs are
copies; never under :data:`TREE_FLOOR` (a course whose bots share nothing still needs a real
overlap) and never over :data:`TREE_CEILING` (a population of near-copies cannot hide them by
raising its own median). The token channel keeps its fixed cut (:data:`TOKEN_CUT`); it decides
only for a file that does not parse (see ``Pair.code_flag``).

**Groups.** Code shared by many submissions but absent from the given code is not an idiom: a
solution passed round a class is the widest copying there is. Submissions joined by flagged code
pairs form groups; a group of three or more is reported as one ("7 students share 140 lines").
"""

from __future__ import annotations

import statistics
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from harness.report.similarity.code import Fingerprints

TOKEN_CUT = 0.6  # the token channel: copies renamed and reordered score over 0.85, independent bots under 0.4
TREE_FLOOR = 0.35
TREE_CEILING = 0.6
Z = 6.0  # robust standard deviations above the median
MIN_PAIRS = 10  # fewer pairs say nothing about the population: the floor applies


@dataclass(frozen=True)
class Cut:
    """The cuts of one job's code channels, and what the tree channel's was learned from."""

    token: float = TOKEN_CUT
    tree: float = TREE_CEILING
    median: float = 0.0
    spread: float = 0.0  # 1.4826 x MAD
    pairs: int = 0

    def describe(self) -> str:
        if self.pairs < MIN_PAIRS:
            return f"tree >= {self.tree:.2f} (too few pairs to learn from)"
        return (f"tree >= {self.tree:.2f} (median {self.median:.2f} + {Z:.0f} x {self.spread:.3f} over "
                f"{self.pairs} pairs, within {TREE_FLOOR}-{TREE_CEILING})")


def learn(scores: Sequence[float]) -> Cut:
    """The tree channel's cut for a population of pair ``scores`` (every pair, zeros included)."""
    if len(scores) < MIN_PAIRS:
        return Cut(tree=TREE_FLOOR if scores else TREE_CEILING, pairs=len(scores))
    median = statistics.median(scores)
    spread = 1.4826 * statistics.median(abs(s - median) for s in scores)
    cut = min(TREE_CEILING, max(TREE_FLOOR, median + Z * spread))
    return Cut(tree=cut, median=median, spread=spread, pairs=len(scores))


@dataclass(frozen=True)
class Group:
    """Submissions joined by flagged code pairs, and how many lines of its own each shares."""

    members: tuple[str, ...]
    lines: int  # the median, over the members, of lines holding a fingerprint another member holds

    def describe(self) -> str:
        shown = ", ".join(self.members[:8]) + (" ..." if len(self.members) > 8 else "")
        return f"{len(self.members)} students share about {self.lines} lines of their own: {shown}"


def groups(edges: Iterable[tuple[str, str]], prints: Mapping[str, Fingerprints], given: set[int]) -> list[Group]:
    """The connected groups of three or more among ``edges`` (flagged pairs), largest first."""
    parent: dict[str, str] = {}

    def root(x: str) -> str:
        parent.setdefault(x, x)
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for a, b in edges:
        parent[root(a)] = root(b)
    members: dict[str, list[str]] = {}
    for x in list(parent):
        members.setdefault(root(x), []).append(x)
    out = []
    for names in members.values():
        if len(names) < 3:
            continue
        names.sort()
        counts: list[int] = []
        for name in names:
            lines: set[tuple[str, int]] = set()
            for channel in ("where", "tree"):
                mine = getattr(prints[name], channel)
                for h, spans in mine.items():
                    if h in given or not any(h in getattr(prints[o], channel) for o in names if o != name):
                        continue
                    for s in spans:
                        lines.update((s.file, n) for n in range(s.first, s.last + 1))
            counts.append(len(lines))
        out.append(Group(tuple(names), int(statistics.median(counts))))
    out.sort(key=lambda g: (-len(g.members), g.members))
    return out


__all__ = ["Cut", "Group", "MIN_PAIRS", "TOKEN_CUT", "TREE_CEILING", "TREE_FLOOR", "Z", "groups", "learn"]
