"""The static site of a job: the leaderboard, pages per bot, the games list, replay pages.

The games are read once, one at a time (:func:`build_site`); what the lists need of each is
kept as a small summary and the lists are paged (:mod:`harness.report.listing`), so a job of
180,000 games builds in bounded pages. Everything is plain files (open ``index.html`` from disk; no server, no network). One
:class:`~harness.report.replay.FrameRenderer` is shared by all replays so positions that many
games share are drawn once, and the Jinja templates are compiled once.
"""

from __future__ import annotations

import hashlib
import json
import re
from array import array
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from harness.record import GameRecord, interpreter_text
from harness.report.html import environment, number, write_page
from harness.report.listing import (PAGE_SIZE, ReplayChoice, Summary, bot_row, game_row, page_name, paged, pager,
                                    summarise)
from harness.report.replay import FrameRenderer, outcome_text, render_replay


@dataclass(frozen=True)
class Cell:
    """One table cell, prepared for the templates (which escape every text)."""

    text: str = ""
    sort: Any = None  # the value the table sorts by, when it is not the text
    href: str = ""
    cls: str = ""
    badges: tuple[tuple[str, str], ...] = ()  # (text, css class) shown after the text


# Leaderboard columns in display order: (row key, header, numeric).
COLUMNS: tuple[tuple[str, str, bool], ...] = (
    ("rank", "#", True), ("login", "login", False), ("bot_name", "bot", False),
    ("points", "points", True), ("score", "score", True), ("games", "games", True),
    ("wins", "wins", True), ("draws", "draws", True), ("losses", "losses", True),
    ("rating", "rating", True), ("verdicts_against", "verdicts against", True),
    ("late", "late", False),  # only a job with a deadline has it (harness.report.export.late_text)
    ("disqualified", "status", False),
)


def default_game_ids(records: Iterable[GameRecord]) -> list[str]:
    """Stable ids: a digest of what makes a game (game, settings, seed, seats' logins and code)."""
    seen: Counter[str] = Counter()
    return [_game_id(r, seen) for r in records]


def bot_files(logins: Sequence[str]) -> dict[str, str]:
    """A distinct, file-name-safe page name for each login (logins come from folder names)."""
    names: dict[str, str] = {}
    used: set[str] = set()
    for login in logins:
        if login in names:
            continue
        safe = re.sub(r"[^A-Za-z0-9_.-]", "_", login).strip(".") or "bot"
        if safe.lower() in used or safe != login:
            safe = f"{safe[:40]}-{hashlib.sha256(login.encode()).hexdigest()[:8]}"
        used.add(safe.lower())
        names[login] = safe
    return names


def _scalar(value: Any) -> str:
    if isinstance(value, float):
        return number(value)
    return str(value)


def leaderboard_table(rows: Sequence[Mapping[str, Any]], bot_href: Callable[[str], str]
                      ) -> tuple[list[tuple[str, bool]], list[tuple[str, list[Cell]]]]:
    """The headers (text, numeric) and rows (css class, cells) of the columns the rows have."""
    present = [c for c in COLUMNS if any(r.get(c[0]) not in (None, "") for r in rows)]
    if any("reason" in r for r in rows) and not any(c[0] == "disqualified" for c in present):
        present.append(("disqualified", "status", False))
    headers = [(header, numeric) for _, header, numeric in present]
    body = []
    for r in rows:
        cells = []
        for key, _, numeric in present:
            value = r.get(key)
            if key == "login":
                badges = (("reference", "badge"),) if r.get("reference") else ()
                cells.append(Cell(str(value), href=bot_href(str(value)), cls="login", badges=badges))
            elif key == "rating" and value is not None:
                low, high = r.get("rating_low"), r.get("rating_high")
                text = f"{value:.0f}" + (f" [{low:.0f}, {high:.0f}]" if low is not None and high is not None else "")
                cells.append(Cell(text, sort=value, cls="num"))
            elif key == "disqualified":
                reason = str(r.get("reason") or "")
                badges = (("disqualified", "badge dq"),) if value else ()
                cells.append(Cell(reason, sort=int(bool(value)), cls="reason", badges=badges))
            elif value is None:
                cells.append(Cell("", sort="", cls="num" if numeric else ""))
            else:
                cells.append(Cell(_scalar(value), sort=value if numeric else None, cls="num" if numeric else ""))
        body.append(("disqualified" if r.get("disqualified") else "", cells))
    return headers, body


UNSAFE = re.compile(r"[^A-Za-z0-9_.-]")  # what a page's file name may not hold
SEATS = 64  # more seats than any game has: a bot's games are kept as game index * SEATS + seat


def _game_id(record: GameRecord, seen: Counter[str]) -> str:
    """A stable id: a digest of what makes a game (game, settings, seed, seats' logins and code)."""
    blob = json.dumps([record.game, record.settings, record.seed, [[p.login, p.sha256] for p in record.players]],
                      sort_keys=True, default=str)
    base = hashlib.sha256(blob.encode()).hexdigest()[:12]
    seen[base] += 1
    return base if seen[base] == 1 else f"{base}-{seen[base]}"


def build_site(out_dir: str | Path, *, title: str, records: Iterable[GameRecord], leaderboard: list[dict[str, Any]],
               job: dict[str, Any] | None = None, game_ids: Iterable[str] | None = None,
               banners: Sequence[str] = (), sections: Sequence[dict[str, Any]] = (), public: bool = False,
               links: Sequence[tuple[str, str]] = (), replays: int | None = None,
               page_size: int = PAGE_SIZE, order: Mapping[str, int] | None = None) -> Path:
    """Write the site into ``out_dir``; returns the path of its ``index.html``.

    ``leaderboard`` rows are dicts (``rank``, ``login``, ``bot_name``, ``games``, ``wins``,
    ``draws``, ``losses``, ``score``, ``verdicts_against``, ``disqualified``, ``reason``,
    ``points``, ``rating``, ``rating_low``, ``rating_high``, ``reference``); the columns
    present in the rows are shown. ``game_ids`` (e.g. the results store's keys) name the replay
    pages; by default a digest of each game's identity does. ``banners`` are warnings shown on
    the front page (e.g. an incomplete job), ``sections`` extra tables and charts of the front
    page, ``links`` more pages of the site; ``public`` marks a site without the bots' output.
    ``order`` (game id -> place in the job's schedule) numbers each bot's games as ``check`` and
    the feedback do, whatever order they were stored in (a re-judged game is stored last).

    ``records`` (and ``game_ids``) are read once, one game at a time, so a generator over a
    results store keeps memory to a small summary a game (:mod:`harness.report.listing`).
    ``replays``: write replay pages for every game (``None``), or only for a sample of that
    many games per bot plus as many of each of its verdicts (see :class:`ReplayChoice`). The
    games lists have ``page_size`` games a page, linked page to page.
    """
    out = Path(out_dir)
    env = environment()
    common = {"site_title": title, "job": _job_items(job)}
    choose = ReplayChoice(replays)
    renderer = FrameRenderer()
    nav_index = (title, "../index.html")
    files = bot_files([str(r["login"]) for r in leaderboard])
    shared: dict[str, str] = {}
    seen_ids: set[str] = set()
    digests: Counter[str] = Counter()
    ids = iter(game_ids) if game_ids is not None else None
    summaries: list[Summary] = []
    # Each bot's games as game index * SEATS + seat, in a compact array (two entries a game).
    by_bot: dict[str, array[int]] = {login: array("q") for login in files}
    judges: defaultdict[str, Counter[str]] = defaultdict(Counter)  # login -> interpreter line -> games
    for n, record in enumerate(records, start=1):
        if ids is not None:
            raw = next(ids, None)
            if raw is None:
                raise ValueError("game_ids must give one distinct id per record")
            game_id = str(raw)
            if UNSAFE.search(game_id):  # (else the key itself: one string shared with the caller's list)
                game_id = UNSAFE.sub("_", game_id)
            if game_id in seen_ids:
                raise ValueError("game_ids must give one distinct id per record, "
                                 "and stay distinct when made safe for file names")
        else:
            game_id = _game_id(record, digests)
        seen_ids.add(game_id)
        for login in dict.fromkeys(p.login for p in record.players):
            if login not in files:
                files.update(bot_files([*files, login]))
                by_bot[login] = array("q")
        replay = choose(record)
        if replay:
            nav = [nav_index, ("all games", "../games.html"),
                   *((p.login, f"../bots/{files[p.login]}.html") for p in record.players)]
            write_page(out / "games" / f"{game_id}.html",
                       render_replay(record, nav=nav, renderer=renderer, public=public))
        summary = summarise(n, game_id, record, outcome_text(record), replay, shared)
        for player in record.players:  # the judge's clock of each bot: a few distinct lines over all its games
            if player.interpreter:
                judges[player.login][interpreter_text(player.interpreter, record.machine)] += 1
        for seat, player in enumerate(summary.seats):
            by_bot[player.login].append(len(summaries) * SEATS + seat)
        summaries.append(summary)
    if ids is not None and next(ids, None) is not None:
        raise ValueError("game_ids must give one distinct id per record")

    rows_by_login = {str(r["login"]): r for r in leaderboard}
    bot_page = env.get_template("bot.html.j2")
    for login, stem in files.items():
        played = by_bot[login]
        if order:
            played = array("q", sorted(played, key=lambda g: order.get(summaries[g // SEATS].id, len(order))))
        verdicts = Counter(summaries[g // SEATS].seats[g % SEATS].verdict for g in played)
        first: dict[str, str] = {}  # each verdict against the bot: its first game's replay (always kept)
        for g in played:
            game, verdict = summaries[g // SEATS], summaries[g // SEATS].seats[g % SEATS].verdict
            if verdict != "ok" and verdict not in first and game.replay:
                first[verdict] = f"../games/{game.id}.html"
        results = Counter(summaries[g // SEATS].seats[g % SEATS].result for g in played)
        for page, pages, part in paged(played, page_size):
            write_page(out / "bots" / page_name(stem, page), bot_page.render(
                **common, scripts=["sort.js"], nav=[nav_index], login=login, row=rows_by_login.get(login),
                games=[bot_row(summaries[g // SEATS], g % SEATS, files, k)
                       for k, g in enumerate(part, start=(page - 1) * page_size + 1)], played=len(played),
                verdicts=[(v, c, first.get(v, "")) for v, c in sorted(verdicts.items())], results=results,
                judged_by=sorted(judges[login].items()),
                paging=pager(stem, page, pages)))

    games_page = env.get_template("games.html.j2")
    kept = sum(s.replay for s in summaries)
    for page, pages, part in paged(summaries, page_size):
        write_page(out / page_name("games", page), games_page.render(
            **common, scripts=["sort.js"], nav=[(title, "index.html")], games=[game_row(s, "", files) for s in part],
            total=len(summaries), replays=kept, paging=pager("games", page, pages)))

    headers, body = leaderboard_table(leaderboard, lambda login: f"bots/{files[login]}.html")
    index = out / "index.html"
    # "bots" counts the leaderboard's rows (not a gauntlet's opponent, which has no row).
    write_page(index, env.get_template("index.html.j2").render(
        **common, scripts=["sort.js"], nav=[], headers=headers, body=body, games=len(summaries),
        bots=len(leaderboard) or len(files), charged=sum(s.charged for s in summaries), faults=sum(s.fault for s in summaries),
        replays=kept, banners=list(banners), sections=list(sections), links=list(links)))
    _remove_stale(out, {page_name("games", p) for p in range(1, len(summaries) // page_size + 2)}, "games*.html")
    _remove_stale(out / "games", {f"{s.id}.html" for s in summaries if s.replay})
    _remove_stale(out / "bots", {page_name(stem, p) for login, stem in files.items()
                                 for p in range(1, len(by_bot[login]) // page_size + 2)})
    return index


def _remove_stale(folder: Path, keep: set[str], pattern: str = "*.html") -> None:
    """Delete pages of an earlier build that this build did not write (games no longer in the job)."""
    for page in folder.glob(pattern):
        if page.name not in keep:
            page.unlink()


def _job_items(job: Mapping[str, Any] | None) -> list[tuple[str, str]]:
    """The job's description as (key, text) pairs; nested values as compact JSON."""
    if not job:
        return []
    return [(str(k), v if isinstance(v, str) else json.dumps(v, sort_keys=True, default=str, ensure_ascii=False))
            for k, v in job.items()]
