"""Standings on hand-made results: disqualification, scores, both awards policies, ratings."""

from __future__ import annotations

from typing import Any

import pytest

from harness.config import Awards, Tier
from harness.record import GameRecord, PlayerRecord, Verdict
from harness.submission import Submission
from harness.tournament.schedule import Absent, Entrant
from harness.tournament.standings import competition_ranks, max_points, standings

QUORIDOR_TIERS = Awards("tiers", tiers=(Tier(3, top=0.1), Tier(2, top=0.2), Tier(1, top=0.4)))
STREKY_RANKS = Awards("tiers", tiers=(Tier(5, rank=1), Tier(4, rank=2), Tier(3, rank=3), Tier(2, rank=4),
                                      Tier(1, rank=5)))


def game(a: str, b: str, winner: int | None, scores: tuple[float, float] = (0, 0),
         verdicts: tuple[Verdict, Verdict] = (Verdict.OK, Verdict.OK), reason: str = "") -> GameRecord:
    players = [PlayerRecord(login, "0" * 64, verdict, reason if verdict is not Verdict.OK else "")
               for login, verdict in zip((a, b), verdicts)]
    return GameRecord("quoridor", {}, 0, players, winner=winner, scores=scores, plies=10)


def win(a: str, b: str) -> GameRecord:
    """``a`` beats ``b`` by the rules (a Quoridor-like game: 1 point per win)."""
    return game(a, b, 0, (1, 0))


def rows_of(awards: Awards, logins: list[str], records: list[GameRecord], references: tuple[str, ...] = ()) -> dict[str, Any]:
    entrants = [Entrant(login, f"{login}/player.py", Submission.of(login.encode()), login in references)
                for login in logins]
    return {r.login: r for r in standings(awards, entrants, records)}


def test_competition_ranks_share_the_best_rank() -> None:
    assert competition_ranks([5, 7, 7, 3, 5]) == [3, 1, 1, 5, 3]
    assert competition_ranks([]) == []


def test_any_verdict_disqualifies_with_the_first_reason_and_the_game_counts_for_no_score() -> None:
    records = [win("ann", "ben"), win("ann", "cat"),
               game("ben", "cat", 1, (0, 0), (Verdict.ILLEGAL_MOVE, Verdict.OK), "wall overlaps"),
               game("cat", "ben", 0, (0, 0), (Verdict.OK, Verdict.TIMEOUT), "too slow"),
               win("cat", "ann")]
    rows = rows_of(QUORIDOR_TIERS, ["ann", "ben", "cat"], records)
    ben = rows["ben"]
    assert ben.disqualified and ben.rank is None and ben.points == 0
    assert ben.verdicts_against == 2 and ben.reason == "illegal_move: wall overlaps"
    assert (ben.wins, ben.draws, ben.losses) == (0, 0, 3)
    cat = rows["cat"]
    # cat won the game ben lost by a verdict, but a game cut short scores for nobody.
    assert (cat.wins, cat.draws, cat.losses, cat.score) == (3, 0, 1, 1.0)
    assert not cat.disqualified and rows["ann"].score == 2.0
    assert [rows["ann"].rank, rows["cat"].rank] == [1, 2]
    ordered = list(rows)
    assert ordered[-1] == "ben", "disqualified bots come last"


def test_harness_errors_count_for_no_one() -> None:
    fault = game("ann", "ben", None, (0, 0), (Verdict.HARNESS_ERROR, Verdict.HARNESS_ERROR), "worker lost")
    rows = rows_of(QUORIDOR_TIERS, ["ann", "ben"], [fault, win("ben", "ann")])
    assert not rows["ann"].disqualified and rows["ann"].games == 1 and rows["ben"].wins == 1


def test_top_fraction_tiers_count_only_students_who_were_not_disqualified() -> None:
    # Ten students in a chain (s0 beats everyone below it), one reference bot on top, one cheat.
    students = [f"s{i}" for i in range(10)]
    records = [win(a, b) for i, a in enumerate(students) for b in students[i + 1:]]
    records += [win("ref", s) for s in students]
    records.append(game("cheat", "s0", 1, verdicts=(Verdict.FORBIDDEN, Verdict.OK), reason="import os"))
    rows = rows_of(QUORIDOR_TIERS, [*students, "ref", "cheat"], records, references=("ref",))
    points = [rows[s].points for s in students]
    # 10 ranked students: top 10 % is rank 1, top 20 % ranks 1-2, top 40 % ranks 1-4.
    assert points == [3, 2, 1, 1, 0, 0, 0, 0, 0, 0]
    assert rows["ref"].rank_all == 1 and rows["ref"].rank is None and rows["ref"].points == 0, \
        "a reference bot ranks (among all bots) but takes no points"
    assert (rows["s0"].rank, rows["s0"].rank_all) == (1, 2) and rows["cheat"].points == 0
    assert rows["cheat"].rank is None and rows["cheat"].rank_all is None
    assert max_points(QUORIDOR_TIERS) == 3


def test_rank_tiers_give_ties_the_same_points() -> None:
    # Štreky-like: score sums decide; two students tie for second place.
    records = [game("ann", "ben", 0, (50, 30)), game("cat", "dan", 0, (30, 10)), game("eve", "fay", 0, (20, 5)),
               game("gus", "ann", 1, (1, 2))]
    rows = rows_of(STREKY_RANKS, ["ann", "ben", "cat", "dan", "eve", "fay", "gus"], records)
    assert {k: (r.rank, r.points) for k, r in rows.items()} == {
        "ann": (1, 5), "ben": (2, 4), "cat": (2, 4), "eve": (4, 2), "dan": (5, 1), "fay": (6, 0), "gus": (7, 0)}


def test_pass_fail_gives_full_points_only_without_any_error() -> None:
    awards = Awards("pass_fail", points=5)
    records = [game("ann", "brute", 0, (40, 10)), game("brute", "ann", 0, (30, 20)),
               game("ben", "brute", 0, (40, 10)), game("brute", "ben", None, (3, 0), (Verdict.OK, Verdict.BAD_ANSWER),
                                                        "play() returned a tuple"),
               ]
    rows = rows_of(awards, ["ann", "ben", "idle"], records)
    assert rows["ann"].points == 5, "losing is fine: only errors cost the points"
    assert rows["ben"].points == 0 and rows["ben"].reason == "bad_answer: play() returned a tuple"
    assert rows["idle"].points == 0 and rows["idle"].games == 0, "a submission that never played earns nothing"


def test_ratings_order_a_chain_and_give_intervals() -> None:
    records = [win("a", "b"), win("b", "c"), win("a", "c")] * 5 + [win("c", "a")]
    rows = rows_of(Awards(), ["a", "b", "c"], records)
    assert rows["a"].rating > rows["b"].rating > rows["c"].rating
    for r in rows.values():
        assert r.rating_low < r.rating < r.rating_high


@pytest.mark.parametrize(("students", "tiers", "expected"), [
    # Two ranked students: top 10 % rounds up to rank 1, so the best student gets the points.
    (2, (Tier(3, top=0.1), Tier(2, top=0.2), Tier(1, top=0.4)), [3, 0]),  # 40 % of 2 = 0.8: rank 1 only
    (1, (Tier(5, top=0.1),), [5]),
    (3, (Tier(5, top=0.5), Tier(1, top=1.0)), [5, 5, 1]),  # ceil(1.5) = 2
    (10, (Tier(3, top=0.1), Tier(2, top=0.2), Tier(1, top=0.4)), [3, 2, 1, 1, 0, 0, 0, 0, 0, 0]),
    (11, (Tier(3, top=0.1),), [3, 3] + [0] * 9),  # ceil(1.1) = 2
])
def test_every_top_tier_reaches_at_least_one_rank(students: int, tiers: tuple[Tier, ...],
                                                  expected: list[int]) -> None:
    logins = [f"s{i:02d}" for i in range(students)]
    records = [win(a, b) for i, a in enumerate(logins) for b in logins[i + 1:]] or [game("s00", "ref", None)]
    rows = rows_of(Awards("tiers", tiers=tiers), logins + ["ref"], records, references=("ref",))
    assert [rows[s].points for s in logins] == expected


def test_tied_students_share_a_rank_and_its_points() -> None:
    records = [game("ann", "ben", None, (1, 1)), game("ann", "cat", 0, (1, 0)), game("ben", "cat", 0, (1, 0))]
    rows = rows_of(QUORIDOR_TIERS, ["ann", "ben", "cat"], records)
    # top 10 % of 3 reaches rank 1 (shared by two), top 40 % ranks 1-2 (ceil 1.2): cat is third
    assert [(rows[x].rank, rows[x].points) for x in ("ann", "ben", "cat")] == [(1, 3), (1, 3), (3, 0)]


def test_in_a_gauntlet_the_opponent_takes_part_in_the_rating_fit() -> None:
    # 20-20 against brute and 0-40 against brute must not get the same rating (brute is not on the board).
    records = [game("even", "brute", 0 if i % 2 else 1, (1, 0) if i % 2 else (0, 1)) for i in range(40)]
    records += [game("weak", "brute", 1, (0, 1)) for _ in range(40)]
    rows = rows_of(Awards("pass_fail", points=5), ["even", "weak", "idle"], records)
    assert rows["even"].rating is not None and rows["weak"].rating is not None
    assert rows["even"].rating - rows["weak"].rating > 300
    assert rows["even"].rating_low < rows["even"].rating < rows["even"].rating_high
    assert rows["idle"].rating is None and rows["idle"].rating_low is None, "no games: no rating, not a default"


def test_a_student_without_a_usable_submission_has_a_row_with_the_reason() -> None:
    entrants = [Entrant("ann", "ann/player.py", Submission.of(b"x"))]
    absent = [Absent("dave", "no player.py in submissions/streky/dave; found Player.py"),
              Absent("zoe", "no submission")]
    rows = standings(Awards("pass_fail", points=5), entrants, [game("ann", "brute", 0, (1, 0))], absent)
    assert [r.login for r in rows] == ["ann", "dave", "zoe"]
    dave = rows[1]
    assert dave.absent and dave.points == 0 and dave.rank is None and dave.rating is None
    assert dave.status == "no player.py in submissions/streky/dave; found Player.py"


def four(order: list[str], charged: dict[str, Verdict] | None = None) -> GameRecord:
    """A four-player game that finished in ``order`` (best first): places and 3/2/1/0 scores."""
    charged = charged or {}
    seats = sorted(order)
    players = [PlayerRecord(x, "0" * 64, charged.get(x, Verdict.OK), "bad" if x in charged else "") for x in seats]
    places = tuple(order.index(x) + 1 for x in seats)
    if charged:
        clean = sum(1 for x in seats if x not in charged)
        places = tuple(clean + 1 if x in charged else 1 for x in seats)
    scores = tuple(float(3 - order.index(x)) for x in seats)
    clean_seats = [i for i, x in enumerate(seats) if x not in charged]
    winner = (clean_seats[0] if len(clean_seats) == 1 else None) if charged else seats.index(order[0])
    return GameRecord("clovece", {}, 0, players, winner=winner, scores=scores, places=places, plies=10)


def test_four_player_games_rank_score_rate_and_disqualify_without_special_cases() -> None:
    records = [four(["a", "b", "c", "d"])] * 6 + [four(["b", "a", "c", "d"])] * 2
    records.append(four(["a", "b", "c", "d"], charged={"d": Verdict.TIMEOUT}))
    rows = rows_of(QUORIDOR_TIERS, ["a", "b", "c", "d"], records)
    assert [rows[x].wins for x in "abcd"] == [6, 2, 0, 0]
    assert [rows[x].score for x in "abc"] == [6 * 3 + 2 * 2, 6 * 2 + 2 * 3, 8 * 1]  # the cut-short game counts for nobody
    assert rows["d"].disqualified and rows["d"].reason == "timeout: bad"
    assert [rows[x].rank for x in "abc"] == [1, 2, 3] and rows["a"].points == 3
    assert rows["a"].rating > rows["b"].rating > rows["c"].rating > rows["d"].rating


def test_ranked_by_rating_a_bot_with_one_lucky_game_is_pulled_toward_the_field() -> None:
    # Ten bots in a chain, 36 games each (the stronger of a pair wins 3 of 4), and a newcomer that
    # won its only game, against a bot in the middle. Its maximum-likelihood rating tops the
    # field; an adaptive job (ranked by rating, under the field's prior) puts it behind bots
    # whose records are long and clear, and moves those far less.
    field = [f"b{i}" for i in range(10)]
    records = [win(a, b) if k < 3 else win(b, a)
               for i, a in enumerate(field) for b in field[i + 1:] for k in range(4)]
    records.append(win("new", "b5"))
    entrants = [Entrant(login, f"{login}/player.py", Submission.of(login.encode())) for login in field + ["new"]]
    plain = {r.login: r for r in standings(QUORIDOR_TIERS, entrants, records)}
    prior = {r.login: r for r in standings(QUORIDOR_TIERS, entrants, records, by_rating=True)}
    assert plain["new"].rating > plain["b0"].rating, "maximum likelihood: one win tops the field"
    assert prior["new"].rating < prior["b2"].rating, "with the prior: behind three clear records"
    assert prior["new"].rank is not None and prior["new"].rank > 3
    shift = {login: plain[login].rating - prior[login].rating for login in ("new", "b0")}
    assert shift["new"] > 100 and shift["new"] > 3 * abs(shift["b0"]), shift
    assert [prior[b].rank for b in field] == sorted(prior[b].rank for b in field), "the field keeps its order"
    for r in prior.values():
        assert r.rating_low < r.rating < r.rating_high


def test_ranked_by_score_the_ratings_stay_maximum_likelihood() -> None:
    # A round robin's leaderboard is untouched by the adaptive standings' prior.
    from harness.tournament.standings import fit_ratings, tally

    logins = ["a", "b", "c", "d"]
    records = [win("a", "b"), win("b", "c"), win("c", "d"), win("a", "c"), win("d", "a"), win("b", "d")] * 3
    entrants = [Entrant(login, f"{login}/player.py", Submission.of(login.encode())) for login in logins]
    rows = {r.login: r for r in standings(QUORIDOR_TIERS, entrants, records)}
    plain = tally(entrants, records)
    fit_ratings(plain, records)
    for login in logins:
        assert rows[login].rating == pytest.approx(plain[login].rating, abs=1e-9)


@pytest.mark.parametrize("by_rating", [False, True])
@pytest.mark.parametrize("nudge", [-1e-12, 0.0, 1e-12])
def test_equal_results_are_ordered_by_login_whatever_the_last_bits_of_the_fit(
        monkeypatch: pytest.MonkeyPatch, by_rating: bool, nudge: float) -> None:
    """Issue 34: ``basis`` and ``bob`` had the same results, so ratings equal to the last bits, and
    two machines printed them in two orders. Nudge one rating by 1e-12 either way: the order and the
    ranks stay (ratings compared at the printed precision, then the login)."""
    import harness.tournament.standings as module

    field = ["alice", "basis", "bob", "carol", "dan"]
    records = [win("alice", x) for x in ("basis", "bob", "carol", "dan")]
    records += [win(x, y) for x in ("basis", "bob") for y in ("carol", "dan")] + [win("carol", "dan")]
    records += [game("basis", "bob", None), game("bob", "basis", None)]
    real = module.rate

    def nudged(rows: dict[str, Any], *args: Any, **kwargs: Any) -> Any:
        theta = real(rows, *args, **kwargs)
        bob = rows["bob"]
        bob.rating, bob.rating_low, bob.rating_high = (x + nudge for x in (bob.rating, bob.rating_low, bob.rating_high))
        return theta

    monkeypatch.setattr(module, "rate", nudged)
    entrants = [Entrant(login, f"{login}/player.py", Submission.of(login.encode()), login == "basis") for login in field]
    rows = standings(STREKY_RANKS, entrants, records, by_rating=by_rating)
    assert [r.login for r in rows] == field
    by = {r.login: r for r in rows}
    assert by["basis"].rank_all == by["bob"].rank_all == 2
    assert by["basis"].to_json()["rating"] == by["bob"].to_json()["rating"]


def test_the_fit_does_not_depend_on_the_order_the_games_were_stored_in() -> None:
    """Games are stored in the order they finish, different on every machine: the ratings agree to the bit."""
    import random

    logins = ["ann", "ben", "cat", "dot", "eve"]
    records = [win(a, b) for a in logins for b in logins if a < b] + [win("eve", "ann"), game("ben", "cat", None)]
    first = [(r.login, r.rating, r.rating_low) for r in rows_of(QUORIDOR_TIERS, logins, records).values()]
    for seed in range(5):
        shuffled = records[:]
        random.Random(seed).shuffle(shuffled)
        again = [(r.login, r.rating, r.rating_low) for r in rows_of(QUORIDOR_TIERS, logins[::-1], shuffled).values()]
        assert again == first
