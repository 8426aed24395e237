"""The rating fit's prior (the adaptive standings' empirical-Bayes shrinkage), on random results."""

from __future__ import annotations

import math
import random

import numpy as np

from harness.tournament.rating import fit, shrunk
from harness.tournament.standings import with_anchor


def double_round_robin(strength: list[float], seed: int) -> list[tuple[int, ...]]:
    """Every pair twice, won by Bradley-Terry on ``strength`` (log-strengths): races, winner first."""
    rng = random.Random(seed)
    races: list[tuple[int, ...]] = []
    for a in range(len(strength)):
        for b in range(len(strength)):
            if a != b:
                won = rng.random() < 1 / (1 + math.exp(strength[b] - strength[a]))
                races.append((a, b) if won else (b, a))
    return races


def maximum_likelihood(races: list[tuple[int, ...]], items: int) -> tuple[np.ndarray, np.ndarray]:
    anchored, weights = with_anchor(items, races, [1.0] * len(races))
    return fit(anchored, weights, items)


def test_a_prior_keeps_a_complete_round_robins_order() -> None:
    # Everyone played everyone equally often: the wins decide, with or without a prior.
    n = 14
    races = double_round_robin([0.3 * (i - n / 2) for i in range(n)], seed=5)
    theta, variance = maximum_likelihood(races, n)
    posterior, posterior_variance, precision = shrunk(races, [1.0] * len(races), n, theta, variance)
    assert precision > 0
    wins = np.bincount([race[0] for race in races], minlength=n)
    assert len(set(wins.tolist())) > n / 2, "a spread of results, not a field of ties"
    for a in range(n):
        for b in range(n):
            if wins[a] > wins[b]:
                assert theta[a] > theta[b] and posterior[a] > posterior[b], (a, b)
            elif wins[a] == wins[b]:
                assert posterior[a] == np.float64(posterior[b]) or abs(posterior[a] - posterior[b]) < 1e-6
    clear = np.abs(theta) > 0.2  # (the middle of the field may drift a little with the whole)
    assert np.all(np.abs(posterior[clear]) < np.abs(theta[clear])), "toward the field, never away from it"
    assert np.all(posterior_variance < variance), "the prior is evidence too"


def test_the_prior_estimated_from_the_field_tracks_its_spread() -> None:
    # 40 bots of known spread, each with a double round robin's evidence: the prior's standard
    # deviation comes out near the true one, whichever spread the field has.
    rng = random.Random(11)
    for true_sd in (0.5, 1.5):
        strength = [rng.gauss(0, true_sd) for _ in range(40)]
        races = double_round_robin(strength, seed=int(true_sd * 10))
        theta, variance = maximum_likelihood(races, 40)
        _, _, precision = shrunk(races, [1.0] * len(races), 40, theta, variance)
        estimated = 1 / math.sqrt(precision)
        sample_sd = float(np.std(strength))
        assert 0.7 * sample_sd < estimated < 1.3 * sample_sd, (true_sd, sample_sd, estimated)


def test_too_few_items_for_a_spread_leave_the_fit_alone() -> None:
    races = [(0, 1), (0, 1), (1, 0)]
    theta, variance = maximum_likelihood(races, 2)
    same, same_variance, precision = shrunk(races, [1.0] * 3, 2, theta, variance)
    assert precision == 0 and np.array_equal(same, theta) and np.array_equal(same_variance, variance)
