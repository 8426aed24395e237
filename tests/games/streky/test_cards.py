"""Card geometry and the card sets: course, tournament and the seeded random generator."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from harness.games.streky.cards import (
    BASE_35,
    BASE_44,
    COURSE,
    canonical,
    fits_somehow,
    matrix_problem,
    mirror,
    random_deal,
    rotate,
    rotations,
    tournament_set,
)

L = ((1, 2, 3), (4, 0, 0))


def test_four_rotations_return_to_the_start() -> None:
    m = L
    for _ in range(4):
        m = rotate(m)
    assert m == L
    assert rotations(L) == (L, ((3, 0), (2, 0), (1, 4)), ((0, 0, 4), (3, 2, 1)), ((4, 1), (0, 2), (0, 3)))


@pytest.mark.parametrize(("card", "count"), [(((1,),), 1), (((1, 1),), 2), (((1, 2), (2, 1)), 2),
                                             (((1, 2), (3, 4)), 4), (((1, 1), (1, 1)), 1), (L, 4)])
def test_distinct_rotations(card: tuple[tuple[int, ...], ...], count: int) -> None:
    assert len(rotations(card)) == count
    assert all(canonical(r) == canonical(card) for r in rotations(card))


def test_mirror_image_is_a_different_card_unless_symmetric() -> None:
    assert canonical(mirror(L)) != canonical(L)
    assert canonical(mirror(((1, 2),))) == canonical(((1, 2),))  # a 1xN card: mirror = rot180


def test_course_set() -> None:
    assert len(COURSE) == 7
    assert Counter((len(m), len(m[0])) for m in COURSE) == {(4, 4): 2, (3, 3): 3, (5, 3): 2}
    assert all(matrix_problem(m) is None for m in COURSE)
    assert all(0 in sum(m, ()) or m == ((1, 2, 1), (2, 2, 2), (1, 2, 1)) for m in COURSE)
    assert {v for m in COURSE for row in m for v in row} == {0, 1, 2}  # two colours and blanks


def test_tournament_set_is_24_colour_permutations_of_two_base_cards() -> None:
    cards = tournament_set()
    assert len(cards) == 24
    assert Counter((len(m), len(m[0])) for m in cards) == {(4, 4): 12, (3, 5): 12}
    assert all(0 not in sum(m, ()) for m in cards)  # fully coloured
    assert len({canonical(m) for m in cards}) == 24  # no two are the same card
    for m in cards:
        base = BASE_44 if len(m) == 4 else BASE_35
        mapping = {b: v for rb, rm in zip(base, m) for b, v in zip(rb, rm)}
        assert sorted(mapping) == [1, 2, 3, 4] and sorted(mapping.values()) == [1, 2, 3, 4]


def test_random_deal_is_a_function_of_the_generator() -> None:
    assert random_deal(random.Random(3)) == random_deal(random.Random(3))
    assert random_deal(random.Random(3)) != random_deal(random.Random(4))


def test_random_deals_are_varied_and_playable() -> None:
    sizes, counts, repeats, blanks, shapes = set(), set(), 0, 0, Counter()
    for seed in range(300):
        rows, cols, cards = random_deal(random.Random(seed))
        assert 6 <= rows <= 33 and 6 <= cols <= 33 and 3 <= len(cards) <= 24
        assert all(matrix_problem(m) is None and fits_somehow(m, rows, cols) for m in cards)
        sizes.add((rows, cols))
        counts.add(len(cards))
        repeats += len({canonical(m) for m in cards}) < len(cards)
        blanks += any(0 in sum(m, ()) for m in cards)
        shapes.update((len(m), len(m[0])) for m in cards)
    assert len(sizes) > 150 and len(counts) > 15
    assert repeats > 100 and blanks > 100
    assert {(3, 3), (4, 4), (3, 5), (5, 3), (1, 1)} <= set(shapes)


def test_random_deal_keeps_given_board_sides() -> None:
    rows, cols, cards = random_deal(random.Random(1), rows=4, cols=30)
    assert (rows, cols) == (4, 30)
    assert all(fits_somehow(m, 4, 30) for m in cards)


@pytest.mark.parametrize(("value", "problem"), [
    ([], "must have at least one row"),
    ([[]], "row 0 is empty"),
    ([[1], [1, 2]], "row 1 has 2 cells but row 0 has 1"),
    ([[1.0]], r"cell [0][0] must be an int 0..4, got 1.0 (float)"),
    ([[-1]], "cell [0][0] is -1, but colours are 0..4"),
    ("x", "must be a list of rows"),
    ([[1, 2], [3, 4]], None),
])
def test_matrix_problems(value: object, problem: str | None) -> None:
    found = matrix_problem(value)
    if problem is None:
        assert found is None
    else:
        assert found is not None and problem in found
