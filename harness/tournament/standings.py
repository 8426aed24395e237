"""Standings of a job: per-bot tallies, disqualification, ranks, points and a rating.

Rules (from the seeds): a bot with any verdict against it in a run of the job is disqualified
from that run's ranking; the others are ranked by the game's measure, the sum of their game
scores (Štreky: points; Quoridor and PriemSpel: 1 per win, 0.5 per draw; Človeče: 3/2/1/0 by
place) over the games that ended by the rules: a game cut short by a verdict counts for
nobody's score (its winner still has the win), so meeting a disqualified bot early or late
neither helps nor hurts. ``harness_error`` games count for no one.

Two ranks: ``rank`` is the rank among the students who are not disqualified, the one awards
use; ``rank_all`` also counts the reference players (who rank, but never take points). Ties
share a rank ("1224"). A tier ``{top: f}`` reaches every rank up to ``ceil(f * n)`` of the ``n``
ranked students, so with at least one ranked student every tier reaches rank 1 at least.

The rating is a Plackett-Luce fit (Bradley-Terry for two seats) on every game's finishing
order, the gauntlet's opponent included, on the Elo scale with a 95 % interval; a bot without
a rated game has no rating (``None``, shown empty). Ranked by rating (an adaptive schedule, where
bots play very different numbers of games) the ratings are the posterior's under a Gaussian prior
fitted to the field (:func:`~harness.tournament.rating.shrunk`); by score they are the plain fit.
"""

from __future__ import annotations

import math
from statistics import NormalDist
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from harness.tournament.job import Awards
from harness.games.base import competition_places
from harness.record import GameRecord
from harness.tournament.schedule import Absent, Entrant

NO_SUBMISSION = "no submission"


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
    reason: str = ""  # the first verdict against the bot with its reason, or why it has no submission
    rank: int | None = None  # among the students who are not disqualified (what awards use)
    rank_all: int | None = None  # among every bot that is not disqualified, reference players included
    points: float = 0.0
    rating: float | None = None
    rating_low: float | None = None
    rating_high: float | None = None
    absent: bool = False  # no usable submission: 0 points, ``reason`` says why
    near_boundary: bool = False  # adaptive: the rating's interval still straddles an award tier's boundary
    extra: dict[str, Any] = field(default_factory=dict)  # a format's own columns (SemBasic's parts)
    code_rules: list[Any] = field(default_factory=list)  # the seed's code rules (harness.coderules.RuleResult)

    def to_json(self) -> dict[str, object]:
        data = asdict(self)
        data["code_rules"] = [r.to_json() for r in self.code_rules]
        for key in ("score", "rating", "rating_low", "rating_high"):
            if data[key] is not None:
                data[key] = round(float(data[key]), 3)
        return data

    @property
    def status(self) -> str:
        """``ok``, ``disqualified: reason`` or the reason it has no submission."""
        if self.absent:
            return self.reason
        return f"disqualified: {self.reason}" if self.disqualified else "ok"


def _charged(record: GameRecord) -> bool:
    return any(p.verdict.charged for p in record.players)


def count(rows: dict[str, Row], record: GameRecord) -> None:
    """Add one game to the per-bot counts (a game the harness failed adds nothing)."""
    if record.harness_fault:
        return
    cut_short = _charged(record)
    for seat, player in enumerate(record.players):
        row = rows.get(player.login)
        if row is None:  # the gauntlet's opponent is not on the leaderboard
            continue
        row.games += 1
        row.bot_name = row.bot_name or player.bot_name
        if record.winner == seat:
            row.wins += 1
        elif record.winner is None and not cut_short:
            row.draws += 1
        elif record.winner is not None or player.verdict.charged:
            row.losses += 1  # (an opponent's verdict without a winner is no loss for this bot)
        if seat < len(record.scores) and not cut_short:
            row.score += record.scores[seat]
        if player.verdict.charged:
            row.verdicts_against += 1
            if not row.reason:
                row.reason = f"{player.verdict.value}: {player.reason}"
        row.disqualified = row.verdicts_against > 0


def tally(entrants: Sequence[Entrant], records: Iterable[GameRecord]) -> dict[str, Row]:
    """Per-bot counts over the records (games the harness failed are skipped)."""
    rows = {e.login: Row(e.login, e.reference) for e in entrants}
    for record in records:
        count(rows, record)
    return rows


def competition_ranks(values: Sequence[float]) -> list[int]:
    """Ranks "1224": equal values share the best rank, the next rank skips."""
    return list(competition_places(list(values)))


def tier_reach(tier_top: float, ranked: int) -> int:
    """The last rank a ``{top: f}`` tier reaches among ``ranked`` students: ``ceil(f * n)``."""
    return math.ceil(tier_top * ranked - 1e-9)


def award(rows: list[Row], awards: Awards, by_rating: bool = False) -> None:
    """Set ``rank_all`` (bots not disqualified), ``rank`` (students among them) and ``points``.

    Ranks go by score, or with ``by_rating`` (an adaptive schedule, where bots meet different
    opponents and a score means little) by rating; ``rows`` are in that order already.
    """
    def measure(row: Row) -> float:
        return (row.rating if row.rating is not None else -1e9) if by_rating else row.score

    ranked = [r for r in rows if not r.disqualified and not r.absent]
    for row, rank in zip(ranked, competition_ranks([measure(r) for r in ranked])):
        row.rank_all = rank
    students = [r for r in ranked if not r.reference]
    for row, rank in zip(students, competition_ranks([measure(r) for r in students])):
        row.rank = rank
    if awards.policy == "pass_fail":
        for row in rows:
            row.points = awards.points if (not row.reference and not row.disqualified and not row.absent
                                           and row.games) else 0.0
        return
    if awards.policy != "tiers":
        return
    n = len(students)
    for row in students:
        assert row.rank is not None
        row.points = max((t.points for t in awards.tiers
                          if (t.rank is not None and row.rank <= t.rank)
                          or (t.top is not None and row.rank <= tier_reach(t.top, n))), default=0.0)


def _orderings(record: GameRecord) -> list[tuple[list[int], float]]:
    """A game's finishing order as seat orderings (best first) with weights: ties are split
    evenly between breaking them by seat and by reverse seat (a two-player draw: half a win each)."""
    places = list(record.places) if len(record.places) == len(record.players) else []
    if not places:  # a record from before places were kept: the winner, else a draw
        n = len(record.players)
        places = [1] * n if record.winner is None else [1 if i == record.winner else 2 for i in range(n)]
    seats = range(len(places))
    forward = sorted(seats, key=lambda i: (places[i], i))
    backward = sorted(seats, key=lambda i: (places[i], -i))
    return [(forward, 1.0)] if forward == backward else [(forward, 0.5), (backward, 0.5)]


def add_races(record: GameRecord, index: dict[str, int], races: list[tuple[int, ...]], weights: list[float]) -> None:
    """Append a game's races (see :mod:`harness.tournament.rating`) to ``races``/``weights``,
    numbering new logins in ``index``. A game the harness failed, or in which one login holds
    several seats, adds nothing."""
    logins = [p.login for p in record.players]
    if record.harness_fault or len(set(logins)) != len(logins):
        return
    items = [index.setdefault(login, len(index)) for login in logins]
    for order, weight in _orderings(record):
        ranked = tuple(items[s] for s in order)
        for t in range(len(ranked) - 1):
            races.append(ranked[t:])
            weights.append(weight)


def with_anchor(items: int, races: list[tuple[int, ...]], weights: list[float]
                ) -> tuple[list[tuple[int, ...]], list[float]]:
    """The races plus each item's virtual draw against the 1500 anchor (item ``items``)."""
    anchored = [(i, items) for i in range(items)] + [(items, i) for i in range(items)]
    return races + anchored, weights + [0.5] * len(anchored)


ELO = 400 / math.log(10)  # Elo points per unit of log-strength


def rate(rows: dict[str, Row], index: dict[str, int], races: list[tuple[int, ...]], weights: list[float],
         confidence: float = 0.95, start: Any = None, shrink: bool = False) -> Any:
    """Set the rating and interval of every row in ``index`` from the races; returns the fitted
    log-strengths (to warm up a later fit with ``start``).

    With ``shrink`` (bots with very different numbers of games: an adaptive schedule) the ratings
    are the posterior's under the Gaussian prior the field's own spread calls for
    (:func:`~harness.tournament.rating.shrunk`) in place of the virtual draws."""
    from harness.tournament.rating import fit, shrunk

    rated = [login for login in index if login in rows]
    if not rated:
        return None
    anchored, anchored_weights = with_anchor(len(index), races, weights)
    theta, variance = fit(anchored, anchored_weights, len(index), start=start)
    if shrink:
        theta, variance, _precision = shrunk(races, weights, len(index), theta, variance)
    scale = 400 / math.log(10)
    z = NormalDist().inv_cdf(0.5 + confidence / 2)
    for login in rated:
        i = index[login]
        rating = 1500 + scale * float(theta[i])
        half = z * scale * math.sqrt(float(variance[i])) if math.isfinite(variance[i]) else float("inf")
        row = rows[login]
        row.rating, row.rating_low, row.rating_high = rating, rating - half, rating + half
    return theta


def fit_ratings(rows: dict[str, Row], records: Iterable[GameRecord], confidence: float = 0.95) -> None:
    """Plackett-Luce strengths on every game, on the Elo scale, with intervals at ``confidence``.

    Every login of the games takes part (a gauntlet's opponent too), so bots with different
    results get different ratings. Fitted by Newton's method (:mod:`harness.tournament.rating`);
    each bot also gets one virtual draw against a fixed 1500 anchor, so an unbeaten or winless
    bot has a finite rating. The interval uses the inverse of the Fisher information. A game in
    which one login holds several seats is left out, and so is a game the harness failed.
    """
    races: list[tuple[int, ...]] = []
    weights: list[float] = []
    index: dict[str, int] = {}
    for record in records:
        add_races(record, index, races, weights)
    rate(rows, index, races, weights, confidence)


def standings(awards: Awards, entrants: Sequence[Entrant], records: Iterable[GameRecord],
              absent: Sequence[Absent] = (), by_rating: bool = False, confidence: float = 0.95) -> list[Row]:
    """The leaderboard rows, best first: ranked bots, then the disqualified, then the absent.

    Ranked by score (then rating), or with ``by_rating`` by rating (then score). ``records``
    is read once, one game at a time (a generator over the store will do): the counts and the
    rating's races are folded as it goes, so no game needs to stay in memory."""
    rows = {e.login: Row(e.login, e.reference) for e in entrants}
    index: dict[str, int] = {}
    folded: dict[tuple[int, ...], float] = {}  # each distinct race once with its summed weight
    for record in records:
        count(rows, record)
        races: list[tuple[int, ...]] = []
        weights: list[float] = []
        add_races(record, index, races, weights)
        for race, weight in zip(races, weights):
            folded[race] = folded.get(race, 0.0) + weight
    # The likelihood is a weighted sum over races, so equal races summed give the same fit.
    # Ranked by rating (an adaptive schedule), bots played unequal games: the prior's estimates.
    rate(rows, index, list(folded), list(folded.values()), confidence, shrink=by_rating)
    for a in absent:
        rows[a.login] = Row(a.login, reason=a.reason, absent=True)

    def order(r: Row) -> tuple[Any, ...]:
        # Rounded: the fit sums the games in the order they were stored, and a cluster stores them
        # in the order they finish; equal bots must not swap places for the last bits of a float.
        rating = -(round(r.rating, 6) if r.rating is not None else -1e9)
        return (r.absent, r.disqualified, *((rating, -r.score) if by_rating else (-r.score, rating)), r.login)

    ordered = sorted(rows.values(), key=order)
    award(ordered, awards, by_rating)
    return ordered


def max_points(awards: Awards) -> float:
    """The most points a student can get under ``awards``."""
    if awards.policy == "pass_fail":
        return awards.points
    return max((t.points for t in awards.tiers), default=0.0)
