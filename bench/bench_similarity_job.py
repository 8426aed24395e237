"""``harness similarity`` end to end on a synthetic 300-student job: code and behaviour, timed.

The job is a Blokovanie gauntlet against the seed's random player, shaped like the shipped
``blokovanie-grading`` with more seeds (three boards, ``--seeds`` games per board, seats
alternating: 36 stored games per student by default, 10,800 in all). Its store is written
directly (no sandbox): each synthetic student plays by one of ``--families`` ranking rules of
the free cells (students who learnt the same idea) and leaves it with a probability of its own
per move (its own tie-breaks and mistakes), so students of a family share the first positions of
many games, as a course's do. Planted: ``--copies`` disguised code copies (tests/report/copier.py)
that play exactly as their original, and as many from-scratch mimics (code of their own) that
also play exactly as another student. The opponent answers each position the same way every
time (the harness seeds a bot's random generator per game).

It times ``python -m harness similarity JOB --format json`` in a child process (fingerprints,
every pair's code score, the store streamed into the position index, every pair's behaviour),
reports the child's peak RSS, and checks that the planted pairs, and only they, are flagged.

    python bench/bench_similarity_job.py                 # 300 submissions, 44,850 pairs
    python bench/bench_similarity_job.py --subs 100 --seeds 4
    python bench/bench_similarity_job.py --replay        # and the bots asked each other's positions
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
import zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from bench_similarity import submission  # noqa: E402
from harness.config import load_config  # noqa: E402
from harness.games import get_game  # noqa: E402
from harness.record import GameRecord, MoveRecord, PlayerRecord  # noqa: E402
from harness.tournament.store import ResultsStore  # noqa: E402
from tests.report.copier import disguise  # noqa: E402

BOARDS = [{"rows": 5, "cols": 6}, {"rows": 7, "cols": 7}, {"rows": 10, "cols": 12}]
OPPONENT = "reference_players/blokovanie/random.py"
HEAD = '"""A Blokovanie player."""\n\nimport zlib\n'
# Every student's Player: its family's ranking of the free cells, left with a probability of its own
# (a function of the board alone, so the bot asked a position again answers it the same way).
PLAYER = """

class Player:
    def __init__(self, name):
        self.name = name

    def move(self, board):
        cells = [(r, c) for r in range(len(board)) for c in range(len(board[0])) if board[r][c] == '-']
        ranked = sorted(cells, key=lambda c: zlib.crc32(repr((FAMILY, c)).encode()))
        if len(ranked) > 1 and zlib.crc32(repr((OWN, tuple(board))).encode()) % 1000 < WANDER:
            return ranked[1 + zlib.crc32(repr((OWN, tuple(board), 1)).encode()) % (len(ranked) - 1)]
        return ranked[0]
"""


def stable(*parts: object) -> int:
    """A hash that is the same in every process (str's hash is not)."""
    return zlib.crc32(repr(parts).encode())


class Student:
    """A ranking rule of the free cells (its family's) left with probability ``wander`` per move."""

    def __init__(self, family: int, wander: float, own: int) -> None:
        self.family, self.wander, self.own = family, wander, own

    def choose(self, cells: list[tuple[int, int]], board: tuple[str, ...]) -> tuple[int, int]:
        """What :data:`PLAYER` with this student's constants answers."""
        ranked = sorted(cells, key=lambda c: stable(self.family, c))
        if len(ranked) > 1 and stable(self.own, board) % 1000 < int(self.wander * 1000):
            return ranked[1 + stable(self.own, board, 1) % (len(ranked) - 1)]
        return ranked[0]

    def code(self, rng: random.Random) -> str:
        """A submission: helpers of its own and :data:`PLAYER` with this student's constants."""
        constants = f"\nFAMILY = {self.family}\nOWN = {self.own}\nWANDER = {int(self.wander * 1000)}\n"
        return submission(rng, head=HEAD + constants) + PLAYER


def play(rules, settings: dict, seed: int, seat: int, student: Student, login: str, sha: str) -> GameRecord:
    state = rules.initial(settings, random.Random(seed))
    moves = []
    while not rules.is_over(state):
        cells = list(rules.legal_moves(state))
        if rules.to_move(state) == seat:
            move = student.choose(cells, tuple(state.lines()))
        else:  # the opponent: the same answer to the same position in the same game
            move = cells[stable("opponent", seed, state.blocked) % len(cells)]
        moves.append(MoveRecord(rules.to_move(state), rules.move_to_json(move), 0.001, 0.001))
        state = rules.apply(state, move)
    seats = [PlayerRecord(login, sha), PlayerRecord("random", "r" * 64)]
    if seat == 1:
        seats.reverse()
    return GameRecord("blokovanie", dict(settings), seed, seats, winner=rules.winner(state),
                      scores=rules.scores(state), plies=len(moves), moves=moves, end="rules")


def build(root: Path, args: argparse.Namespace) -> tuple[str, set[tuple[str, str]], int]:
    """The job folder: tournaments.yaml, the submissions, the store. Returns (job, planted, games)."""
    rng = random.Random(args.seed)
    independent = args.subs - 2 * args.copies
    students: dict[str, Student] = {}
    texts: dict[str, str] = {}
    for i in range(independent):
        name = f"s{i:04d}"
        students[name] = Student(i % args.families, rng.uniform(0.15, 0.5), i)
        texts[name] = students[name].code(rng)
    planted = set()
    for n, original in enumerate(rng.sample(sorted(texts), 2 * args.copies)):
        name = f"copy{n:03d}" if n < args.copies else f"mimic{n:03d}"
        students[name] = students[original]
        texts[name] = disguise(texts[original], salt=f"z{n}") if n < args.copies else students[name].code(rng)
        planted.add(tuple(sorted((original, name))))
    for name, text in texts.items():
        (root / "subs" / name).mkdir(parents=True)
        (root / "subs" / name / "player.py").write_text(text)
    (root / "tournaments.yaml").write_text(
        f"jobs:\n  grading:\n    game: blokovanie\n    format: gauntlet\n    submissions: subs\n"
        f"    opponent: {ROOT / OPPONENT}\n    settings: {json.dumps(BOARDS)}\n    games: {args.seeds}\n"
        f"    seed: 1\n")
    job = load_config(root / "tournaments.yaml").jobs["grading"]
    rules = get_game("blokovanie").rules
    games = 0
    with ResultsStore(job.results) as store:
        store.connection.execute("PRAGMA synchronous = OFF")  # a bench's store: no need to survive a crash
        for b, board in enumerate(BOARDS):
            settings = rules.parse_settings(board)
            for g in range(args.seeds):
                seed = 1000 * b + g
                for name, student in students.items():
                    record = play(rules, settings, seed, g % 2, student, name, f"{stable(name):064x}")
                    store.put(f"{name}-{b}-{g}", "grading", record)
                    games += 1
    return "grading", planted, games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--subs", type=int, default=300)
    parser.add_argument("--copies", type=int, default=10, help="code copies, and as many behaviour mimics")
    parser.add_argument("--families", type=int, default=25, help="ranking rules the independent students share")
    parser.add_argument("--seeds", type=int, default=12, help="games per board and student")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--replay", action="store_true", help="also time --replay (bots asked in the sandbox)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        start = time.perf_counter()
        job, planted, games = build(root, args)
        print(f"built {args.subs} submissions and {games} stored games in {time.perf_counter() - start:.1f} s")
        start = time.perf_counter()
        done = subprocess.run([sys.executable, "-m", "harness", "similarity", job, "--format", "json",
                               *(["--replay"] if args.replay else [])], cwd=root,
                              capture_output=True, text=True, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
        took = time.perf_counter() - start
        if done.returncode != 0:
            sys.exit(done.stderr)
        peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
        pairs = json.loads(done.stdout)
        flagged = {(p["a"], p["b"]) for p in pairs if p["suspicious"]}
        compared = sum(p["behaviour"] is not None for p in pairs)
        if args.replay:
            asked = [p for p in pairs if p["replay"] is not None]
            print(f"--replay: {len(asked)} pairs asked, {sum(p['replayed_positions'] for p in asked)} answers")
        positions = sum(p["positions"] for p in pairs)
        print(f"harness similarity: {len(pairs)} pairs ({compared} with shared positions, {positions} pair-positions "
              f"compared) in {took:.1f} s, peak RSS {peak:.0f} MB")
        print(f"planted pairs flagged: {len(planted & flagged)} of {len(planted)}; other pairs flagged: "
              f"{len(flagged - planted)}")


if __name__ == "__main__":
    main()
