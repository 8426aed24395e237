"""The seeds' strategy analyses, from a job's stored games.

* Človeče's ``find_best_strategy(player_types, runs)``: a ``shuffled`` job; how many of its
  games each strategy won (the counts add up to the games played), with 95 % intervals.
* Blokovanie's ``analyze_game()``: a ``round_robin`` job with ``analysis: seats``; for every
  settings set (board size) and every pair of strategies, how often the first and the second
  player won, with 95 % intervals.
"""

from __future__ import annotations

import json
import math
from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from harness.tournament.formats import format_of
from harness.tournament.results import JobResults, light_records


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval (95 % by default) of a proportion ``successes / n``."""
    if n <= 0:
        return 0.0, 1.0
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass(frozen=True)
class Share:
    """``wins`` of ``games``, with its 95 % Wilson interval."""

    label: str
    wins: float
    games: int

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.wins, self.games)

    def to_json(self) -> dict[str, Any]:
        low, high = self.interval
        return {"label": self.label, "wins": self.wins, "games": self.games,
                "share": round(self.wins / self.games, 4) if self.games else None,
                "low": round(low, 4), "high": round(high, 4)}


def win_counts(results: JobResults) -> list[Share]:
    """Games won by each bot (a shared first place counts as a share), over the games played."""
    played = 0
    wins: dict[str, float] = {e.login: 0.0 for e in results.roll.entrants}
    for record in light_records(results):  # one game at a time: a large job's records stay in the store
        if record.harness_fault:
            continue
        played += 1
        firsts = [i for i, p in enumerate(record.places) if p == 1] if record.places else (
            [record.winner] if record.winner is not None else [])
        for seat in firsts:
            login = record.players[seat].login
            wins[login] = wins.get(login, 0.0) + 1 / len(firsts)
    return [Share(login, w, played) for login, w in sorted(wins.items(), key=lambda kv: (-round(kv[1], 3), kv[0]))]


@dataclass(frozen=True)
class SeatRow:
    """One settings set and pair of bots: wins of the first and of the second seat."""

    settings: str
    pair: tuple[str, str]
    first: Share
    second: Share
    draws: int

    @property
    def advantage(self) -> str:
        f, s = self.first.wins, self.second.wins
        if f == s:
            return "none"
        low_f, high_f = self.first.interval
        low_s, high_s = self.second.interval
        sure = low_f > high_s or low_s > high_f
        return ("first player" if f > s else "second player") + ("" if sure else " (not significant)")

    def to_json(self) -> dict[str, Any]:
        return {"settings": self.settings, "pair": list(self.pair), "first": self.first.to_json(),
                "second": self.second.to_json(), "draws": self.draws, "advantage": self.advantage}


def seat_advantage(results: JobResults) -> list[SeatRow]:
    """First- vs second-seat wins per settings set (as the job gave it, not each game's resolved
    one) and unordered pair of bots (both seatings)."""
    counts: dict[tuple[str, tuple[str, str]], list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    for record in light_records(results):
        if record.harness_fault or len(record.players) != 2:
            continue
        pair = tuple(sorted(p.login for p in record.players))
        key = (json.dumps(record.requested, sort_keys=True), (pair[0], pair[1]))  # the job's settings set
        c = counts[key]
        c[3] += 1
        if record.winner == 0:
            c[0] += 1
        elif record.winner == 1:
            c[1] += 1
        else:
            c[2] += 1
    rows = []
    for (settings, pair), (first, second, draws, n) in sorted(counts.items()):
        rows.append(SeatRow(settings, pair, Share("first", first, n), Share("second", second, n), draws))
    return rows


def analysis_json(results: JobResults) -> dict[str, Any] | None:
    """The job's analysis as JSON, or ``None`` if the job has none."""
    kind = format_of(results.job).analysis(results)
    if kind == "wins":
        return {"kind": "wins", "rows": [s.to_json() for s in win_counts(results)]}
    if kind == "seats":
        return {"kind": "seats", "rows": [r.to_json() for r in seat_advantage(results)]}
    return None


def analysis_text(results: JobResults) -> str:
    """The analysis as lines for a terminal (after the leaderboard)."""
    data = analysis_json(results)
    if data is None:
        return ""
    lines = []
    if data["kind"] == "wins":
        total = sum(r["wins"] for r in data["rows"])
        lines.append(f"Wins per strategy over {data['rows'][0]['games'] if data['rows'] else 0} games "
                     f"(seats shuffled before each game; 95 % intervals), sum {total:g}:")
        for r in data["rows"]:
            lines.append(f"  {r['label']:<20} {r['wins']:>7g}  {100 * (r['share'] or 0):5.1f} %  "
                         f"[{100 * r['low']:.1f}, {100 * r['high']:.1f}]")
    else:
        lines.append("First- vs second-player wins per board and pair (both seatings; 95 % intervals):")
        for r in data["rows"]:
            f, s = r["first"], r["second"]
            lines.append(f"  {r['settings']:<28} {r['pair'][0]} / {r['pair'][1]}: first {f['wins']:g} of "
                         f"{f['games']} [{100 * f['low']:.0f}-{100 * f['high']:.0f} %], second {s['wins']:g} "
                         f"[{100 * s['low']:.0f}-{100 * s['high']:.0f} %]: advantage {r['advantage']}")
    return "\n".join(lines)


__all__ = ["SeatRow", "Share", "analysis_json", "analysis_text", "seat_advantage", "win_counts"]
