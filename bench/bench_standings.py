"""Standings, ratings and exports of a large store: time a game and the coordinator's peak memory.

    python bench/bench_standings.py --games 50000 [--bots 300] [--moves 60]

Builds a synthetic store (real SQLite, through :class:`ResultsStore`) of a round robin's
worth of Štreky-like two-player records, each with ``--moves`` recorded moves and some
captured output, then, in a fresh process, times what ``harness leaderboard`` and ``harness
export`` do: read the store, tally, fit the ratings, rank, write the gradebook CSV. Prints the
time a game and the process's peak resident memory (``ru_maxrss``). Targets (issue 21):
<= 1 ms a game and <= 150 MB for 50,000 games.
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

REPO = Path(__file__).resolve().parents[1]


def build(folder: Path, games: int, bots: int, moves: int) -> None:
    """``folder/subs`` of ``bots`` trivial submissions and ``folder/results/big`` with ``games`` games."""
    from harness.record import GameRecord, MoveRecord, PlayerRecord
    from harness.tournament.store import ResultsStore

    for i in range(bots):
        (folder / "subs" / f"s{i:03d}").mkdir(parents=True, exist_ok=True)
        (folder / "subs" / f"s{i:03d}" / "player.py").write_text(f"class Player:  # {i}\n    pass\n")
    rng = random.Random(1)
    strength = [rng.gauss(0, 1) for _ in range(bots)]
    with ResultsStore(folder / "results" / "big") as store:
        assert store.db is not None
        for n in range(games):
            a, b = rng.sample(range(bots), 2)
            win = 0 if rng.random() < 1 / (1 + 2.718 ** (strength[b] - strength[a])) else 1
            players = [PlayerRecord(f"s{a:03d}", "0" * 64, bot_name=f"bot{a}", stdout="thinking\n" * 10),
                       PlayerRecord(f"s{b:03d}", "1" * 64, bot_name=f"bot{b}")]
            record = GameRecord(game="streky", settings={"cards": "course"}, seed=n, players=players, winner=win,
                                scores=(float(10 * (1 - win)), float(10 * win)), places=(1 + win, 2 - win),
                                plies=moves, end="rules",
                                moves=[MoveRecord(ply % 2, [ply, ply + 1], 0.001, 0.002) for ply in range(moves)])
            store.db.execute("INSERT INTO games VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
                             (f"{n:032x}", "big", "streky", n, json.dumps([p.login for p in players]),
                              json.dumps([p.sha256 for p in players]), json.dumps(["ok", "ok"]), win, 0, 1,
                              float(n), json.dumps(record.to_json())))
        store.db.commit()


def measure(folder: Path) -> None:
    """In this process: what the leaderboard and the gradebook export do, timed."""
    from harness.config import Awards, Job, SubmissionRef
    from harness.sandbox.limits import Limits
    from harness.report.export import feedback, gradebook_csv, gradescope, leaderboard
    from harness.tournament.results import stored_results
    from harness.tournament.schedule import load_entrants

    subs = tuple(SubmissionRef(p.name, p) for p in sorted((folder / "subs").iterdir()))
    job = Job(name="big", game="streky", format="round_robin", submissions=subs, reference=(), opponent=None,
              settings=({"cards": "course"},), games=1, seed=1, tournament=True, limits=Limits(), workers=1,
              awards=Awards("tiers", tiers=()), results=folder / "results" / "big")

    started = time.perf_counter()
    roll = load_entrants(job)
    results = stored_results(job, roll, None, 0, light=True)  # every stored game, as job_results reads them
    results.total = results.done
    ranked = time.perf_counter()
    text = leaderboard(results, "csv") + gradebook_csv(results) + json.dumps(gradescope([results]))
    text += "".join(feedback([results]).values())
    done = time.perf_counter()
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    n = len(results.keys)
    print(f"{n} games: read, standings and ratings {ranked - started:.1f} s, "
          f"exports {done - ranked:.2f} s ({len(text)} bytes); {1000 * (done - started) / n:.3f} ms a game, "
          f"peak {peak:.0f} MB")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=50_000)
    ap.add_argument("--bots", type=int, default=300)
    ap.add_argument("--moves", type=int, default=60)
    ap.add_argument("--measure", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.measure:
        measure(Path(args.measure))
        return
    folder = Path(tempfile.mkdtemp(prefix="bench-standings-"))
    started = time.perf_counter()
    build(folder, args.games, args.bots, args.moves)
    size = (folder / "results" / "big" / "results.sqlite").stat().st_size / 1e6
    print(f"built {args.games} games ({size:.0f} MB store) in {time.perf_counter() - started:.0f} s in {folder}")
    subprocess.run([sys.executable, __file__, "--measure", str(folder)], check=True)


if __name__ == "__main__":
    main()
