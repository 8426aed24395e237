"""The Plackett-Luce fit (Bradley-Terry for two seats) behind every rating, in numpy.

A *race* is a tuple of item indices, best first: the first beat all the others. A game of
``p`` seats is ``p - 1`` races (the winner over everyone, the second over the rest, ...).
Item ``n`` (one past the last) is a fixed anchor at strength 1 (log-strength 0); the caller
adds one virtual draw of each item against it, so an unbeaten or winless item stays finite.

The maximum-likelihood log-strengths are found by Newton's method on the (concave) log-
likelihood: a handful of steps where the MM algorithm needed hundreds of passes, which keeps
a 50,000-game store and an adaptive schedule's refits cheap. The variance of each estimate is
the diagonal of the inverse Fisher information (the marginal variance, which also counts how
uncertain the opponents are), not the reciprocal of its diagonal.

With a ``prior`` the fit is the maximum a posteriori one under a Gaussian prior on every item's
log-strength, centred on the anchor's (ridge regularisation, as choix's ``alpha``). An adaptive
schedule's standings use it (:func:`shrunk`): there bots play very different numbers of games,
and a bot settled after a dozen games has a far noisier estimate than one near a boundary
after two hundred; the prior pulls each estimate toward the field by as much as its own
evidence is weak, which is the better guess of where it truly stands.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

Race = tuple[int, ...]

# Past this many items the inverse of the information matrix costs too much memory and time;
# the reciprocal of its diagonal (a lower bound on the variance) stands in.
DENSE_LIMIT = 4000


def _groups(races: Sequence[Race], weights: Sequence[float]) -> list[tuple[np.ndarray, np.ndarray]]:
    """Races grouped by length, as (items: S x L, weights: S) arrays."""
    by_len: dict[int, tuple[list[Race], list[float]]] = {}
    for race, weight in zip(races, weights):
        items, ws = by_len.setdefault(len(race), ([], []))
        items.append(race)
        ws.append(weight)
    return [(np.asarray(items, dtype=np.int64), np.asarray(ws, dtype=float)) for items, ws in by_len.values()]


def _derivatives(theta: np.ndarray, groups: list[tuple[np.ndarray, np.ndarray]]) -> tuple[np.ndarray, np.ndarray]:
    """The log-likelihood's gradient and the Fisher information (minus its Hessian) at ``theta``."""
    size = len(theta)
    grad = np.zeros(size)
    info = np.zeros(size * size)
    for items, weights in groups:
        logits = theta[items]
        logits -= logits.max(axis=1, keepdims=True)  # overflow-safe softmax
        p = np.exp(logits)
        p /= p.sum(axis=1, keepdims=True)
        grad += np.bincount(items[:, 0], weights, minlength=size)
        grad -= np.bincount(items.ravel(), (p * weights[:, None]).ravel(), minlength=size)
        length = items.shape[1]
        for a in range(length):
            for b in range(length):
                value = weights * p[:, a] * ((1.0 if a == b else 0.0) - p[:, b])
                info += np.bincount(items[:, a] * size + items[:, b], value, minlength=size * size)
    return grad, info.reshape(size, size)


def fit(races: Sequence[Race], weights: Sequence[float], items: int,
        start: np.ndarray | None = None, tolerance: float = 1e-9, steps: int = 100, variances: bool = True,
        prior: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """Log-strengths and their variances of items ``0 .. items - 1`` (the anchor is ``items``).

    ``start`` (log-strengths of the items) warms the search up, e.g. from the previous wave's fit.
    ``prior``: the precision (1 / variance) of a Gaussian prior on each log-strength around 0
    (0: none, the maximum-likelihood fit); the variances are then the posterior's.
    Without ``variances`` (an adaptive schedule's waves need none) the variances are left
    infinite: the inverse of the information matrix is most of the fit's cost for many items.
    """
    theta = np.zeros(items + 1)
    if start is not None:
        known = min(items, len(start))
        theta[:known] = start[:known]
    groups = _groups(races, weights)
    if not groups:
        return theta[:items], np.full(items, np.inf)
    info = np.zeros((items + 1, items + 1))
    for _ in range(steps):
        grad, info = _derivatives(theta, groups)
        if prior:
            grad[:items] -= prior * theta[:items]
            info[:items, :items] += prior * np.eye(items)
        try:
            step = np.linalg.solve(info[:items, :items], grad[:items])
        except np.linalg.LinAlgError:  # an item with no race at all: leave it where it is
            step = np.linalg.lstsq(info[:items, :items], grad[:items], rcond=None)[0]
        largest = float(np.max(np.abs(step))) if items else 0.0
        if largest > 2.0:  # damped: far from the optimum a full Newton step can overshoot
            step *= 2.0 / largest
        theta[:items] += step
        if largest < tolerance:
            break
    if not variances:
        return theta[:items], np.full(items, np.inf)
    _grad, info = _derivatives(theta, groups)
    reduced = info[:items, :items] + prior * np.eye(items)
    if items <= DENSE_LIMIT:
        try:
            variance = np.diag(np.linalg.inv(reduced)).copy()
        except np.linalg.LinAlgError:
            variance = np.full(items, np.inf)
    else:
        diagonal = np.diag(reduced)
        variance = np.where(diagonal > 0, 1.0 / np.where(diagonal > 0, diagonal, 1.0), np.inf)
    variance[variance <= 0] = np.inf
    return theta[:items], variance


def shrunk(races: Sequence[Race], weights: Sequence[float], items: int, theta: np.ndarray,
           variance: np.ndarray, rounds: int = 3) -> tuple[np.ndarray, np.ndarray, float]:
    """The fit under the Gaussian prior the field's own spread calls for (empirical Bayes), from the
    maximum-likelihood ``theta`` and ``variance``: returns the posterior's log-strengths and
    variances and the prior's precision (0, and the input unchanged, without a usable spread).

    The prior's variance starts at the spread of the estimates (wider than the true strengths',
    so a weak prior) and is re-estimated ``rounds`` times as the mean posterior second moment
    (EM on the Laplace approximation). Unlike the spread of the estimates less their mean noise,
    this is not thrown off by a few bots with hardly any games, whose noise is huge.
    """
    known = np.isfinite(variance)
    if int(known.sum()) < 3:
        return theta, variance, 0.0
    spread = float(np.var(theta[known]))
    precision = 0.0
    for _ in range(rounds):
        if not spread > 0:
            break
        precision = 1.0 / spread
        theta, variance = fit(races, weights, items, start=theta, prior=precision)
        finite = np.isfinite(variance)
        spread = float(np.mean(theta[finite] ** 2 + variance[finite]))
    return theta, variance, precision


def score_test(races: Sequence[Race], weights: Sequence[float], theta: np.ndarray, value: float
               ) -> tuple[np.ndarray, np.ndarray]:
    """For every item: the score test of "this item's log-strength is ``value``", the others held
    at ``theta`` (the anchor, one past the last, at 0), as ``(U, I)``.

    ``U`` is the log-likelihood's slope in the item's own strength at ``value``: the item's wins
    less the wins an item of strength ``value`` would expect against the same opponents (positive:
    stronger than ``value``); ``I`` is its information there. Unlike an interval around the
    estimate (Wald), the test stays valid for an item that won or lost every game, whose estimate
    runs off and whose information at the estimate vanishes.
    """
    items = len(theta)
    full = np.append(theta, 0.0)
    size = items + 1
    slope = np.zeros(size)
    info = np.zeros(size)
    for members, ws in _groups(races, weights):
        logits = full[members]
        for a in range(members.shape[1]):
            moved = logits.copy()
            moved[:, a] = value
            moved -= moved.max(axis=1, keepdims=True)
            p = np.exp(moved)
            p = p[:, a] / p.sum(axis=1)
            slope += np.bincount(members[:, a], ws * ((1.0 if a == 0 else 0.0) - p), minlength=size)
            info += np.bincount(members[:, a], ws * p * (1 - p), minlength=size)
    return slope[:items], info[:items]


def score_z(races: Sequence[Race], weights: Sequence[float], theta: np.ndarray, value: float) -> np.ndarray:
    """For every item: the score test's statistic ``U / sqrt(I)`` (see :func:`score_test`) of
    "this item's log-strength is ``value``"; 0 for an item without information."""
    slope, info = score_test(races, weights, theta, value)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(info > 0, slope / np.sqrt(np.where(info > 0, info, 1.0)), 0.0)


__all__ = ["DENSE_LIMIT", "Race", "fit", "score_test", "score_z", "shrunk"]
