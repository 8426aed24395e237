"""The static site of a job: the leaderboard, one page per bot, one replay page per game.

Everything is plain files (open ``index.html`` from disk; no server, no network). One
:class:`~harness.report.replay.FrameRenderer` is shared by all replays so positions that many
games share are drawn once, and the Jinja templates are compiled once.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from harness.record import GameRecord
from harness.report.html import environment, number, write_page
from harness.report.replay import FrameRenderer, outcome_text, render_replay


@dataclass(frozen=True)
class Entry:
    """A game of the site: its id (the page ``games/<id>.html``) and record."""

    id: str
    record: GameRecord


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
    ("disqualified", "status", False),
)


def default_game_ids(records: Sequence[GameRecord]) -> list[str]:
    """Stable ids: a digest of what makes a game (game, settings, seed, seats' logins and code)."""
    ids: list[str] = []
    seen: Counter[str] = Counter()
    for r in records:
        blob = json.dumps([r.game, r.settings, r.seed, [[p.login, p.sha256] for p in r.players]],
                          sort_keys=True, default=str)
        base = hashlib.sha256(blob.encode()).hexdigest()[:12]
        seen[base] += 1
        ids.append(base if seen[base] == 1 else f"{base}-{seen[base]}")
    return ids


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


def result_of(record: GameRecord, seat: int) -> str:
    """The game from one seat's side: ``win``, ``loss``, ``draw`` or ``no result``."""
    if record.harness_fault:
        return "no result"
    if record.winner is None:
        return "loss" if record.players[seat].verdict.charged else "draw"
    return "win" if record.winner == seat else "loss"


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


def _player_links(record: GameRecord, root: str, files: Mapping[str, str]) -> list[dict[str, Any]]:
    return [{"login": p.login, "href": f"{root}bots/{files[p.login]}.html", "verdict": p.verdict.value,
             "score": number(record.scores[i]) if i < len(record.scores) else ""}
            for i, p in enumerate(record.players)]


def _games_by_bot(entries: Sequence[Entry], files: Mapping[str, str]) -> dict[str, list[dict[str, Any]]]:
    """Each bot's games, from its side, in the order of the records; ``n`` is the game's number among
    the bot's own games, the number ``harness check`` and the feedback files give it too."""
    games: dict[str, list[dict[str, Any]]] = {login: [] for login in files}
    for e in entries:
        r = e.record
        links = _player_links(r, "../", files)
        scores = " : ".join(number(s) for s in r.scores)
        for seat, p in enumerate(r.players):
            games[p.login].append({
                "n": len(games[p.login]) + 1, "href": f"../games/{e.id}.html", "seat": seat, "seed": r.seed,
                "opponents": [o for o in links if o["login"] != p.login], "result": result_of(r, seat),
                "scores": scores, "verdict": p.verdict.value, "reason": p.reason, "plies": r.plies,
                "slowest": p.max_wall})
    return games


def build_site(out_dir: str | Path, *, title: str, records: list[GameRecord], leaderboard: list[dict[str, Any]],
               job: dict[str, Any] | None = None, game_ids: Sequence[str] | None = None,
               banners: Sequence[str] = (), sections: Sequence[dict[str, Any]] = (), public: bool = False,
               links: Sequence[tuple[str, str]] = ()) -> Path:
    """Write the site into ``out_dir``; returns the path of its ``index.html``.

    ``leaderboard`` rows are dicts (``rank``, ``login``, ``bot_name``, ``games``, ``wins``,
    ``draws``, ``losses``, ``score``, ``verdicts_against``, ``disqualified``, ``reason``,
    ``points``, ``rating``, ``rating_low``, ``rating_high``, ``reference``); the columns
    present in the rows are shown. ``game_ids`` (e.g. the results store's keys) name the replay
    pages; by default a digest of each game's identity does. ``banners`` are warnings shown on
    the front page (e.g. an incomplete job), ``sections`` extra tables and charts of the front
    page, ``links`` more pages of the site; ``public`` marks a site without the bots' output.
    """
    out = Path(out_dir)
    ids = list(game_ids) if game_ids is not None else default_game_ids(records)
    if len(ids) != len(records) or len(set(ids)) != len(ids):
        raise ValueError("game_ids must give one distinct id per record")
    entries = [Entry(re.sub(r"[^A-Za-z0-9_.-]", "_", str(i)), r) for i, r in zip(ids, records)]
    if len({e.id for e in entries}) != len(entries):
        raise ValueError("game_ids must stay distinct when made safe for file names")
    logins = [str(r["login"]) for r in leaderboard] + [p.login for e in entries for p in e.record.players]
    files = bot_files(logins)
    env = environment()
    common = {"site_title": title, "job": _job_items(job)}

    renderer = FrameRenderer()
    nav_index = (title, "../index.html")
    for e in entries:
        nav = [nav_index, ("all games", "../games.html"),
               *((p.login, f"../bots/{files[p.login]}.html") for p in e.record.players)]
        write_page(out / "games" / f"{e.id}.html", render_replay(e.record, nav=nav, renderer=renderer, public=public))

    rows_by_login = {str(r["login"]): r for r in leaderboard}
    bot_page = env.get_template("bot.html.j2")
    by_bot = _games_by_bot(entries, files)
    for login, stem in files.items():
        games = by_bot[login]
        verdicts = Counter(g["verdict"] for g in games)
        write_page(out / "bots" / f"{stem}.html", bot_page.render(
            **common, scripts=["sort.js"], nav=[nav_index], login=login, row=rows_by_login.get(login),
            games=games, verdicts=sorted(verdicts.items()),
            results=Counter(g["result"] for g in games)))

    listing = [{"n": n, "id": e.id, "href": f"games/{e.id}.html", "players": _player_links(e.record, "", files),
                "outcome": outcome_text(e.record), "plies": e.record.plies, "seed": e.record.seed,
                "end": e.record.end, "settings": json.dumps(e.record.requested, sort_keys=True)}
               for n, e in enumerate(entries, start=1)]
    write_page(out / "games.html", env.get_template("games.html.j2").render(
        **common, scripts=["sort.js"], nav=[(title, "index.html")], games=listing))

    headers, body = leaderboard_table(leaderboard, lambda login: f"bots/{files[login]}.html")
    charged = sum(p.verdict.charged for e in entries for p in e.record.players)
    faults = sum(e.record.harness_fault for e in entries)
    index = out / "index.html"
    # "bots" counts the leaderboard's rows (not a gauntlet's opponent, which has no row).
    write_page(index, env.get_template("index.html.j2").render(
        **common, scripts=["sort.js"], nav=[], headers=headers, body=body, games=len(entries),
        bots=len(leaderboard) or len(files), charged=charged, faults=faults, banners=list(banners), sections=list(sections),
        links=list(links)))
    _remove_stale(out / "games", {f"{e.id}.html" for e in entries})
    _remove_stale(out / "bots", {f"{stem}.html" for stem in files.values()})
    return index


def _remove_stale(folder: Path, keep: set[str]) -> None:
    """Delete pages of an earlier build that this build did not write (games no longer in the job)."""
    for page in folder.glob("*.html"):
        if page.name not in keep:
            page.unlink()


def _job_items(job: Mapping[str, Any] | None) -> list[tuple[str, str]]:
    """The job's description as (key, text) pairs; nested values as compact JSON."""
    if not job:
        return []
    return [(str(k), v if isinstance(v, str) else json.dumps(v, sort_keys=True, default=str, ensure_ascii=False))
            for k, v in job.items()]
