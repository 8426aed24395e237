"""Regenerate the README's screenshots (docs/*.png) from real jobs in headless Chromium.

    python docs/make_screenshots.py                 # PriemSpel (the default)
    python docs/make_screenshots.py --game streky   # any installed game with sample submissions

It sets up a small course in a temporary folder (the game's sample submissions, a round robin
with its reference players, ``--seeds`` seeds) and runs it with the harness's own job runner
three times, as three days of a daily tournament: one student breaks a working bot and another
fixes a broken one between the runs. It photographs the job's report: its leaderboard
(``leaderboard.png``), the replay of the longest game (``replay.png``) and the history of the
runs (``history.png``). Then it plays one game on a big board (``--big``: a Štreky 33x33
tournament deal, or an 11x11 Quoridor) and photographs its replay as a small laptop shows it
(``replay-1366x650.png``: the board, the controls and the moves fit the window) and as a phone
does (``replay-390.png``, the whole page at 390 px wide). Needs Playwright's Python package and
a Chromium (Debian's ``chromium``); never run ``playwright install``.
"""

from __future__ import annotations

import argparse
import re
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from harness.config import load_config  # noqa: E402
from harness.games import get_game  # noqa: E402
from harness.match import play_match  # noqa: E402
from harness.report import write_replay  # noqa: E402
from harness.report.job import build_job_site  # noqa: E402
from harness.tournament.execute import LocalExecutor, run_job  # noqa: E402
from harness.tournament.results import job_results  # noqa: E402

# --big: (game, reference players in seat order, settings, seed) of the big-board game.
BIG_GAMES: dict[str, tuple[str, tuple[str, str], dict[str, Any], int]] = {
    "streky": ("streky", ("strong", "brute"), {"cards": "tournament"}, 3),
    "quoridor": ("quoridor", ("runner", "waller"), {"sizex": 11, "sizey": 11}, 3),
}
DEADLINE_MS = 30_000  # the longest a page may take to show its first drawing
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]


def course(game: str, seeds: int, folder: Path) -> Path:
    """A course folder: the game's sample submissions and a round robin with its reference players."""
    shutil.copytree(REPO / "submissions" / game, folder / "submissions")
    refs = ", ".join(str(p) for p in sorted((REPO / "reference_players" / game).glob("*.py")))
    config = folder / "tournaments.yaml"
    config.write_text(f"""jobs:
  {game}-daily:
    description: The daily round robin of the sample submissions and the reference players.
    game: {game}
    format: round_robin
    submissions: submissions
    reference: [{refs}]
    games: {seeds}
    awards: {{policy: tiers, tiers: [{{top: 0.1, points: 3}}, {{top: 0.2, points: 2}}, {{top: 0.4, points: 1}}]}}
""")
    return config


def three_days(config: Path) -> Any:
    """Run the job three times; between runs a student breaks a bot and another fixes theirs."""
    (job,) = load_config(config).resolve(load_config(config).names[0])
    standings = None
    for day in range(3):
        run_job(job, LocalExecutor(2), standings_of=lambda j: [r.to_json() for r in job_results(j).rows])
        results = job_results(job)
        print(f"  day {day + 1}: {results.done} games stored", file=sys.stderr)
        students = [r for r in results.rows if not r.reference and not r.absent]
        good = [r.login for r in students if not r.disqualified]
        bad = [r.login for r in students if r.disqualified]
        folder = config.parent / "submissions"
        if day == 0 and len(good) > 1 and bad:  # the best student breaks theirs (a copy of a broken one)
            (folder / good[0] / "player.py").write_bytes((folder / bad[0] / "player.py").read_bytes())
        if day == 1 and bad:  # a broken one is fixed (a copy of a working one)
            (folder / bad[-1] / "player.py").write_bytes((folder / good[-1] / "player.py").read_bytes()
                                                         + b"\n# fixed\n")
        standings = results
    return standings


def big_game(name: str, folder: Path) -> Path:
    """Play the big-board game ``name`` (see :data:`BIG_GAMES`) and write its replay page."""
    game, players, settings, seed = BIG_GAMES[name]
    sources = [(REPO / "reference_players" / game / f"{p}.py").read_bytes() for p in players]
    record = play_match(get_game(game), sources, settings=settings, seed=seed, logins=list(players))
    print(f"  {' vs '.join(players)} ({name}, {settings}): {record.plies} plies", file=sys.stderr)
    return write_replay(record, folder / f"{name}.html")


def show(page: Any, replay: Path, at: float) -> None:
    """Open ``replay`` at the position ``at`` (0 the start, 1 the end) and wait for its drawing."""
    page.goto(replay.as_uri())
    page.locator("#viewer.ready").wait_for(state="attached", timeout=DEADLINE_MS)
    last = int(page.locator("#counter").inner_text().split(" / ")[1])
    frame = int(last * at + 0.5)
    page.goto(replay.as_uri() + f"#{frame}")  # (only the fragment changes: no reload)
    page.locator("#counter").filter(has_text=re.compile(f"^{frame} / ")).wait_for(timeout=DEADLINE_MS)
    page.locator("#board").evaluate("img => img.decode()")  # the new drawing is painted


def photograph(site: Path, replay: Path, big: Path, out: Path, chromium: str) -> list[Path]:
    """Screenshots of the leaderboard, of the replay at its middle position, of the history of
    the runs, and of the big game's replay two thirds in, in a 1366x650 window and (the whole
    page) 390 px wide."""
    from playwright.sync_api import sync_playwright

    shots = [out / "leaderboard.png", out / "replay.png", out / "history.png", out / "replay-1366x650.png",
             out / "replay-390.png"]
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=ARGS)
        page = browser.new_page(viewport={"width": 1280, "height": 800}, device_scale_factor=1)
        page.goto((site / "index.html").as_uri())
        page.screenshot(path=str(shots[0]), full_page=True)
        show(page, replay, 0.5)
        page.screenshot(path=str(shots[1]), full_page=False)
        page.goto((site / "history.html").as_uri())
        page.locator("#rank-chart").evaluate("img => img.decode()")
        page.screenshot(path=str(shots[2]), full_page=True)
        for viewport, shot, full in (({"width": 1366, "height": 650}, shots[3], False),
                                     ({"width": 390, "height": 844}, shots[4], True)):
            page = browser.new_page(viewport=viewport, device_scale_factor=1)
            show(page, big, 2 / 3)
            page.screenshot(path=str(shot), full_page=full)
        browser.close()
    return shots


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="priemspel")
    parser.add_argument("--seeds", type=int, default=1, help="seeds per pair and seating (default 1)")
    parser.add_argument("--big", choices=sorted(BIG_GAMES), default="streky",
                        help="the big-board game of replay-1366x650.png and replay-390.png (default streky)")
    parser.add_argument("--out", type=Path, default=REPO / "docs", help="where the PNGs go (default docs/)")
    parser.add_argument("--site", type=Path, help="keep the generated site in this folder")
    parser.add_argument("--chromium", default=shutil.which("chromium") or "/usr/bin/chromium")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="harness-screens-"))
    config = course(args.game, args.seeds, folder)
    results = three_days(config)
    site = args.site or folder / "site"
    build_job_site(results, site)
    clean = [i for i, r in enumerate(results.records) if not any(p.verdict.charged for p in r.players)] or [0]
    longest = max(clean, key=lambda i: results.records[i].plies)
    big = big_game(args.big, site)
    shots = photograph(site, site / "games" / f"{results.keys[longest]}.html", big, args.out, args.chromium)
    print(f"wrote {', '.join(str(s) for s in shots)} (site: {site})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
