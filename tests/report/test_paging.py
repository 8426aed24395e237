"""A site bigger than one page: the lists are paged and link up, the games are read one at a time,
and a bounded sample of replays keeps every failure's replay."""

from __future__ import annotations

import gc
import re
import weakref
from collections.abc import Iterator
from pathlib import Path

import pytest

from harness.record import GameRecord
from harness.report import build_site
from harness.report.listing import ReplayChoice
from tests.report.htmlcheck import check_page
from tests.report.test_pages import rows_of

COPIES = 7  # 6 games x 7 = 42 games: five pages of 10


def many(games: dict[str, GameRecord]) -> list[tuple[str, GameRecord]]:
    """Every game of the session, ``COPIES`` times over, with distinct ids."""
    return [(f"{name}-{k}", record) for k in range(COPIES) for name, record in games.items()]


def follow(site: Path, first: str) -> list[str]:
    """The pages reached from ``first`` by its ``next`` links, in order (checking ``prev`` goes back)."""
    seen = [first]
    while True:
        html = (site / seen[-1]).read_text()
        nxt = re.search(r'<a href="([^"]+)" rel="next">', html)
        if nxt is None:
            return seen
        target = str(Path(seen[-1]).parent / nxt.group(1)) if "/" in seen[-1] else nxt.group(1)
        back = re.search(r'<a href="([^"]+)" rel="prev">', (site / target).read_text())
        assert back is not None and Path(seen[-1]).name == back.group(1)
        assert target not in seen
        seen.append(target)


def test_the_games_list_is_paged_and_the_pages_link_up(tmp_path: Path, games: dict[str, GameRecord]) -> None:
    pairs = many(games)
    build_site(tmp_path, title="t", records=[r for _, r in pairs], game_ids=[i for i, _ in pairs],
               leaderboard=[], page_size=10)
    pages = follow(tmp_path, "games.html")
    assert pages == ["games.html", "games-2.html", "games-3.html", "games-4.html", "games-5.html"]
    numbers = [int(row[0]) for page in pages for row in rows_of((tmp_path / page).read_text(), "games")]
    assert numbers == list(range(1, len(pairs) + 1))  # every game once, in order, 10 a page
    assert "page 3 of 5" in (tmp_path / "games-3.html").read_text()
    for page in tmp_path.rglob("*.html"):
        check_page(page)  # well-formed, and every link points at a page that exists


def test_a_bot_with_more_games_than_a_page_gets_linked_pages(tmp_path: Path, games: dict[str, GameRecord]) -> None:
    pairs = many(games)
    build_site(tmp_path, title="t", records=[r for _, r in pairs], game_ids=[i for i, _ in pairs],
               leaderboard=[], page_size=10)
    basis = sum(1 for _, r in pairs for p in r.players if p.login == "basis")
    assert basis > 20
    pages = follow(tmp_path, "bots/basis.html")
    assert len(pages) == -(-basis // 10)
    rows = [row for page in pages for row in rows_of((tmp_path / page).read_text(), "bot-games")]
    assert [int(row[0]) for row in rows] == list(range(1, basis + 1))  # its own numbers run on across pages
    assert f">{basis} (" in (tmp_path / "bots/basis.html").read_text()  # the count is of all pages
    # A rebuild with fewer games drops the pages no longer needed.
    build_site(tmp_path, title="t", records=[games["clean"]], game_ids=["clean"], leaderboard=[], page_size=10)
    assert sorted(p.name for p in tmp_path.glob("games*.html")) == ["games.html"]
    assert sorted(p.name for p in (tmp_path / "bots").iterdir()) == ["basis.html", "strategie.html"]
    check_page(tmp_path / "index.html")


def test_the_games_are_read_one_at_a_time_and_not_kept(tmp_path: Path, games: dict[str, GameRecord]) -> None:
    """build_site takes a one-shot generator and lets each record go once its page is written."""
    alive: list[weakref.ref[GameRecord]] = []
    most = 0

    def stream() -> Iterator[GameRecord]:
        nonlocal most
        for k in range(COPIES):
            for record in games.values():
                copy = GameRecord.from_json(record.to_json())  # a fresh object, as the store gives
                alive.append(weakref.ref(copy))
                yield copy
                del copy
                gc.collect()
                most = max(most, sum(ref() is not None for ref in alive))

    build_site(tmp_path, title="t", records=stream(), leaderboard=[], page_size=10)
    assert len(alive) == COPIES * len(games)
    assert most <= 1  # at most the record in hand was alive at any time
    assert len(list((tmp_path / "games").glob("*.html"))) == len(alive)


def test_a_replay_sample_keeps_every_bots_first_failure(tmp_path: Path, games: dict[str, GameRecord]) -> None:
    pairs = many(games)
    build_site(tmp_path, title="t", records=[r for _, r in pairs], game_ids=[i for i, _ in pairs],
               leaderboard=[], replays=1, page_size=100)
    kept = {p.stem for p in (tmp_path / "games").glob("*.html")}
    # The first copy of each failing game is kept (each bot's first of its verdict), no later one.
    for name in ("bad_answer", "exception", "hostile", "illegal"):
        assert f"{name}-0" in kept and f"{name}-1" not in kept
    assert len(kept) < len(pairs)
    rows = rows_of((tmp_path / "games.html").read_text(), "games")
    assert sum(row[-1] == "watch" for row in rows) == len(kept)
    assert sum(row[-1] == "not kept" for row in rows) == len(pairs) - len(kept)
    assert f"{len(kept)} of them with a replay" in (tmp_path / "games.html").read_text()
    # A bot's page links the first game of each verdict against it, whichever page lists that game.
    assert '<a href="../games/hostile-0.html">first</a>' in (tmp_path / "bots/mallory.html").read_text()
    assert '<a href="../games/bad_answer-0.html">first</a>' in (tmp_path / "bots/wrong.html").read_text()
    for page in tmp_path.rglob("*.html"):
        check_page(page)  # no link to a replay that was not written


def test_the_replay_choice_is_bounded_per_bot_and_verdict(games: dict[str, GameRecord]) -> None:
    choose = ReplayChoice(2)
    chosen = [choose(r) for _ in range(5) for r in games.values()]
    logins = {p.login for r in games.values() for p in r.players}
    assert sum(chosen) <= 2 * len(logins) * 3  # per bot: clean games, and each of its verdicts
    assert all(ReplayChoice(None)(r) for r in games.values())
    never = ReplayChoice(0)
    assert [never(r) for r in games.values()] == [not all(p.verdict.value == "ok" for p in r.players)
                                                  for r in games.values()]


def test_ids_left_over_are_an_error(tmp_path: Path, games: dict[str, GameRecord]) -> None:
    with pytest.raises(ValueError, match="one distinct id per record"):
        build_site(tmp_path, title="t", records=[games["clean"]], leaderboard=[], game_ids=["a", "b"])
    with pytest.raises(ValueError, match="one distinct id per record"):
        build_site(tmp_path, title="t", records=[games["clean"], games["hostile"]], leaderboard=[], game_ids=["a"])


def test_a_long_pager_shows_the_ends_and_the_pages_near() -> None:
    from harness.report.listing import pager, window

    assert window(1, 3) == [1, 2, 3]
    assert window(90, 180) == [1, 0, 86, 87, 88, 89, 90, 91, 92, 93, 94, 0, 180]
    assert window(2, 180)[:7] == [1, 2, 3, 4, 5, 6, 0]
    links = pager("games", 90, 180)
    assert (links["prev"], links["next"]) == ("games-89.html", "games-91.html")
    assert links["all"][0] == (1, "games.html") and links["all"][1] == (0, "")
