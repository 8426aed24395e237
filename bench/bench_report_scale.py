"""The standings and the report of a course-sized store: time a game and the process's peak memory.

    python bench/bench_report_scale.py --games 180000 [--bots 300] [--replays 20] [--keep DIR]

Builds a synthetic store (real SQLite, through :class:`ResultsStore`) of ``--games`` PriemSpel
games between ``--bots`` students: a pool of random legal playouts (so every replay page draws a
real game) dealt out to random pairs, with captured output, about one game in 200 ending with a
verdict against a bot. Then, in a fresh process, does what ``harness report`` does after the
games: the standings in one pass over the store, and the site read from the store one game at a
time (games list and bot pages paged, replays for ``--replays`` games a bot plus its failures).
Prints the time a game of each part, the pages written, and the peak resident memory
(``ru_maxrss``). Targets (issue 21): standings and report <= 1 ms a game, <= 150 MB.
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

POOL = 500  # distinct playouts; the store deals them out again and again


def build(folder: Path, games: int, bots: int) -> None:
    """``folder/subs`` of ``bots`` trivial submissions and ``folder/results/big`` with ``games`` games."""
    import dataclasses

    from bench_report import playout
    from harness.games import get_game
    from harness.record import PlayerRecord, Verdict
    from harness.tournament.store import ResultsStore

    for i in range(bots):
        (folder / "subs" / f"s{i:03d}").mkdir(parents=True, exist_ok=True)
        (folder / "subs" / f"s{i:03d}" / "player.py").write_text(f"class Player:  # {i}\n    pass\n")
    game = get_game("priemspel")
    settings = game.rules.parse_settings({})
    pool = [playout(game, seed, settings, max_plies=60) for seed in range(POOL)]
    rng = random.Random(1)
    with ResultsStore(folder / "results" / "big") as store:
        assert store.db is not None
        for n in range(games):
            a, b = rng.sample(range(bots), 2)
            base = pool[n % POOL]
            players = [PlayerRecord(f"s{a:03d}", f"{a:064x}", bot_name=f"bot{a}", stdout="thinking\n" * 10),
                       PlayerRecord(f"s{b:03d}", f"{b:064x}", bot_name=f"bot{b}")]
            if rng.random() < 0.005:
                players[1] = dataclasses.replace(players[1], verdict=Verdict.TIMEOUT, reason="zet took 2.1 s")
            record = dataclasses.replace(base, seed=n, players=players)
            store.db.execute("INSERT INTO games VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
                             (f"{n:032x}", "big", record.game, n, json.dumps([p.login for p in players]),
                              json.dumps([p.sha256 for p in players]),
                              json.dumps([p.verdict.value for p in players]), record.winner, 0, 1,
                              float(n), json.dumps(record.to_json())))
        store.db.commit()


def measure(folder: Path, replays: int | None, out: Path) -> None:
    """In this process: standings streamed from the store, then the site, timed."""
    from harness.config import Awards, Job, SubmissionRef, Tier
    from harness.report.job import build_job_site
    from harness.sandbox.limits import Limits
    from harness.tournament.results import stored_results
    from harness.tournament.schedule import load_entrants

    subs = tuple(SubmissionRef(p.name, p) for p in sorted((folder / "subs").iterdir()))
    job = Job(name="big", game="priemspel", format="round_robin", submissions=subs, reference=(), opponent=None,
              settings=({},), games=1, seed=1, tournament=True, limits=Limits(), workers=1,
              awards=Awards("tiers", tiers=(Tier(3, top=0.1), Tier(2, top=0.2), Tier(1, top=0.4))),
              results=folder / "results" / "big")
    started = time.perf_counter()
    roll = load_entrants(job)
    results = stored_results(job, roll, None, 0, light=False)  # every stored game, as job_results reads them
    results.total = results.done
    ranked = time.perf_counter()
    after_standings = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    build_job_site(results, out, replays=replays)
    done = time.perf_counter()
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    n = len(results.keys)
    replay_pages = sum(1 for _ in (out / "games").glob("*.html"))
    list_pages = sum(1 for _ in out.glob("games*.html"))
    bot_pages = sum(1 for _ in (out / "bots").glob("*.html"))
    print(f"{n} games: standings {ranked - started:.1f} s ({1000 * (ranked - started) / n:.3f} ms a game), "
          f"report {done - ranked:.1f} s ({1000 * (done - ranked) / n:.3f} ms a game); "
          f"total {1000 * (done - started) / n:.3f} ms a game, peak {peak:.0f} MB "
          f"({after_standings:.0f} MB after the standings)")
    print(f"pages: {replay_pages} replays, {list_pages} pages of the games list, {bot_pages} bot pages")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=180_000)
    ap.add_argument("--bots", type=int, default=300)
    ap.add_argument("--replays", default="20", help="replays per bot, or 'all'")
    ap.add_argument("--store", type=Path, help="measure this folder of an earlier build instead of building one")
    ap.add_argument("--keep", type=Path, help="write the site here and keep it")
    ap.add_argument("--measure", help=argparse.SUPPRESS)
    args = ap.parse_args()
    replays = None if args.replays == "all" else int(args.replays)
    if args.measure:
        measure(Path(args.measure), replays, args.keep)
        return
    folder = args.store
    if folder is None:
        folder = Path(tempfile.mkdtemp(prefix="bench-report-scale-"))
        started = time.perf_counter()
        build(folder, args.games, args.bots)
        size = (folder / "results" / "big" / "results.sqlite").stat().st_size / 1e6
        print(f"built {args.games} games ({size:.0f} MB store) in {time.perf_counter() - started:.0f} s in {folder}")
    out = args.keep or Path(tempfile.mkdtemp(prefix="bench-report-site-"))
    subprocess.run([sys.executable, __file__, "--measure", str(folder), "--replays", args.replays,
                    "--keep", str(out)], check=True)
    if args.keep is None:
        shutil.rmtree(out)


if __name__ == "__main__":
    main()
