"""Primes for PriemSpel's referee: a segmented sieve, its blocks cached, instead of trial division.

The referee asks two things: is ``n`` prime, and which squares in ``(p, p + N]`` are prime. A
game walks upward from its start, so the primes are sieved in blocks of :data:`BLOCK` numbers,
each block once (a small LRU cache of blocks; a block is a pure function of its index), with
base primes up to the block's square root. Past :data:`SIEVE_LIMIT` (where the base primes would
no longer be cheap) a deterministic Miller-Rabin test answers instead.

Pure: the caches only remember answers to a fixed question, so the referee stays a function of
its inputs.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from functools import lru_cache
from math import isqrt

BLOCK = 1 << 15
SIEVE_LIMIT = 1 << 42  # base primes up to 2**21: sieved in a few tens of milliseconds, once
_MR_BASES = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41)  # deterministic below 3.3e24

_base: list[int] = [2, 3, 5, 7]
_base_limit = 10


def _base_primes(limit: int) -> list[int]:
    """Every prime up to ``limit`` (at least), as a sorted list grown on demand."""
    global _base, _base_limit
    if limit > _base_limit:
        size = max(limit, 2 * _base_limit) + 1
        flags = bytearray([1]) * size
        flags[0:2] = b"\x00\x00"
        for i in range(2, isqrt(size - 1) + 1):
            if flags[i]:
                flags[i * i::i] = bytes(len(range(i * i, size, i)))
        _base = [i for i in range(size) if flags[i]]  # replaced whole: a reader never sees half
        _base_limit = size - 1
    return _base


@lru_cache(maxsize=256)
def block(index: int) -> tuple[int, ...]:
    """The primes in ``[index * BLOCK, (index + 1) * BLOCK)``, ascending."""
    lo, hi = index * BLOCK, (index + 1) * BLOCK
    flags = bytearray([1]) * BLOCK
    for p in _base_primes(isqrt(hi - 1)):
        if p * p >= hi:
            break
        first = max(p * p, (lo + p - 1) // p * p)
        flags[first - lo::p] = bytes(len(range(first - lo, BLOCK, p)))
    for n in range(lo, min(2, hi)):  # 0 and 1 are not prime
        flags[n - lo] = 0
    return tuple(lo + i for i in range(BLOCK) if flags[i])


def _miller_rabin(n: int) -> bool:
    if n < 2:
        return False
    for p in _MR_BASES:
        if n % p == 0:
            return n == p
    d, s = n - 1, 0
    while d % 2 == 0:
        d, s = d // 2, s + 1
    for a in _MR_BASES:
        x = pow(a, d, n)
        if x in (1, n - 1):
            continue
        for _ in range(s - 1):
            x = x * x % n
            if x == n - 1:
                break
        else:
            return False
    return True


def is_prime(n: int) -> bool:
    """True if ``n`` is prime."""
    if n < 2:
        return False
    if n >= SIEVE_LIMIT:
        return _miller_rabin(n)
    primes = block(n // BLOCK)
    i = bisect_left(primes, n)
    return i < len(primes) and primes[i] == n


def primes_between(lo: int, hi: int) -> list[int]:
    """The primes ``p`` with ``lo < p <= hi``, ascending."""
    if hi < 2 or hi <= lo:
        return []
    lo = max(lo, 1)
    if hi >= SIEVE_LIMIT:
        return [p for p in range(lo + 1, hi + 1) if is_prime(p)]
    found: list[int] = []
    for index in range((lo + 1) // BLOCK, hi // BLOCK + 1):
        primes = block(index)
        found.extend(primes[bisect_right(primes, lo):bisect_right(primes, hi)])
    return found


def steps(position: int, n: int) -> tuple[int, ...]:
    """The steps ``1..n`` from ``position`` that land on a prime, smallest first."""
    return tuple(p - position for p in primes_between(position, position + n))
