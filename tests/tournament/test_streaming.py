"""Standings of a large store in one pass: a one-shot generator is enough, equal races are folded,
and a job's games are read again from the store (real SQLite) instead of held in memory."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from harness.config import Awards, Tier
from harness.record import GameRecord, MoveRecord, PlayerRecord, Verdict
from harness.submission import Submission
from harness.tournament.results import StoredGames
from harness.tournament.schedule import Entrant
from harness.tournament.standings import standings
from harness.tournament.store import ResultsStore

AWARDS = Awards("tiers", tiers=(Tier(2, top=0.3), Tier(1, top=0.6)))
LOGINS = ["ann", "ben", "cat", "dan"]


def record(n: int) -> GameRecord:
    """Game ``n`` of a varied set: wins both ways, draws, a verdict, a harness fault, moves."""
    a, b = LOGINS[n % 4], LOGINS[(n // 4 + n + 1) % 4]
    if a == b:
        b = LOGINS[(LOGINS.index(a) + 1) % 4]
    verdicts = [Verdict.OK, Verdict.OK]
    if n % 17 == 5:
        verdicts[1] = Verdict.TIMEOUT
    if n % 23 == 7:
        verdicts[0] = Verdict.HARNESS_ERROR
    winner = None if n % 5 == 0 and Verdict.TIMEOUT not in verdicts else (0 if (n * 7) % 3 else 1)
    players = [PlayerRecord(login, login[0] * 64, verdict, "" if verdict is Verdict.OK else "too slow",
                            stdout=f"{login} says {n}") for login, verdict in zip((a, b), verdicts)]
    scores = (0.5, 0.5) if winner is None else ((1.0, 0.0) if winner == 0 else (0.0, 1.0))
    places = (1, 1) if winner is None else ((1, 2) if winner == 0 else (2, 1))
    return GameRecord("priemspel", {"start": 0, "N": 5}, n, players, winner=winner, scores=scores, places=places,
                      plies=4, moves=[MoveRecord(i % 2, 1, 0.001, 0.001) for i in range(4)])


def entrants() -> list[Entrant]:
    return [Entrant(login, f"{login}/player.py", Submission.of(login.encode())) for login in LOGINS]


def test_standings_of_a_one_shot_generator_equal_those_of_a_list() -> None:
    games = [record(n) for n in range(120)]
    consumed = 0

    def once() -> Iterator[GameRecord]:
        nonlocal consumed
        for game in games:
            consumed += 1
            yield game

    from_list = standings(AWARDS, entrants(), games)
    from_stream = standings(AWARDS, entrants(), once())
    assert consumed == len(games)  # read exactly once
    assert [r.to_json() for r in from_stream] == [r.to_json() for r in from_list]
    assert any(r.disqualified for r in from_list) and all(r.rating is not None for r in from_list)


def test_equal_races_folded_give_the_same_ratings() -> None:
    """Many games repeating a few results rate as the same games played once with summed weights:
    doubling every game narrows the intervals but moves no rating."""
    games = [record(n) for n in range(60) if n % 17 != 5]
    once = {r.login: r for r in standings(AWARDS, entrants(), games)}
    twice = {r.login: r for r in standings(AWARDS, entrants(), games + games)}
    for login in LOGINS:
        assert once[login].rating is not None and twice[login].rating is not None
        assert abs(once[login].rating - twice[login].rating) < 40  # the anchor weighs half as much
        assert (twice[login].rating_high - twice[login].rating_low) < (once[login].rating_high - once[login].rating_low)


def test_stored_games_are_read_again_from_the_store_at_each_pass(tmp_path: Path) -> None:
    games = [record(n) for n in range(30)]
    with ResultsStore(tmp_path) as store:
        for n, game in enumerate(games):
            store.put(f"k{n:02d}", "job", game)
    keys = [f"k{n:02d}" for n in range(0, 30, 3)]
    full = StoredGames(tmp_path, keys, light=False)
    light = StoredGames(tmp_path, keys, light=True)
    assert len(full) == len(light) == 10
    assert list(full) == [games[n] for n in range(0, 30, 3)]
    assert list(full) == list(full)  # re-iterable: every pass reads the store again
    assert [k for k, _ in light.pairs()] == keys
    for stored, game in zip(light, (games[n] for n in range(0, 30, 3))):
        assert stored.moves == [] and stored.winner == game.winner and stored.scores == game.scores
        for mine, theirs in zip(stored.players, game.players):
            assert mine.stdout == (theirs.stdout if theirs.verdict.charged else "")
    assert games[3] in full and games[1] not in full
    # Standings fold the stored games straight from the store, as job_results does.
    rows = standings(AWARDS, entrants(), light)
    assert sum(r.games for r in rows) == sum(len(g.players) for g in full if not g.harness_fault)
