"""Regenerate docs/leaderboard.png and docs/replay.png from real games in headless Chromium.

    python docs/make_screenshots.py                 # PriemSpel (the default)
    python docs/make_screenshots.py --game streky   # any installed game with reference players

It plays a small round robin (every pair, both seats, ``--seeds`` seeds) between the game's
reference players and its sample submissions (``submissions/<game>/*/player.py``), builds the
report site with :func:`harness.report.build_site`, and photographs its leaderboard and the
replay of the longest game. Needs Playwright's Python package and a Chromium (Debian's
``chromium``); never run ``playwright install``.
"""

from __future__ import annotations

import argparse
import itertools
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from harness.games import get_game  # noqa: E402
from harness.match import play_match  # noqa: E402
from harness.record import GameRecord  # noqa: E402
from harness.report import build_site  # noqa: E402
from harness.config import Awards  # noqa: E402
from harness.tournament.schedule import Entrant  # noqa: E402
from harness.tournament.standings import standings  # noqa: E402

ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]


def entrants(game: str) -> dict[str, Path]:
    """login -> bot file: the reference players, then the sample submissions."""
    bots = {p.stem: p for p in sorted((REPO / "reference_players" / game).glob("*.py")) if not p.name.startswith("_")}
    for p in sorted((REPO / "submissions" / game).glob("*/player.py")):
        bots[p.parent.name] = p
    return bots


def round_robin(game: str, bots: dict[str, Path], seeds: int) -> list[GameRecord]:
    """Every pair in both seats, for each seed."""
    spec = get_game(game)
    records = []
    for (a, pa), (b, pb) in itertools.permutations(bots.items(), 2):
        for seed in range(seeds):
            records.append(play_match(spec, [pa.read_bytes(), pb.read_bytes()], seed=seed, logins=[a, b]))
            print(f"  {a} vs {b}, seed {seed}: {records[-1].players[0].verdict.value}/"
                  f"{records[-1].players[1].verdict.value}", file=sys.stderr)
    return records


def leaderboard(bots: dict[str, Path], records: list[GameRecord]) -> list[dict[str, Any]]:
    """The harness's own standings of these games (no awards: the screenshot shows no points)."""
    entrants = [Entrant(login, str(path), path.read_bytes(), "reference_players" in path.parts)
                for login, path in bots.items()]
    return [row.to_json() for row in standings(Awards(), entrants, records)]


def photograph(site: Path, replay: Path, out: Path, chromium: str) -> None:
    """Screenshots of the leaderboard and of the replay at its middle position."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=ARGS)
        page = browser.new_page(viewport={"width": 1280, "height": 800}, device_scale_factor=1)
        page.goto((site / "index.html").as_uri())
        page.screenshot(path=str(out / "leaderboard.png"), full_page=True)
        page.goto(replay.as_uri())
        last = int(page.locator("#counter").inner_text().split(" / ")[1])
        page.goto(replay.as_uri() + f"#{(last + 1) // 2}")
        page.screenshot(path=str(out / "replay.png"), full_page=False)
        browser.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="priemspel")
    parser.add_argument("--seeds", type=int, default=1, help="seeds per pair and seating (default 1)")
    parser.add_argument("--out", type=Path, default=REPO / "docs", help="where the PNGs go (default docs/)")
    parser.add_argument("--site", type=Path, help="keep the generated site in this folder")
    parser.add_argument("--chromium", default=shutil.which("chromium") or "/usr/bin/chromium")
    args = parser.parse_args()
    bots = entrants(args.game)
    records = round_robin(args.game, bots, args.seeds)
    site = args.site or Path(tempfile.mkdtemp(prefix="harness-site-"))
    title = f"{get_game(args.game).title}: demo round robin"
    ids = [f"game-{n:04d}" for n in range(1, len(records) + 1)]
    build_site(site, title=title, records=records, leaderboard=leaderboard(bots, records),
               job={"job": f"demo-{args.game}", "format": "round robin, both seats", "seeds": args.seeds},
               game_ids=ids)
    clean = [i for i, r in enumerate(records) if not any(p.verdict.charged for p in r.players)] or [0]
    longest = max(clean, key=lambda i: records[i].plies)
    photograph(site, site / "games" / f"{ids[longest]}.html", args.out, args.chromium)
    print(f"wrote {args.out / 'leaderboard.png'} and {args.out / 'replay.png'} (site: {site})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
