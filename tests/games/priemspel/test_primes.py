"""PriemSpel's sieve (:mod:`harness.games.priemspel.primes`) against plain trial division.

Trial division is the seed's own ``priem``; the sieve must agree with it everywhere the
referee looks: small numbers, block edges, and around the switch to Miller-Rabin.
"""

from __future__ import annotations

import random
from functools import lru_cache

import pytest

from harness.games.priemspel import primes
from harness.games.priemspel.rules import RULES, State, end_square


@lru_cache(maxsize=None)
def priem(n: int) -> bool:
    """The seed's test, by trial division."""
    if n < 2:
        return False
    return all(n % i for i in range(2, int(n**0.5) + 1))


def naive_end(start: int, n: int) -> int:
    square = start
    while True:
        nxt = next((square + k for k in range(1, n + 1) if priem(square + k)), None)
        if nxt is None:
            return square
        square = nxt


def test_is_prime_agrees_with_trial_division_below_a_hundred_thousand() -> None:
    assert [n for n in range(-3, 100_000) if primes.is_prime(n)] == [n for n in range(-3, 100_000) if priem(n)]


@pytest.mark.parametrize("around", [primes.BLOCK, 2 * primes.BLOCK, 10**9, primes.SIEVE_LIMIT])
def test_is_prime_and_steps_at_block_edges_and_at_the_switch_to_miller_rabin(around: int) -> None:
    window = range(around - 40, around + 40)  # trial division near 2**42 is slow: a narrow window
    assert [n for n in window if primes.is_prime(n)] == [n for n in window if priem(n)]
    for position in (around - 30, around - 1, around):
        assert primes.steps(position, 30) == tuple(k for k in range(1, 31) if priem(position + k))


def test_random_numbers_up_to_ten_to_the_ten() -> None:
    rng = random.Random(7)
    for n in [rng.randrange(10**10) for _ in range(100)]:
        assert primes.is_prime(n) == priem(n), n


@pytest.mark.parametrize(("start", "n"), [(0, 2), (0, 5), (0, 20), (7, 10), (1000, 30), (89, 8), (40_000, 60)])
def test_end_square_agrees_with_the_step_by_step_walk(start: int, n: int) -> None:
    assert end_square(start, n) == naive_end(start, n)


def test_the_long_game_ends_before_the_first_prime_gap_over_a_hundred() -> None:
    # 370261 is followed by 370373: the first gap between consecutive primes larger than 100.
    assert end_square(0, 100) == 370261
    assert primes.primes_between(370261, 370373) == [370373]


def test_a_state_computes_its_steps_once_and_every_question_uses_them() -> None:
    state = State(100, 100, 370261)
    first = state.steps()
    assert first == tuple(k for k in range(1, 101) if priem(100 + k))
    assert state.steps() is first and state.legal is first and RULES.legal_moves(state) is first
    assert RULES.check(state, 1) is None and RULES.check(state, 2) == "square 102 (= 100 + 2) is not prime"
    assert not RULES.is_over(state) and State(370261, 100, 370261).legal == ()
    assert State(100, 100, 370261) == state  # the cache is no part of the state's identity
