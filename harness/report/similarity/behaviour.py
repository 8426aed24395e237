"""The behaviour channel of ``harness similarity``: the same move in the same position.

A job's stored games hold every accepted answer, ply by ply. Two bots *met the same position*
when they sat in the same seat of games with the same settings, seed and opponents (a round
robin or a gauntlet plays exactly such games) and every move before it was the same: the
referee's start and its dice are a function of the settings, the seed and the moves. Each
position where both bots were to move, both answers were accepted and more than one move was
legal is compared (a forced move is no evidence); after the first different move the games
differ, so nothing later is.

The games stream from the store one at a time into a tree per group of comparable games (a
node is a position, an edge a move, as a trie of move sequences): two bots met a position
exactly when their games pass through its node. A game's moves past the last position it
shares with another game hang below that node as its *tail* and become nodes only when a later
game follows them, so memory grows with the positions games share, not with the store. Then,
per position, the bots that passed through it (an index from position and move to the games)
are counted into pair matrices at once (numpy), so the cost grows with the positions and the
pairs that truly met there, never with the square of the bots in a group.

Positions one bot met are not replayed to the other in a fresh process here: see
:mod:`.replay` for games whose bot interface can be asked any position (Blokovanie's).
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from harness.games import UnknownGame, get_game
from harness.games.base import Rules
from harness.record import GameRecord

EXAMPLES = 6  # positions kept per pair for its page

Edge = tuple[int, bool, str]  # a move out of a position: (its player, accepted, its answer as JSON)


@dataclass(frozen=True)
class Agreement:
    """One position both bots met and where both chose ``answer``."""

    game_a: str  # store keys of the two games
    game_b: str
    ply: int  # moves made before the position
    answer: Any


@dataclass
class BehaviourMatch:
    """Of ``compared`` positions both bots met, in how many they chose the same move."""

    compared: int = 0
    same: int = 0
    games: int = 0  # pairs of games that gave at least one compared position
    examples: list[Agreement] = field(default_factory=list)

    @property
    def score(self) -> float | None:
        return self.same / self.compared if self.compared else None


def _table(record: GameRecord) -> str:
    """What makes two games comparable, apart from who sits where: game, settings and seed."""
    return json.dumps([record.game, record.settings, record.seed], sort_keys=True, default=str)


@dataclass
class _Group:
    """The games of one table, seat and opponents: where its tree starts and how to replay it."""

    root: int
    seat: int
    game: str
    settings: Any
    seed: int
    games: list[int] = field(default_factory=list)


class PositionIndex:
    """Every group's games as a tree of positions, filled one stored game at a time."""

    def __init__(self, logins: Iterable[str]) -> None:
        self.logins = sorted(set(logins))
        self.number = {login: i for i, login in enumerate(self.logins)}
        self.groups: dict[tuple[str, int, tuple[str, ...]], _Group] = {}
        self.parent: list[int] = []
        self.edge: list[Edge | None] = []  # the move that led to the node
        self.depth: list[int] = []
        self.group_of: list[int] = []  # node -> index into groups (in insertion order)
        self.kids: dict[int, list[int]] = {}
        self.child: dict[tuple[int, Edge], int] = {}
        self.tail: dict[tuple[int, Edge], int] = {}  # the one game whose unshared moves start here
        self.ends: dict[int, list[int]] = {}  # games over at the node
        self.game_login: list[int] = []
        self.game_key: list[str] = []
        self.game_moves: list[tuple[Edge, ...]] = []
        self.game_node: list[int] = []  # the deepest node the game passes through
        self.edges: dict[Edge, Edge] = {}  # one copy of each move
        self.order: list[_Group] = []
        self.comparable: set[int] = set()  # nodes whose position was compared (after :meth:`count`)

    def _node(self, parent: int, edge: Edge | None, group: int) -> int:
        node = len(self.parent)
        self.parent.append(parent)
        self.edge.append(edge)
        self.depth.append(self.depth[parent] + 1 if parent >= 0 else 0)
        self.group_of.append(group)
        if parent >= 0:
            self.kids.setdefault(parent, []).append(node)
            assert edge is not None
            self.child[parent, edge] = node
        return node

    def add(self, key: str, record: GameRecord) -> None:
        """One stored game, in each seat of it that a compared login holds alone."""
        if record.harness_fault:
            return
        seats = [p.login for p in record.players]
        moves: tuple[Edge, ...] | None = None
        for seat, login in enumerate(seats):
            if login not in self.number or seats.count(login) != 1:
                continue
            if moves is None:
                moves = tuple(self.edges.setdefault(e, e) for e in (
                    (m.player, bool(m.accepted), json.dumps(m.answer, sort_keys=True, default=str))
                    for m in record.moves))
            others = tuple("*" if i == seat else s for i, s in enumerate(seats))
            name = (_table(record), seat, others)
            group = self.groups.get(name)
            if group is None:
                group = _Group(-1, seat, record.game, record.settings, record.seed)
                self.groups[name] = group
                self.order.append(group)
                group.root = self._node(-1, None, len(self.order) - 1)
            self._insert(group, key, self.number[login], moves)

    def _insert(self, group: _Group, key: str, login: int, moves: tuple[Edge, ...]) -> None:
        g = len(self.game_login)
        self.game_login.append(login)
        self.game_key.append(key)
        self.game_moves.append(moves)
        self.game_node.append(-1)
        group.games.append(g)
        node, ply = group.root, 0
        while True:
            if ply == len(moves):
                self.ends.setdefault(node, []).append(g)
                break
            step = (node, moves[ply])
            nxt = self.child.get(step)
            if nxt is None:
                other = self.tail.pop(step, None)
                if other is None:  # nobody made this move here: the rest of the game is its own
                    self.tail[step] = g
                    break
                # A second game makes the move: it becomes a node, the first game's tail starts below it.
                nxt = self._node(node, moves[ply], self.group_of[node])
                rest = self.game_moves[other]
                self.game_node[other] = nxt
                if len(rest) == ply + 1:
                    self.ends.setdefault(nxt, []).append(other)
                else:
                    self.tail[nxt, rest[ply + 1]] = other
            node, ply = nxt, ply + 1
        self.game_node[g] = node

    def _choices(self) -> dict[int, bool]:
        """For every node where two or more games' seats moved (accepted): was the move forced?
        Found by replaying each group's tree through its referee, top down, as deep as needed."""
        seat_games = [0] * len(self.parent)  # games that leave the node by an accepted move of the group's seat
        through = [0] * len(self.parent)
        for (node, edge), _g in self.tail.items():
            through[node] += 1
            if edge[1] and edge[0] == self.order[self.group_of[node]].seat:
                seat_games[node] += 1
        for node, games in self.ends.items():
            through[node] += len(games)
        for node in range(len(self.parent) - 1, 0, -1):
            up = self.parent[node]
            if up >= 0:
                through[up] += through[node]
                edge = self.edge[node]
                assert edge is not None
                if edge[1] and edge[0] == self.order[self.group_of[node]].seat:
                    seat_games[up] += through[node]
        rules: dict[str, Rules[Any, Any] | None] = {}
        out: dict[int, bool] = {}
        for group in self.order:
            if group.game not in rules:
                try:
                    rules[group.game] = get_game(group.game).rules
                except UnknownGame:
                    rules[group.game] = None
            referee = rules[group.game]
            stack: list[tuple[int, Any, bool]] = [(group.root, None, referee is None)]
            while stack:
                node, state, broken = stack.pop()
                if not broken and state is None:
                    try:
                        assert referee is not None
                        state = referee.initial(group.settings, random.Random(group.seed))
                    except Exception:  # noqa: BLE001 - an odd record: every position counts
                        broken = True
                if seat_games[node] >= 2:
                    try:
                        out[node] = broken or referee is None or len(referee.legal_moves(state)) > 1
                    except Exception:  # noqa: BLE001
                        out[node], broken = True, True
                for kid in self.kids.get(node, ()):
                    edge = self.edge[kid]
                    assert edge is not None
                    if not edge[1] or through[kid] < 2:
                        continue  # past a refused answer nothing is compared; alone, nothing either
                    after = None
                    if not broken and referee is not None:
                        try:
                            after = referee.apply(state, referee.move_from_json(json.loads(edge[2])))
                        except Exception:  # noqa: BLE001
                            stack.append((kid, None, True))
                            continue
                    stack.append((kid, after, broken))
        return out

    def count(self, given: Iterable[str] = ()) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(compared, same, games) as matrices over the logins, upper triangle by name.

        ``given`` logins are the shipped players: where one of them made a move, two other bots
        making the same move there is no evidence between them (they play as it does); the
        position still counts between each of them and the shipped player."""
        shipped = {self.number[x] for x in given if x in self.number}
        n = len(self.logins)
        compared = np.zeros((n, n), dtype=np.int32)
        same = np.zeros((n, n), dtype=np.int32)
        games = np.zeros((n, n), dtype=np.int32)
        choice = self._choices()
        self.comparable = {node for node, free in choice.items() if free}
        # Bottom up: the games through each node, split by the move they made there.
        parts: dict[int, list[tuple[Edge | None, list[int]]]] = {}
        for (node, edge), g in self.tail.items():
            parts.setdefault(node, []).append((edge, [g]))
        for node, ended in self.ends.items():
            parts.setdefault(node, []).append((None, list(ended)))
        first = self._first_comparable()
        for node in range(len(self.parent) - 1, -1, -1):
            here = parts.pop(node, [])
            if node in self.comparable:
                seat = self.order[self.group_of[node]].seat
                moved = [gs for e, gs in here if e is not None and e[1] and e[0] == seat]
                every = [self.game_login[g] for gs in moved for g in gs]
                _add_pairs(compared, every)
                for gs in moved:
                    if len(gs) > 1:
                        who = [self.game_login[g] for g in gs]
                        _add_pairs(same, who)
                        if shipped and any(x in shipped for x in who):
                            others = [x for x in who if x not in shipped]
                            _add_pairs(same, others, -1)
                            _add_pairs(compared, others, -1)
                if node in first:
                    _add_pairs(games, every)
            up = self.parent[node]
            if up >= 0:
                parts.setdefault(up, []).append((self.edge[node], [g for _, gs in here for g in gs]))
        return _fold(compared), _fold(same), _fold(games)

    def _first_comparable(self) -> set[int]:
        """Compared nodes with no compared node above them: a pair of games that met any
        compared position met the first on their common path, so a game pair counts once."""
        out = set()
        for node in self.comparable:
            up = self.parent[node]
            while up >= 0 and up not in self.comparable:
                up = self.parent[up]
            if up < 0:
                out.add(node)
        return out

    def _path(self, g: int) -> list[int]:
        nodes, node = [], self.game_node[g]
        while node >= 0:
            nodes.append(node)
            node = self.parent[node]
        return nodes[::-1]

    def examples(self, a: str, b: str, limit: int = EXAMPLES) -> list[Agreement]:
        """Up to ``limit`` positions where ``a`` and ``b`` (a < b) chose the same, in store order."""
        ia, ib = self.number[a], self.number[b]
        out: list[Agreement] = []
        for group in self.order:
            mine = [(i, g) for i, g in enumerate(group.games) if self.game_login[g] in (ia, ib)]
            pairs = sorted((x, y) for x in mine for y in mine
                           if x[0] < y[0] and {self.game_login[x[1]], self.game_login[y[1]]} == {ia, ib})
            for (_, ga), (_, gb) in pairs:
                if self.game_login[ga] != ia:
                    ga, gb = gb, ga
                pa, pb = self._path(ga), self._path(gb)
                common = 0
                while common < min(len(pa), len(pb)) and pa[common] == pb[common]:
                    common += 1
                for at, node in enumerate(pa[:common - 1]):
                    edge = self.edge[pa[at + 1]]
                    if node in self.comparable and edge is not None and edge[1] and edge[0] == group.seat:
                        out.append(Agreement(self.game_key[ga], self.game_key[gb], self.depth[node],
                                             json.loads(edge[2])))
                        if len(out) >= limit:
                            return out
        return out


def _add_pairs(matrix: np.ndarray, logins: list[int], step: int = 1) -> None:
    """``step`` for every pair of the games (by their logins' numbers), both ways round."""
    if len(logins) < 2:
        return
    index = np.asarray(logins)
    if len(set(logins)) == len(logins):
        matrix[np.ix_(index, index)] += step
    else:  # a login with two games here: each pair of games counts
        np.add.at(matrix, (index[:, None], index[None, :]), step)


def _fold(matrix: np.ndarray) -> np.ndarray:
    """The upper triangle without the diagonal (a login's games against each other are no pair)."""
    return np.triu(matrix, 1)


def compare_games(records: Iterable[tuple[str, GameRecord]], logins: Iterable[str], *,
                  examples: Callable[[str, str, BehaviourMatch], bool] | None = None,
                  given: Iterable[str] = ()) -> dict[tuple[str, str], BehaviourMatch]:
    """Behaviour of every pair of ``logins`` that met the same positions in ``records``
    ((store key, record) pairs, read once, one at a time); pairs that never did are absent (their
    score is null). Agreements to show are found for the pairs ``examples`` asks for (all with
    one when it is None). ``given`` logins are shipped players (see :meth:`PositionIndex.count`)."""
    index = PositionIndex(logins)
    for key, record in records:
        index.add(key, record)
    compared, same, games = index.count(given)
    out: dict[tuple[str, str], BehaviourMatch] = {}
    for i, j in zip(*np.nonzero(compared)):
        a, b = index.logins[i], index.logins[j]
        match = BehaviourMatch(int(compared[i, j]), int(same[i, j]), int(games[i, j]))
        if match.same and (examples is None or examples(a, b, match)):
            match.examples = index.examples(a, b)
        out[a, b] = match
    return out


__all__ = ["Agreement", "BehaviourMatch", "PositionIndex", "compare_games"]
