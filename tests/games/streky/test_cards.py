"""Card geometry and the card sets: course, tournament and the seeded random generator."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from harness.games.streky.cards import (
    BASE_35,
    BASE_44,
    COURSE,
    recolour,
    canonical,
    fits_somehow,
    matrix_problem,
    mirror,
    random_deal,
    rotate,
    rotations,
    tournament_deal,
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


# Recolourings derived by hand from the two base cards (colour c renamed perm[c - 1]).
BY_HAND = [
    ((2, 1, 3, 4), ((2, 1, 2, 3), (1, 1, 2, 2), (2, 2, 1, 1), (3, 2, 1, 2))),
    ((1, 2, 4, 3), ((1, 2, 1, 4), (2, 2, 1, 1), (1, 1, 2, 2), (4, 1, 2, 1))),
    ((4, 3, 2, 1), ((4, 3, 4, 2), (3, 3, 4, 4), (4, 4, 3, 3), (2, 4, 3, 4))),
    ((1, 2, 3, 4), ((1, 2, 1, 3, 4), (2, 2, 1, 3, 3), (3, 2, 1, 3, 2))),
    ((4, 3, 2, 1), ((4, 3, 4, 2, 1), (3, 3, 4, 2, 2), (2, 3, 4, 2, 3))),
    ((2, 3, 4, 1), ((2, 3, 2, 4, 1), (3, 3, 2, 4, 4), (4, 3, 2, 4, 3))),
]


def test_tournament_set_is_the_48_recolourings_of_the_course_s_two_base_cards() -> None:
    assert BASE_44 == ((1, 2, 1, 3), (2, 2, 1, 1), (1, 1, 2, 2), (3, 1, 2, 1))
    assert BASE_35 == ((1, 2, 1, 3, 4), (2, 2, 1, 3, 3), (3, 2, 1, 3, 2))
    cards = tournament_set()
    assert len(cards) == 48 and len(set(cards)) == 48
    assert Counter((len(m), len(m[0])) for m in cards) == {(4, 4): 24, (3, 5): 24}
    assert all(0 not in sum(m, ()) for m in cards)  # fully coloured
    assert len({canonical(m) for m in cards}) == 48  # no two are the same card, even rotated
    for perm, card in BY_HAND:
        assert recolour(BASE_44 if len(card) == 4 else BASE_35, perm) == card
        assert card in cards
    # The 4x4 card has three colours: a renaming is fixed by the images of 1, 2 and 3 (4*3*2 = 24).
    assert {tuple(sorted(set(sum(m, ())))) for m in cards if len(m) == 4} == {
        (1, 2, 3), (1, 2, 4), (1, 3, 4), (2, 3, 4)}


def test_the_tournament_deal_is_24_of_the_48_shuffled_by_the_game_s_seed() -> None:
    deals = [tournament_deal(random.Random(seed)) for seed in range(30)]
    for deal in deals:
        assert len(deal) == 24 and len(set(deal)) == 24 and set(deal) <= set(tournament_set())
    assert tournament_deal(random.Random(7)) == tournament_deal(random.Random(7))
    assert len(set(deals)) == 30  # the deal differs from seed to seed
    assert len({frozenset(d) for d in deals}) == 30  # ... and not only in its order


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
