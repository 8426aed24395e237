"""What the report keeps of each game once its replay is written: a compact summary, and pages.

A site of 180,000 games cannot hold every record (or one dict per game and bot) in memory. As
:func:`harness.report.site.build_site` reads the games one at a time, each becomes a
:class:`Summary` (a few short fields; logins, verdicts and settings shared between games), and
the lists of games (the whole job's, each bot's) are written in pages of a bounded size that
link up (``games.html``, ``games-2.html``, ...). Which games get a replay page is decided as
they stream by (:class:`ReplayChoice`): every game, or a bounded sample per bot plus its
failures.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from harness.record import GameRecord
from harness.report.html import number

PAGE_SIZE = 1000  # games on one page of a list


@dataclass(frozen=True, slots=True)
class Seat:
    """One seat of a summarised game."""

    login: str
    verdict: str
    reason: str
    score: str
    result: str  # from this seat's side: win, loss, draw or no result
    slowest: float


@dataclass(frozen=True, slots=True)
class Summary:
    """What the lists show of one game: its number, page id, seats and outcome."""

    n: int
    id: str
    seed: int
    seats: tuple[Seat, ...]
    outcome: str
    plies: int
    end: str
    settings: str  # the settings asked for, as compact JSON
    replay: bool  # whether the site has its replay page
    charged: int  # seats with a verdict against them
    fault: bool  # the harness failed in it


def result_of(record: GameRecord, seat: int) -> str:
    """The game from one seat's side: ``win``, ``loss``, ``draw`` or ``no result``."""
    if record.harness_fault:
        return "no result"
    if record.winner is None:
        return "loss" if record.players[seat].verdict.charged else "draw"
    return "win" if record.winner == seat else "loss"


def summarise(n: int, game_id: str, record: GameRecord, outcome: str, replay: bool,
              shared: dict[str, str]) -> Summary:
    """The summary of one game; ``shared`` keeps one copy of each repeated text over the site."""
    def one(text: str) -> str:
        return shared.setdefault(text, text)

    seats = tuple(Seat(one(p.login), one(p.verdict.value), one(p.reason),
                       one(number(record.scores[i])) if i < len(record.scores) else "", one(result_of(record, i)),
                       p.max_wall)
                  for i, p in enumerate(record.players))
    return Summary(n, game_id, record.seed, seats, one(outcome), record.plies, one(record.end),
                   one(json.dumps(record.requested, sort_keys=True)), replay,
                   sum(p.verdict.charged for p in record.players), record.harness_fault)


class ReplayChoice:
    """Decides, game by game in the order they stream by, which get a replay page.

    ``per_bot=None``: every game. Otherwise a game gets one when one of its bots has fewer than
    ``per_bot`` replays of clean games yet, or (for a game with a verdict or a harness fault)
    fewer than ``per_bot`` (at least one) of that verdict yet: every bot's first game of each verdict (the one
    its feedback links to) always has its replay, and the pages stay bounded by bots x verdicts.
    """

    def __init__(self, per_bot: int | None) -> None:
        self.per_bot = per_bot
        self.kept: Counter[tuple[str, str]] = Counter()

    def __call__(self, record: GameRecord) -> bool:
        if self.per_bot is None:
            return True
        limit = self.per_bot
        if record.harness_fault:
            kinds, limit = [(p.login, "harness_error") for p in record.players], max(1, limit)
        elif any(p.verdict.charged for p in record.players):
            kinds, limit = [(p.login, p.verdict.value) for p in record.players if p.verdict.charged], max(1, limit)
        else:
            kinds = [(p.login, "") for p in record.players]
        if not any(self.kept[k] < limit for k in kinds):
            return False
        self.kept.update(kinds)
        return True


def page_name(stem: str, page: int) -> str:
    """``stem.html`` for the first page, ``stem-2.html`` for the second, ..."""
    return f"{stem}.html" if page == 1 else f"{stem}-{page}.html"


def pager(stem: str, page: int, pages: int) -> dict[str, Any]:
    """The links between the pages of one list (for the ``pager`` macro)."""
    return {"page": page, "pages": pages,
            "prev": page_name(stem, page - 1) if page > 1 else "",
            "next": page_name(stem, page + 1) if page < pages else "",
            "all": [(p, page_name(stem, p) if p else "") for p in window(page, pages)] if pages > 1 else []}


def window(page: int, pages: int, around: int = 4) -> list[int]:
    """The page numbers a pager shows: the first, the last, and those near ``page``; 0 marks a gap."""
    shown = sorted({1, pages, *range(max(1, page - around), min(pages, page + around) + 1)})
    out: list[int] = []
    for p in shown:
        if out and p > out[-1] + 1:
            out.append(0)
        out.append(p)
    return out


def paged(items: Sequence[Any], size: int = PAGE_SIZE) -> Iterator[tuple[int, int, Sequence[Any]]]:
    """``(page, pages, items of the page)``, one page at a time; one (empty) page for no items."""
    pages = max(1, -(-len(items) // size))
    for page in range(1, pages + 1):
        yield page, pages, items[(page - 1) * size:page * size]


def game_row(s: Summary, root: str, files: Mapping[str, str]) -> dict[str, Any]:
    """A row of the games list (``root``: the way from the page to the site's top folder)."""
    return {"n": s.n, "id": s.id, "href": f"{root}games/{s.id}.html" if s.replay else "",
            "players": [{"login": t.login, "href": f"{root}bots/{files[t.login]}.html", "verdict": t.verdict,
                         "score": t.score} for t in s.seats],
            "outcome": s.outcome, "plies": s.plies, "seed": s.seed, "end": s.end, "settings": s.settings}


def bot_row(s: Summary, seat: int, files: Mapping[str, str], n: int) -> dict[str, Any]:
    """A row of a bot's games list, from its seat's side (the page is in ``bots/``); ``n`` is the
    game's number among the bot's own games, the number ``harness check`` and the feedback give it."""
    me = s.seats[seat]
    return {"n": n, "id": s.id, "href": f"../games/{s.id}.html" if s.replay else "", "seat": seat, "seed": s.seed,
            "opponents": [{"login": t.login, "href": f"../bots/{files[t.login]}.html", "verdict": t.verdict}
                          for i, t in enumerate(s.seats) if i != seat and t.login != me.login],
            # The bot's own score first, then the others' in seat order: "win 6 : 0" whatever its seat.
            "result": me.result, "scores": " : ".join(t.score for t in [me, *(t for i, t in enumerate(s.seats)
                                                                               if i != seat)]), "verdict": me.verdict,
            "reason": me.reason, "plies": s.plies, "slowest": me.slowest}


__all__ = ["PAGE_SIZE", "ReplayChoice", "Seat", "Summary", "bot_row", "game_row", "page_name", "paged", "pager",
           "result_of", "summarise"]
