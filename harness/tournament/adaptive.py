"""The adaptive schedule: play in waves until every student's award tier is settled.

A job ``format: adaptive`` plays a subset of its round robin's games. The games of a pair of
bots come in *meetings*: the ``k``-th meeting of a pair is the round robin's games of that pair
on settings set ``k mod S`` with seed ``seed + (k div S)`` (``S`` settings sets), in both seat
orders. So every game has the key the round robin would give it (a stored game is reused by
either format), and a pair never meets more often than in the round robin (``games x S``).

Waves (Heckel et al. 2019, "Active ranking from pairwise comparisons"):

* wave 0 seats every bot against a few seeded random opponents (``OPENING`` meetings each);
* after each wave the ratings are fitted (:func:`~harness.tournament.rating.fit`); the
  award tiers' boundaries are the ratings midway between the last student a tier reaches and
  the next one; a student is *unsettled* while the score test cannot tell it from a boundary at
  the job's confidence, taken for every student at once (Bonferroni over the students): a
  Wald interval is fooled by a bot that won or lost every game, and a per-student 95 %,
  tested after every wave, left bots of a dozen unlucky games two tiers off in simulation;
* the next wave gives a meeting to the half (``SHARE``) of the unsettled students whose
  results lead least from their nearest boundary: the least ``|U|``, the score statistic (the
  student's wins less those a bot at the boundary would expect against the same opponents; see
  :meth:`Planner.next_pairs`), each against an opponent of near rating (where a game tells
  most) it has meetings left with, chosen by a generator seeded with the job's seed and the
  wave's number.

Why ``|U|``: playing the least-led student first is a sequential test on each student that keeps
it playing while ``|U|`` is under a common level, the level rising wave by wave until the budget
is spent. For tiers by rank under a budget this is the shape of the Bayes-optimal rule (a dynamic
programme over one student's wins against boundary-strength opponents, ``bench/bench_adaptive_bound.py``,
continues while ``|wins - n / 2|`` is under a nearly constant level): a clear student stops after
a few games, and a student on a boundary, a coin flip for any schedule, stops at the level
after about ``4 level**2`` games instead of taking the whole budget. In simulation
(``bench/bench_adaptive.py``, 300 bots, 12 seeds) it settles tiers as well as the earlier
ordering by a drop in error per game, not measurably better; smaller waves (a quarter) did not
measurably help either, and would double the waves a reader replays.

Also measured there (seeds 1-12, a 15 % budget), none beyond the half point of noise: opponents
drawn from everyone within 100 Elo instead of the ``NEAR`` nearest, or from those nearest the
student's boundary; the least ``|z|`` first instead of ``|U|``; a Gaussian prior in the waves'
fits; a Bonferroni level of 2.5 or 3 instead of the job's; ``OPENING`` 1 or 4, ``NEAR`` 2 or 8,
``SHARE`` a quarter (``SHARE`` 1 lost two points). The schedule already gives its games where the
idealised optimal test would (``bench_adaptive_bound.py --seeds``, by distance from the
boundary); what it lacks is that test's known boundaries and opponents, and on these bots that
test itself reaches the round robin's accuracy less one point only with about 16 % of its games.

Two waves are planned ahead (``AHEAD``): once wave ``k`` is complete the planner fits and
chooses wave ``k + 2`` (waves 1 and 2 both from the opening's results), so a run always has
the next wave queued while one plays and no worker waits for a wave's last game or for the fit
(the planner counts the meetings of the waves already planned). In simulation
(``bench_adaptive.py --ahead 1`` for the rule before) it cost no accuracy at a 15 % budget (300
bots, seeds 1-6: 89.6 % against 89.3 %); without a budget, on the ``streky-tournament``'s ranks
(302 bots, seed 1) it played 4 % more games (17,396 against 16,702) at the same 99.3 %.

The schedule stops when no student is unsettled, when the game budget is spent (the last wave
is cut to fit), or when the unsettled students have no meeting left, once the waves already
planned are played. Wave ``k + 2`` depends only on the results of waves ``0 .. k`` and the
seed, so replaying the waves from the store gives the same schedule: that is how a run
resumes, how a daily run reuses games whose submissions did not change, and how the readers
(leaderboard, status, report) see the job; each wave's outcome is recorded in the store
(:mod:`harness.tournament.plancache`) so that a reader need not refit it.

The planner is pure: the results come in through a callable, the games go out as tasks.
"""

from __future__ import annotations

import bisect
import math
import random
from collections import deque
from collections.abc import Callable, Iterator, Mapping
from dataclasses import asdict, dataclass, field
from statistics import NormalDist

from harness.tournament.job import Job
from harness.record import GameRecord
from harness.tournament.plancache import Plan, Plans, planning_digest, wave_digest
from harness.tournament.schedule import Roll, Task, game_key
from harness.tournament.rating import fit, score_test
from harness.tournament.standings import ELO, Row, add_races, printed, tier_reach, with_anchor

OPENING = 2  # rounds of wave 0: each pairs every bot with its two neighbours on a seeded circle
NEAR = 4  # an unsettled student's next opponent is drawn from this many of the nearest in rating
SHARE = 0.5  # each wave gives a meeting to this share of the unsettled students (those least led)
AHEAD = 2  # waves planned ahead of the results: wave k + 2 is chosen once wave k is complete

Lookup = Callable[[list[str]], Mapping[str, GameRecord]]  # keys -> the stored games among them


@dataclass
class Progress:
    """Where an adaptive schedule stands after the waves the store completes."""

    waves: int = 0  # complete waves
    games: int = 0  # games in the complete waves
    pending: list[Task] = field(default_factory=list)  # the planned waves' games not yet stored
    waiting: set[str] = field(default_factory=set)  # of which the walk needs these (the oldest wave's) to go on
    stopped: str = ""  # "settled", "budget", "exhausted" once the schedule is over, else ""
    unsettled: set[str] = field(default_factory=set)  # students still within noise of a tier boundary
    keys: list[str] = field(default_factory=list)  # every game of the complete waves

    @property
    def finished(self) -> bool:
        return bool(self.stopped)


def round_robin_games(job: Job, roll: Roll) -> int:
    """How many games the job's full round robin would play."""
    n = len(roll.entrants)
    return n * (n - 1) * len(job.settings) * job.games


def budget_of(job: Job, roll: Roll) -> int:
    """The job's game budget (the full round robin's games when it sets none)."""
    full = round_robin_games(job, roll)
    if job.budget is None:
        return full
    if isinstance(job.budget, float):
        return max(2, math.floor(job.budget * full))
    return min(job.budget, full)


def boundaries(job: Job, ranked_students: int) -> list[int]:
    """The ranks after which a tier boundary falls (rank ``k`` and ``k + 1`` earn differently)."""
    awards = job.awards
    if awards.policy != "tiers":
        return []
    reach = {t.rank if t.rank is not None else tier_reach(t.top or 0, ranked_students) for t in awards.tiers}
    points = [max((t.points for t in awards.tiers
                   if (t.rank is not None and rank <= t.rank)
                   or (t.top is not None and rank <= tier_reach(t.top, ranked_students))), default=0.0)
              for rank in range(1, ranked_students + 2)]
    return sorted(k for k in reach if 0 < k < ranked_students and points[k - 1] != points[k])


def cuts_of(job: Job, rows: Mapping[str, Row]) -> list[float]:
    """The ratings of the award tiers' boundaries: midway between the last student a tier reaches
    and the next one (students that are not disqualified, by rating)."""
    students = [r for r in rows.values() if not r.reference and not r.disqualified and r.rating is not None]
    rated = sorted(students, key=lambda r: (-printed(r.rating), r.login))  # ties as the leaderboard breaks them
    return [((rated[k - 1].rating or 0.0) + (rated[k].rating or 0.0)) / 2
            for k in boundaries(job, len(rated)) if k < len(rated)]


Test = Callable[[float], Mapping[str, tuple[float, float]]]  # a boundary's rating -> login -> (U, I)


def separation(job: Job, rows: Mapping[str, Row], cuts: list[float], test_at: Test
               ) -> dict[str, tuple[float, float]]:
    """Each ranked student's evidence against the tier boundaries, as ``(|z|, |U|)``: the least
    ``|z| = |U| / sqrt(I)`` and the least ``|U|`` of the score tests "its rating is the
    boundary's" (``test_at(cut)``: login -> (U, I), see :func:`~harness.tournament.rating.score_test`).
    A student without a rating is at (0, 0); with no boundary at all, everyone is at infinity."""
    students = [r.login for r in rows.values() if not r.reference and not r.disqualified]
    out = {login: (math.inf, math.inf) for login in students}
    for cut in cuts:
        tests = test_at(cut)
        for login in students:
            slope, info = tests.get(login, (0.0, 0.0))
            z = abs(slope) / math.sqrt(info) if info > 0 else 0.0
            out[login] = (min(out[login][0], z), min(out[login][1], abs(slope)))
    for login in students:
        if rows[login].rating is None:
            out[login] = (0.0, 0.0)
    return out


def z_of(confidence: float) -> float:
    """The two-sided normal quantile of ``confidence`` (1.96 for 95 %)."""
    return NormalDist().inv_cdf(0.5 + confidence / 2)


class Planner:
    """The waves of one adaptive job: pure, given the roll and the results fed to it."""

    def __init__(self, job: Job, roll: Roll) -> None:
        self.job, self.roll = job, roll
        self.entrants = roll.entrants
        self.limits = asdict(job.limits)
        self.meetings_max = job.games * len(job.settings)
        self.budget = budget_of(job, roll)
        self.version = job.spec.setup_version  # part of the round robin's keys
        self.ahead = AHEAD

    def meeting(self, i: int, j: int, k: int) -> list[Task]:
        """The games of the ``k``-th meeting of entrants ``i < j`` (both seat orders)."""
        job = self.job
        rnd, rep = k % len(job.settings), k // len(job.settings)
        settings, seed = job.settings[rnd], job.seed + rnd * 100_000 + rep
        table = (self.entrants[i], self.entrants[j])
        tasks = []
        for seated in (table, table[::-1]):
            key = game_key(job.game, settings, seed, [(e.login, e.sha256) for e in seated], job.tournament,
                           self.limits, self.version)
            tasks.append(Task(key, job.name, job.game, settings, seed, seated, job.tournament, self.limits, rnd,
                              job.interpreter))
        return tasks

    def opening(self) -> list[tuple[int, int]]:
        """Wave 0: each round pairs neighbours on a seeded random circle of every entrant."""
        n = len(self.entrants)
        rng = random.Random(f"{self.job.name}/{self.job.seed}/adaptive/0")
        pairs: list[tuple[int, int]] = []
        seen: set[tuple[int, int]] = set()
        for _ in range(OPENING):
            circle = list(range(n))
            rng.shuffle(circle)
            for a in range(n if n > 2 else 1):
                pair = tuple(sorted((circle[a], circle[(a + 1) % n])))
                if pair[0] != pair[1] and pair not in seen:
                    seen.add(pair)  # type: ignore[arg-type]
                    pairs.append(pair)  # type: ignore[arg-type]
        return pairs

    def next_pairs(self, wave: int, rows: Mapping[str, Row], open_: set[str], met: Mapping[tuple[int, int], int],
                   lead: Mapping[str, float]) -> list[tuple[int, int]]:
        """The pairs of wave ``wave``: a meeting for the share of the unsettled students whose
        results lead least from their nearest boundary (``lead``: ``|U|``, see :func:`separation`),
        each against an opponent of near rating (not disqualified) it has a meeting left with."""
        rng = random.Random(f"{self.job.name}/{self.job.seed}/adaptive/{wave}")
        index = {e.login: i for i, e in enumerate(self.entrants)}

        def rating(i: int) -> float:
            value = rows[self.entrants[i].login].rating
            return 1500.0 if value is None else value

        able = sorted((i for i, e in enumerate(self.entrants)
                       if not rows[e.login].disqualified and rows[e.login].rating is not None),
                      key=lambda i: (rating(i), i))
        ladder = [rating(i) for i in able]
        focus = sorted(open_, key=lambda login: (lead.get(login, 0.0), login))
        wanted = max(1, math.ceil(len(focus) * SHARE))
        busy: set[int] = set()
        pairs: list[tuple[int, int]] = []
        extra: dict[tuple[int, int], int] = {}  # meetings of this wave so far, by pair

        def left(i: int, j: int) -> bool:
            pair = (min(i, j), max(i, j))
            return met.get(pair, 0) + extra.get(pair, 0) < self.meetings_max

        def nearest(i: int, free: bool) -> list[int]:
            """Up to ``NEAR`` opponents for ``i``, nearest in rating first (walking out from its rung)."""
            found: list[int] = []
            mine = rating(i)
            low = bisect.bisect_left(ladder, mine) - 1
            high = low + 1
            while len(found) < NEAR and (low >= 0 or high < len(able)):
                down = mine - ladder[low] if low >= 0 else math.inf
                up = ladder[high] - mine if high < len(able) else math.inf
                if down <= up:
                    j, low = able[low], low - 1
                else:
                    j, high = able[high], high + 1
                if j != i and not (free and j in busy) and left(i, j):
                    found.append(j)
            return found

        for n, login in enumerate(focus):
            if n >= wanted and pairs:  # the rest only when the first share found no opponent at all
                break
            i = index[login]
            if i in busy:
                continue
            # Every free opponent met: one that already plays in this wave.
            candidates = nearest(i, free=True) or nearest(i, free=False)
            if not candidates:
                continue
            j = rng.choice(candidates)
            busy.update((i, j))
            pair = (min(i, j), max(i, j))
            extra[pair] = extra.get(pair, 0) + 1
            pairs.append(pair)
        return pairs

    def walk(self, lookup: Lookup, plans: Plans | None = None) -> Iterator[Progress]:
        """Walk the waves the store completes, yielding the progress whenever the next wave to
        complete is not yet stored (the games of every wave planned in ``pending``, those the
        walk waits for in ``waiting``) and once more when the schedule stops.

        The caller plays pending games (storing them, so ``lookup`` finds them) before it asks
        for the next progress, at the latest once every game ``waiting`` is stored; a reader just
        takes the first one. With ``plans`` (see :mod:`harness.tournament.plancache`) a wave
        whose plan is recorded under the digest of what it depends on is not refitted, and every
        wave fitted is recorded.
        """
        progress = Progress()
        digest = planning_digest(self.job, self.roll) if plans is not None else ""
        warm = ""  # the digest of the last plan taken from ``plans``: its fit warms up the next one
        met: dict[tuple[int, int], int] = {}
        index: dict[str, int] = {}
        races: list[tuple[int, ...]] = []
        weights: list[float] = []
        disqualified: set[str] = set()
        theta = None
        # Every tier at once at the confidence (Bonferroni over the students), not each on its own:
        # with 300 students a per-bot 95 % would leave some 15 settled in the wrong tier, and the
        # test is repeated after every wave.
        students = max(1, sum(1 for e in self.entrants if not e.reference))
        threshold = z_of(1 - (1 - self.job.confidence) / students)
        planned: deque[list[Task]] = deque()  # the waves planned and not yet complete, oldest first
        numbered = 0  # waves planned so far (a wave's number seeds its choice of opponents)

        def plan(pairs: list[tuple[int, int]]) -> bool:
            """Plan a wave of these pairs, cut to the budget; False if no game of it fits."""
            nonlocal numbered
            tasks: list[Task] = []
            for i, j in pairs:
                tasks += self.meeting(i, j, met.get((i, j), 0))
                met[(i, j)] = met.get((i, j), 0) + 1
            room = self.budget - progress.games - sum(len(w) for w in planned)
            tasks = tasks[:max(0, room - room % 2)]
            if tasks:
                planned.append(tasks)
                numbered += 1
            return bool(tasks)

        plan(self.opening())
        wave = 0
        while True:
            if not planned:
                # Without a budget of its own the job's budget is the whole round robin: all played.
                progress.stopped = progress.stopped or ("budget" if self.job.budget is not None else "exhausted")
                progress.pending, progress.waiting = [], set()
                yield progress
                return
            tasks = planned[0]
            found = lookup([t.key for t in tasks])
            while any(t.key not in found for t in tasks):
                progress.waiting = {t.key for t in tasks if t.key not in found}
                progress.pending = [t for w in planned for t in w if t.key not in found]
                if len(planned) > 1:
                    stored = lookup([t.key for w in list(planned)[1:] for t in w])
                    progress.pending = [t for t in progress.pending if t.key not in stored]
                yield progress
                found = lookup([t.key for t in tasks])
            planned.popleft()
            progress.pending, progress.waiting = [], set()
            for t in sorted(tasks, key=lambda t: t.key):  # the fit's input order: the keys'
                record = found[t.key]
                add_races(record, index, races, weights)
                disqualified.update(p.login for p in record.players if p.verdict.charged)
            progress.waves, progress.games = wave + 1, progress.games + len(tasks)
            progress.keys += [t.key for t in tasks]
            completed, wave = wave, wave + 1
            if plans is not None:
                digest = wave_digest(digest, ((t.key, found[t.key]) for t in sorted(tasks, key=lambda t: t.key)))
                recorded = plans.get(digest)
                if (recorded is not None and recorded.wave == completed and recorded.games == progress.games
                        and all(0 <= i < j < len(self.entrants) for w in recorded.planned for i, j in w)):
                    progress.unsettled, progress.stopped = set(recorded.unsettled), recorded.stopped
                    for pairs in recorded.planned:
                        plan(pairs)
                    warm = digest
                    continue
                if warm:  # the waves before were read, not fitted: start where their fit ended
                    theta, warm = plans.theta(warm), ""
            rows = {e.login: Row(e.login, e.reference, disqualified=e.login in disqualified) for e in self.entrants}
            anchored, anchored_weights = with_anchor(len(index), races, weights)
            # The waves need the ratings only (the readers fit the intervals once, on every game).
            theta, _ = fit(anchored, anchored_weights, len(index), start=theta, variances=False)
            for login, i in index.items():
                if login in rows:
                    rows[login].rating = 1500 + ELO * float(theta[i])
            cuts = cuts_of(self.job, rows)
            logins = list(index)

            def test_at(cut: float) -> dict[str, tuple[float, float]]:
                if theta is None:
                    return {}
                slope, info = score_test(anchored, anchored_weights, theta, (cut - 1500) / ELO)
                return dict(zip(logins, zip(slope.tolist(), info.tolist())))

            apart = separation(self.job, rows, cuts, test_at)
            progress.unsettled = {login for login, (z, _) in apart.items() if z < threshold}
            # Keep ``self.ahead`` waves planned, each chosen from the results so far: while one
            # plays, the next is queued (a wave's last games leave no worker idle).
            chosen: list[list[tuple[int, int]]] = []
            stop = "settled" if not progress.unsettled else ""
            while not stop and len(planned) < self.ahead:
                pairs = self.next_pairs(numbered, rows, progress.unsettled, met,
                                        {login: lead for login, (_, lead) in apart.items()})
                if not pairs:
                    stop = "exhausted"
                elif not plan(pairs):
                    stop = "budget" if self.job.budget is not None else "exhausted"
                else:
                    chosen.append(pairs)
            # The schedule ends once nothing is planned; a wave already planned is played first.
            progress.stopped = stop if not planned else ""
            if plans is not None and theta is not None:
                plans.put(digest, Plan(completed, sorted(progress.unsettled), progress.stopped, chosen,
                                       progress.games), theta)

__all__ = ["NEAR", "OPENING", "Planner", "Progress", "boundaries", "budget_of", "cuts_of", "round_robin_games",
           "separation", "z_of"]
