"""Card geometry and the card sets: course, tournament (the manager's deal by seed), the seeded
random grading generator (the course's envelope) and the stress generator."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest

from harness.games.streky.cards import (
    BASE_35,
    BASE_44,
    COURSE,
    Matrix,
    canonical,
    card_problem,
    fits_somehow,
    matrix_problem,
    mirror,
    random_deal,
    recolour,
    regions,
    rotate,
    rotations,
    stress_deal,
    tournament_deal,
    tournament_set,
)
from harness.games.streky.rules import RULES

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


def manager_deal(seed: int) -> list[list[list[int]]]:
    """The course tournament manager's deal, written out literally from its procedure (RULES.md):
    the global ``random`` module, cards as lists of lists, colours as the characters of '1234'."""
    base1 = [[1, 2, 1, 3], [2, 2, 1, 1], [1, 1, 2, 2], [3, 1, 2, 1]]
    base2 = [[1, 2, 1, 3, 4], [2, 2, 1, 3, 3], [3, 2, 1, 3, 2]]

    def recolour_all(card: list[list[int]]) -> list[list[list[int]]]:
        found: list[list[list[int]]] = []
        for perm in itertools.permutations("1234"):
            new = [[int(perm[value - 1]) for value in row] for row in card]
            if new not in found:
                found.append(new)
        return found

    random.seed(seed)
    cards: list[list[list[int]]] = []
    for card in recolour_all(base1) + recolour_all(base2):
        if card not in cards:
            cards.append(card)
    random.shuffle(cards)
    return random.sample(cards, len(cards) // 2)


@pytest.mark.parametrize("seed", [0, 1, 2, 3, 17, 2024, 987654321])
def test_the_tournament_deal_is_the_manager_s_for_the_same_seed(seed: int) -> None:
    state = random.getstate()
    try:
        expected = manager_deal(seed)
    finally:
        random.setstate(state)
    assert len(expected) == 24
    assert [[list(row) for row in m] for m in tournament_deal(random.Random(seed))] == expected


def test_the_tournament_game_deals_the_manager_s_cards_from_the_game_s_seed() -> None:
    state = random.getstate()
    try:
        expected = manager_deal(5)
    finally:
        random.setstate(state)
    settings = RULES.parse_settings({"cards": "tournament"})
    start = RULES.initial(settings, random.Random(5))  # what play_match and the replay pass
    assert (start.rows, start.cols) == (33, 33)
    assert [[list(row) for row in m] for m in start.deck.cards] == expected


def test_random_deal_is_a_function_of_the_generator() -> None:
    assert random_deal(random.Random(3)) == random_deal(random.Random(3))
    assert random_deal(random.Random(3)) != random_deal(random.Random(4))


def test_the_course_s_cards_are_inside_the_grading_envelope() -> None:
    for m in (*COURSE, BASE_44, BASE_35):
        assert card_problem(m) is None, m
    # C33C's plus is the course's largest one-colour region: 5 of its 9 cells
    assert max(max(regions(m)) / (len(m) * len(m[0])) for m in (*COURSE, BASE_44, BASE_35)) == 5 / 9


@pytest.mark.parametrize(("card", "problem"), [
    (((1, 1, 1), (1, 1, 1), (1, 1, 1)), "a one-colour region of 9 of its 9 cells"),
    (((0, 0, 0), (0, 0, 0), (0, 0, 0)), "0 coloured cells"),
    (((2, 2, 2, 2, 2), (2, 2, 0, 2, 2), (2, 2, 2, 2, 2)), "a one-colour region of 14 of its 15 cells"),
    (((1, 2, 1),), "a 1x3 card"),
    (((1, 1, 1, 1, 1, 1),) * 3, "a 3x6 card"),
])
def test_cards_outside_the_envelope_are_named(card: Matrix, problem: str) -> None:
    found = card_problem(card)
    assert found is not None and problem in found


@pytest.mark.slow
def test_random_deals_stay_in_the_course_s_envelope_over_1000_seeds() -> None:
    sizes, counts, repeats, blanks, full = set(), Counter(), 0, 0, 0
    shapes, palettes, largest = Counter(), Counter(), []
    for seed in range(1000):
        rows, cols, cards = random_deal(random.Random(seed))
        assert 19 <= rows <= 33 and 19 <= cols <= 33
        assert 7 <= len(cards) <= 24
        sizes.add((rows, cols))
        counts[len(cards)] += 1
        different = len({canonical(m) for m in set(cards)})
        repeats += different < len(cards)
        assert different >= 3
        for m in set(cards):
            h, w = len(m), len(m[0])
            cells = [v for row in m for v in row]
            assert 3 <= h <= 5 and 3 <= w <= 5 and matrix_problem(m) is None
            assert set(cells) <= {0, 1, 2, 3, 4}
            assert sum(1 for v in cells if v) >= 3  # never colourless: at least a path of three
            assert max(regions(m)) <= 0.6 * h * w  # never solid: no region over 60 % of the card
            assert len(set(cells) - {0}) >= 2 or 0 in cells  # one colour only with empty cells
            blanks += 0 in cells
            full += 0 not in cells
            shapes[(h, w)] += 1
            palettes[len(set(cells) - {0})] += 1
            largest.append(max(regions(m)) / (h * w))
    assert len(sizes) > 200 and set(counts) == set(range(7, 25))
    assert repeats > 900 and blanks > full > 0  # mostly cards with empty cells, some full ones
    assert set(shapes) == {(h, w) for h in (3, 4, 5) for w in (3, 4, 5)}
    assert set(palettes) == {1, 2, 3, 4}
    # like the course's cards, most regions stay under a third of their card
    assert sum(1 for x in largest if x <= 1 / 3) > len(largest) / 2


def test_a_random_deal_on_a_given_board_deals_only_cards_that_fit() -> None:
    rows, cols, cards = random_deal(random.Random(1), rows=3, cols=30)
    assert (rows, cols) == (3, 30)
    assert all(len(m) == 3 or len(m[0]) == 3 for m in cards)
    rows, cols, cards = random_deal(random.Random(1), rows=4, cols=4)
    assert all(len(m) <= 4 and len(m[0]) <= 4 for m in cards)
    with pytest.raises(ValueError, match="no card of 3 to 5 cells a side fits a 2x30 board"):
        random_deal(random.Random(1), rows=2, cols=30)


def test_stress_deals_keep_the_edge_cases() -> None:
    sizes, shapes, solid = set(), Counter(), 0
    for seed in range(300):
        rows, cols, cards = stress_deal(random.Random(seed))
        assert 6 <= rows <= 33 and 6 <= cols <= 33 and 3 <= len(cards) <= 24
        assert all(matrix_problem(m) is None and fits_somehow(m, rows, cols) for m in cards)
        assert all(any(any(row) for row in m) for m in cards)  # never colourless
        sizes.add((rows, cols))
        shapes.update((len(m), len(m[0])) for m in cards)
        solid += any(len(m) * len(m[0]) >= 9 and card_problem(m) is not None for m in cards)
    assert len(sizes) > 150 and {(1, 1), (1, 3), (2, 2)} <= set(shapes)
    assert solid > 50  # the cards the grading deal never gives


def test_stress_deal_keeps_given_board_sides() -> None:
    rows, cols, cards = stress_deal(random.Random(1), rows=4, cols=30)
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
