"""Standings of a job: per-bot tallies, disqualification, ranks, points and a rating.

Rules (from the seeds): a bot with any verdict against it in a run of the job is disqualified
from that run's ranking; the others are ranked by the game's measure, the sum of their game
scores (Štreky: points; Quoridor and PriemSpel: 1 per win, 0.5 per draw) over the games that
ended by the rules: a game cut short by a verdict counts for nobody's score (its winner still
has the win), so meeting a disqualified bot early or late neither helps nor hurts. Reference players
are ranked like anyone but never take or consume points. ``harness_error`` games count for
no one.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass

from harness.config import Awards
from harness.record import GameRecord
from harness.tournament.schedule import Entrant


@dataclass
class Row:
    """One bot's line of the leaderboard."""

    login: str
    reference: bool = False
    bot_name: str = ""
    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    score: float = 0.0
    verdicts_against: int = 0
    disqualified: bool = False
    reason: str = ""  # the first verdict against the bot, with its reason
    rank: int | None = None
    points: float = 0.0
    rating: float = 1500.0
    rating_low: float = 1500.0
    rating_high: float = 1500.0

    def to_json(self) -> dict[str, object]:
        data = asdict(self)
        for key in ("score", "rating", "rating_low", "rating_high"):
            data[key] = round(float(data[key]), 3)
        return data


def tally(entrants: Sequence[Entrant], records: Iterable[GameRecord]) -> dict[str, Row]:
    """Per-bot counts over the records (games the harness failed are skipped)."""
    rows = {e.login: Row(e.login, e.reference) for e in entrants}
    for record in records:
        if record.harness_fault:
            continue
        for seat, player in enumerate(record.players):
            row = rows.get(player.login)
            if row is None:  # the gauntlet's opponent is not on the leaderboard
                continue
            row.games += 1
            row.bot_name = row.bot_name or player.bot_name
            if record.winner == seat:
                row.wins += 1
            elif record.winner is None and not any(p.verdict.charged for p in record.players):
                row.draws += 1
            elif record.winner is not None or player.verdict.charged:
                row.losses += 1  # (an opponent's verdict without a winner is no loss for this bot)
            if seat < len(record.scores) and not any(p.verdict.charged for p in record.players):
                row.score += record.scores[seat]
            if player.verdict.charged:
                row.verdicts_against += 1
                if not row.reason:
                    row.reason = f"{player.verdict.value}: {player.reason}"
    for row in rows.values():
        row.disqualified = row.verdicts_against > 0
    return rows


def competition_ranks(values: Sequence[float]) -> list[int]:
    """Ranks "1224": equal values share the best rank, the next rank skips."""
    order = sorted(range(len(values)), key=lambda i: -values[i])
    ranks = [0] * len(values)
    for pos, i in enumerate(order):
        ranks[i] = ranks[order[pos - 1]] if pos and values[i] == values[order[pos - 1]] else pos + 1
    return ranks


def award(rows: list[Row], awards: Awards) -> None:
    """Set ``rank`` (non-disqualified bots) and ``points`` (students only) per the policy."""
    ranked = [r for r in rows if not r.disqualified]
    for row, rank in zip(ranked, competition_ranks([r.score for r in ranked])):
        row.rank = rank
    students = [r for r in ranked if not r.reference]
    if awards.policy == "pass_fail":
        for row in rows:
            row.points = awards.points if (not row.reference and not row.disqualified and row.games) else 0.0
        return
    if awards.policy != "tiers":
        return
    n = len(students)
    for row, rank in zip(students, competition_ranks([r.score for r in students])):
        row.points = max((t.points for t in awards.tiers
                          if (t.rank is not None and rank <= t.rank) or (t.top is not None and rank <= t.top * n)),
                         default=0.0)


def fit_ratings(rows: dict[str, Row], records: Iterable[GameRecord], iterations: int = 300) -> None:
    """Bradley-Terry strengths on all games, on the Elo scale, with 95 % intervals.

    Fitted by the MM algorithm (Hunter 2004); a draw counts half a win each way. Each bot also
    gets one virtual draw against a fixed 1500 opponent, so an unbeaten bot has a finite rating.
    The interval uses the diagonal of the Fisher information (it ignores covariances).
    """
    logins = sorted(rows)
    index = {login: i for i, login in enumerate(logins)}
    n = len(logins)
    if n == 0:
        return
    wins = [[0.0] * (n + 1) for _ in range(n + 1)]  # wins[i][j]: i over j; index n is the anchor
    for record in records:
        if record.harness_fault or len(record.players) != 2:
            continue
        a, b = (index.get(p.login) for p in record.players)
        if a is None or b is None:
            continue
        if record.winner is None:
            wins[a][b] += 0.5
            wins[b][a] += 0.5
        else:
            w, lo = (a, b) if record.winner == 0 else (b, a)
            wins[w][lo] += 1.0
    for i in range(n):
        wins[i][n] += 0.5
        wins[n][i] += 0.5
    gamma = [1.0] * (n + 1)
    for _ in range(iterations):
        new = gamma[:]
        for i in range(n):  # the anchor (index n) stays at 1
            total_wins = sum(wins[i])
            denom = sum((wins[i][j] + wins[j][i]) / (gamma[i] + gamma[j]) for j in range(n + 1) if j != i)
            new[i] = total_wins / denom if denom > 0 else gamma[i]
        gamma = new
    scale = 400 / math.log(10)
    for i, login in enumerate(logins):
        info = sum((wins[i][j] + wins[j][i]) * gamma[i] * gamma[j] / (gamma[i] + gamma[j]) ** 2
                   for j in range(n + 1) if j != i)
        rating = 1500 + scale * math.log(gamma[i])
        half = 1.96 * scale / math.sqrt(info) if info > 0 else float("inf")
        row = rows[login]
        row.rating, row.rating_low, row.rating_high = rating, rating - half, rating + half


def standings(awards: Awards, entrants: Sequence[Entrant], records: Sequence[GameRecord]) -> list[Row]:
    """The leaderboard rows of the entrants' games, best first (disqualified bots last)."""
    rows = tally(entrants, records)
    fit_ratings(rows, records)
    ordered = sorted(rows.values(), key=lambda r: (r.disqualified, -r.score, -r.rating, r.login))
    award(ordered, awards)
    return ordered


def max_points(awards: Awards) -> float:
    """The most points a student can get under ``awards``."""
    if awards.policy == "pass_fail":
        return awards.points
    return max((t.points for t in awards.tiers), default=0.0)
