"""How long the report takes for a tournament's worth of games (``harness report`` on ~2000 games).

    python bench/bench_report.py [--game priemspel] [--games 2000] [--keep DIR]

The records come from random legal playouts through the referee (no bot processes: the
report only reads records), each with some captured output, so the site is as large as a
real tournament's. Prints the time to build the site, pages per second, the size on disk,
and how many drawings the shared renderer made against the frames shown.
"""

from __future__ import annotations

import argparse
import random
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from harness.games import get_game  # noqa: E402
from harness.games.base import GameSpec  # noqa: E402
from harness.record import GameRecord, MoveRecord, PlayerRecord  # noqa: E402
from harness.report import build_site  # noqa: E402
from harness.report.replay import FrameRenderer  # noqa: E402

LOGINS = [f"student{i:02d}" for i in range(40)]


def playout(game: GameSpec, seed: int, settings: dict, max_plies: int = 400) -> GameRecord:
    """A random legal game recorded as the match runner would record it."""
    rng = random.Random(seed)
    rules = game.rules
    state = rules.initial(settings, random.Random(seed))
    a, b = rng.sample(LOGINS, 2)
    players = [PlayerRecord(a, f"{seed:064x}", stdout=f"thinking about game {seed}\n" * 20),
               PlayerRecord(b, f"{seed + 1:064x}")]
    record = GameRecord(game=game.name, settings=settings, seed=seed, players=players)
    while not rules.is_over(state) and len(record.moves) < max_plies:
        seat = rules.to_move(state)
        move = rng.choice(list(rules.legal_moves(state)))
        state = rules.apply(state, move)
        record.moves.append(MoveRecord(seat, rules.move_to_json(move), rng.uniform(0.001, 0.05),
                                       rng.uniform(0.001, 0.05), tuple(rules.scores(state))))
    record.plies = len(record.moves)
    record.scores = tuple(rules.scores(state))
    record.winner = rules.winner(state) if rules.is_over(state) else None
    record.end = "rules"
    return record


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="priemspel")
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--keep", type=Path, help="write the site here and keep it")
    args = parser.parse_args()
    game = get_game(args.game)
    settings = game.rules.parse_settings({})
    t0 = time.perf_counter()
    records = [playout(game, seed, settings) for seed in range(args.games)]
    t1 = time.perf_counter()
    frames = sum(len(r.moves) + 1 for r in records)
    print(f"{args.games} {game.title} playouts, {frames} positions: {t1 - t0:.1f} s to generate")

    renderers: list[FrameRenderer] = []  # the one build_site makes, to read how much it drew
    plain_init = FrameRenderer.__init__

    def init(self: FrameRenderer, *a: object, **k: object) -> None:
        plain_init(self, *a, **k)  # type: ignore[arg-type]
        renderers.append(self)

    FrameRenderer.__init__ = init  # type: ignore[method-assign]
    out = args.keep or Path(tempfile.mkdtemp(prefix="bench-report-"))
    rows = [{"rank": i + 1, "login": login, "games": 0, "score": 0.0} for i, login in enumerate(LOGINS)]
    t2 = time.perf_counter()
    build_site(out, title="bench", records=records, leaderboard=rows)
    t3 = time.perf_counter()
    size = sum(p.stat().st_size for p in out.rglob("*.html"))
    pages = sum(1 for _ in out.rglob("*.html"))
    print(f"build_site: {t3 - t2:.1f} s for {pages} pages ({pages / (t3 - t2):.0f} pages/s), "
          f"{size / 1e6:.1f} MB, {size / args.games / 1e3:.0f} kB per game page on average")
    print(f"drawings made: {sum(r.drawn for r in renderers)} for {frames} positions shown")
    if args.keep is None:
        shutil.rmtree(out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
