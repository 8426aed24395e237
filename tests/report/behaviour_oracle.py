"""The behaviour channel as first written, kept as the tests' oracle: every pair of games in a
group walked side by side (quadratic in the bots of a group, holding every record). The streaming
:mod:`harness.report.similarity.behaviour` must give the same counts.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any

from harness.games import UnknownGame, get_game
from harness.games.base import GameSpec
from harness.record import GameRecord
from harness.report.similarity.behaviour import Agreement, BehaviourMatch, _table

EXAMPLES = 6  # positions kept per pair for its page


class Choices:
    """How many legal moves the mover had before each move of one stored game, found by replaying
    the game through its referee only as far as asked (a walk usually stops after a few plies)."""

    def __init__(self, game: GameSpec | None, record: GameRecord) -> None:
        self.record, self.counts = record, []  # counts[ply]
        self.rules = game.rules if game is not None else None
        self.state: Any = None
        self.broken = self.rules is None

    def more_than_one(self, ply: int) -> bool:
        """True if the mover had a choice before move ``ply`` (also when the game cannot tell)."""
        rules = self.rules
        if self.broken or rules is None:
            return True
        try:
            if self.state is None:
                self.state = rules.initial(self.record.settings, random.Random(self.record.seed))
            while len(self.counts) <= ply:
                move = self.record.moves[len(self.counts)]
                self.counts.append(len(rules.legal_moves(self.state)))
                self.state = rules.apply(self.state, rules.move_from_json(move.answer))
        except Exception:  # noqa: BLE001 - an old or odd record: every position counts, forced or not
            self.broken = True
            return True
        return self.counts[ply] > 1


def _walk(a: GameRecord, b: GameRecord, seat: int, choices: Choices) -> tuple[int, int, list[int]]:
    """(compared, same, plies where both chose the same) walking ``a`` and ``b`` side by side."""
    compared = same = 0
    plies: list[int] = []
    for ply, (ma, mb) in enumerate(zip(a.moves, b.moves)):
        if ma.player != mb.player or not (ma.accepted and mb.accepted):
            break
        equal = ma.answer == mb.answer
        if ma.player == seat and choices.more_than_one(ply):
            compared += 1
            if equal:
                same += 1
                plies.append(ply)
        if not equal:
            break
    return compared, same, plies


def compare_games(records: Iterable[tuple[str, GameRecord]],
                  logins: Iterable[str]) -> dict[tuple[str, str], BehaviourMatch]:
    """Behaviour of every pair of ``logins`` that met the same positions in ``records``
    ((store key, record) pairs); pairs that never did are absent (their score is null)."""
    wanted = set(logins)
    groups: dict[tuple[str, int, tuple[str, ...]], list[tuple[str, str, GameRecord]]] = {}
    for key, record in records:
        if record.harness_fault:
            continue
        seats = [p.login for p in record.players]
        for seat, login in enumerate(seats):
            if login in wanted and seats.count(login) == 1:
                others = tuple("*" if i == seat else s for i, s in enumerate(seats))
                groups.setdefault((_table(record), seat, others), []).append((login, key, record))
    games: dict[str, GameSpec | None] = {}
    choices: dict[str, Choices] = {}
    out: dict[tuple[str, str], BehaviourMatch] = {}
    for (_, seat, _), members in groups.items():
        for i in range(len(members)):
            for j in range(i + 1, len(members)):
                (la, ka, ra), (lb, kb, rb) = members[i], members[j]
                if la == lb:
                    continue
                if ra.game not in games:
                    try:
                        games[ra.game] = get_game(ra.game)
                    except UnknownGame:
                        games[ra.game] = None
                if ka not in choices:
                    choices[ka] = Choices(games[ra.game], ra)
                compared, same, plies = _walk(ra, rb, seat, choices[ka])
                if not compared:
                    continue
                if lb < la:
                    la, lb, ka, kb = lb, la, kb, ka
                match = out.setdefault((la, lb), BehaviourMatch())
                match.compared += compared
                match.same += same
                match.games += 1
                for ply in plies[:max(0, EXAMPLES - len(match.examples))]:
                    match.examples.append(Agreement(ka, kb, ply, ra.moves[ply].answer))
    return out
