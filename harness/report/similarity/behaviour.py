"""The behaviour channel of ``harness similarity``: the same move in the same position.

A job's stored games hold every accepted answer, ply by ply. Two bots *met the same position*
when they sat in the same seat of games with the same settings, seed and opponents (a round
robin or a gauntlet plays exactly such games) and every move before it was the same: the
referee's start and its dice are a function of the settings, the seed and the moves. From
there the two games are walked side by side; each position where both bots were to move and
had more than one legal move is compared (a forced move is no evidence), and the walk stops at
the first difference, after which the positions differ.

Positions one bot met are not replayed to the other in a fresh process: every game's bot
interface here is stateful (a Štreky or Quoridor bot keeps its own board from the calls it has
seen, a Človeče bot is built with the board) except Blokovanie's, so a bot can only be brought
into a position by playing the game up to it, which is what the stored games already did.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from harness.games import UnknownGame, get_game
from harness.games.base import GameSpec
from harness.record import GameRecord

EXAMPLES = 6  # positions kept per pair for its page


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


def _choices(game: GameSpec | None, record: GameRecord) -> list[int] | None:
    """How many legal moves the mover had before each recorded move (None: the game cannot tell)."""
    if game is None:
        return None
    rules = game.rules
    try:
        state = rules.initial(record.settings, random.Random(record.seed))
        counts = []
        for move in record.moves:
            if not move.accepted or rules.is_over(state):
                break
            counts.append(len(rules.legal_moves(state)))
            state = rules.apply(state, rules.move_from_json(move.answer))
        return counts
    except Exception:  # noqa: BLE001 - an old or odd record: compare every position, forced or not
        return None


def _table(record: GameRecord) -> str:
    """What makes two games comparable, apart from who sits where: game, settings and seed."""
    return json.dumps([record.game, record.settings, record.seed], sort_keys=True, default=str)


def _walk(a: GameRecord, b: GameRecord, seat: int, choices: list[int] | None) -> tuple[int, int, list[int]]:
    """(compared, same, plies where both chose the same) walking ``a`` and ``b`` side by side."""
    compared = same = 0
    plies: list[int] = []
    for ply, (ma, mb) in enumerate(zip(a.moves, b.moves)):
        if ma.player != mb.player or not (ma.accepted and mb.accepted):
            break
        equal = ma.answer == mb.answer
        if ma.player == seat and (choices is None or (ply < len(choices) and choices[ply] > 1)):
            compared += 1
            if equal:
                same += 1
                plies.append(ply)
        if not equal:
            break
    return compared, same, plies


def compare_games(records: Iterable[tuple[str, GameRecord]], logins: Iterable[str]) -> dict[tuple[str, str], BehaviourMatch]:
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
    choices: dict[str, list[int] | None] = {}
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
                    choices[ka] = _choices(games[ra.game], ra)
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


def summary(matches: Mapping[tuple[str, str], BehaviourMatch]) -> dict[str, int]:
    """How many pairs met comparable positions, and how many positions in all."""
    return {"pairs": len(matches), "positions": sum(m.compared for m in matches.values())}


__all__ = ["Agreement", "BehaviourMatch", "compare_games", "summary"]
