"""Own time on a shared grader: a legal Štreky bot beside other harness runs, busy loops and memory.

    python bench/bench_shared_grader.py [--games 4] [--runs 2] [--hogs 4] [--memory 2048]
                                        [--policy cpu] [--quiet-first] [--burn 0.85]

Issue 26 saw a sample Štreky bot whose slowest move used 218 ms of CPU judged at 1.01 s of own
time at load 10-15 with other harness runs on the machine. This plays the sample submission
``correct_student`` against the course's Brute (Štreky's course and tournament deals) under a
job's limits, first on the machine as it is (``--quiet-first``), then with ``--runs`` other
harness runs (round robins of the reference players, two games at once each, with their bots),
``--hogs`` busy loops and ``--memory`` MiB held by another process. For every call of the bot
it records, from the kernel (read from outside, as the parent does):

* wall, CPU, the wait credited (run-queue wait of the bot's threads and the parent's reading
  thread) and so the own time the clocks judge;
* the candidates for own time that is not CPU time: the worker's clock thread's run-queue wait
  (while it waits for a CPU it may hold or want the GIL the bot thread needs: that wait was
  not credited before this change), the bot thread's voluntary sleeps (a GIL hand-off is one),
  and the worker's major page faults (an I/O sleep that is not a CPU wait).

Prints one row per load: the load average, the per-call figures at the median and at the
slowest own time, and the largest own-time excess over CPU time with what explains it.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from harness.games import get_game  # noqa: E402
from harness.match import play_match  # noqa: E402
from harness.sandbox import Limits  # noqa: E402
from harness.sandbox.process import BotProcess  # noqa: E402
from tests.sandbox.loadgen import REPO, SharedLoad, load_average  # noqa: E402

GAME = get_game("streky")
BOT = (REPO / "submissions/streky/correct_student/player.py").read_bytes()
BRUTE = (REPO / "reference_players/streky/brute.py").read_bytes()
# --burn: the same bot, computing that long (CPU time) before each move, as a bot near its limit does.
BURN = """

_Player = Player


class Player(_Player):
    def play(self, newCardOnDesk):
        start = time.process_time()
        while time.process_time() - start < {seconds}:
            pass
        return super().play(newCardOnDesk)
"""


@dataclass
class Sample:
    """One call of the bot, as the parent judged it, and what the kernel says happened in it."""

    wall: float
    cpu: float
    waited: float
    clock_wait: float  # the worker's clock thread's run-queue wait during the call
    voluntary: int  # the bot thread's voluntary context switches during the call
    majflt: int  # the worker's major page faults during the call
    slept: float  # the bot thread's time neither running nor waiting for a CPU during the call

    @property
    def own(self) -> float:
        return self.wall - self.waited


def _schedstat(pid: int, tid: int) -> tuple[int, int]:
    """A thread's (run, run-queue wait) so far, in ns."""
    try:
        with open(f"/proc/{pid}/task/{tid}/schedstat") as f:
            run, wait = f.read().split()[:2]
            return int(run), int(wait)
    except (OSError, ValueError):
        return 0, 0


def _voluntary(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/task/{pid}/status") as f:
            for line in f:
                if line.startswith("voluntary_ctxt_switches:"):
                    return int(line.split()[1])
    except (OSError, ValueError):
        pass
    return 0


def _majflt(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return int(f.read().rsplit(")", 1)[1].split()[9])
    except (OSError, ValueError, IndexError):
        return 0


def instrument(samples: list[Sample], login: str) -> None:
    """Record every call of the bot named ``login`` (a wrapper around BotProcess.call)."""
    call = BotProcess.call

    def recorded(bot: BotProcess, c: object) -> object:
        pid = bot.worker_pid
        if bot.label != login or pid is None or not bot.clock:
            return call(bot, c)  # type: ignore[arg-type]
        clock_tids = [int(t) for t in bot.clock.waits.skip] or [0]
        before = (_schedstat(pid, clock_tids[0])[1], _voluntary(pid), _majflt(pid), _schedstat(pid, pid))
        result = call(bot, c)  # type: ignore[arg-type]
        after = (_schedstat(pid, clock_tids[0])[1], _voluntary(pid), _majflt(pid), _schedstat(pid, pid))
        if result.ok and result.cpu is not None and getattr(c, "method", "") == "play":
            busy = (after[3][0] - before[3][0] + after[3][1] - before[3][1]) / 1e9
            samples.append(Sample(result.wall, result.cpu, result.waited, (after[0] - before[0]) / 1e9,
                                  after[1] - before[1], after[2] - before[2], max(0.0, result.wall - busy)))
        return result

    BotProcess.call = recorded  # type: ignore[method-assign]


def play(games: int, limits: Limits, samples: list[Sample], burn: float = 0.0) -> list[str]:
    """Play ``games`` games of the sample bot against Brute; the non-ok verdicts of the bot."""
    bad = []
    bot = BOT if not burn else b"import time\n" + BOT + BURN.format(seconds=burn).encode()
    for seed in range(games):
        settings = {"cards": "tournament" if seed % 2 else "course"}
        record = play_match(GAME, [bot, BRUTE][:: 1 if seed % 2 == 0 else -1], settings=settings, seed=seed,
                            logins=["bot", "brute"][:: 1 if seed % 2 == 0 else -1], limits=limits)
        me = next(p for p in record.players if p.login == "bot")
        if me.verdict.value != "ok" or me.reason:
            bad.append(f"{me.verdict.value}: {me.reason}")
    return bad


def row(label: str, load: float, samples: list[Sample], bad: list[str]) -> str:
    if not samples:
        return f"{label}: no calls measured"
    slow = max(samples, key=lambda s: s.own)
    excess = max(samples, key=lambda s: s.own - s.cpu)
    sleepy = max(samples, key=lambda s: s.slept)
    med = statistics.median(s.own for s in samples)
    return (f"{label:<22} load {load:5.1f}  calls {len(samples):4d}  own median {med * 1000:6.1f} ms  "
            f"slowest own {slow.own * 1000:6.1f} ms (cpu {slow.cpu * 1000:5.1f}, wall {slow.wall * 1000:6.1f})  "
            f"max own-cpu {(excess.own - excess.cpu) * 1000:6.1f} ms [clock thread waited "
            f"{excess.clock_wait * 1000:5.1f} ms, {excess.voluntary} voluntary switches, {excess.majflt} major faults]"
            f"  bot thread slept at most {sleepy.slept * 1000:6.1f} ms of a call (clock thread waited "
            f"{sleepy.clock_wait * 1000:5.1f} ms, {sleepy.voluntary} voluntary switches)"
            f"  verdicts/warnings: {len(bad)}" + (f" ({bad[0][:120]})" if bad else ""))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--runs", type=int, default=2, help="other harness runs")
    parser.add_argument("--hogs", type=int, default=4, help="busy loops")
    parser.add_argument("--memory", type=int, default=2048, help="MiB held by another process")
    parser.add_argument("--policy", default="cpu", choices=("cpu", "wall"))
    parser.add_argument("--quiet-first", action="store_true", help="also play on the machine as it is")
    parser.add_argument("--burn", type=float, default=0.0, help="CPU seconds the bot computes before each move")
    args = parser.parse_args()
    limits = Limits.default(GAME, args.policy)
    samples: list[Sample] = []
    instrument(samples, "bot")
    print(f"{os.cpu_count()} cores; {args.games} games of correct_student"
          + (f" (computing {args.burn:g} s before each move)" if args.burn else "")
          + f" vs Brute under the {args.policy} policy")
    if args.quiet_first:
        load = load_average()
        bad = play(args.games, limits, samples, args.burn)
        print(row("as it is", max(load, load_average()), samples, bad), flush=True)
        samples.clear()
    with SharedLoad(runs=args.runs, hogs=args.hogs, memory_mib=args.memory) as shared:
        if not shared.ready():
            print("the other harness runs did not start playing", file=sys.stderr)
            raise SystemExit(1)
        time.sleep(5)  # let the load average climb
        load = load_average()
        bad = play(args.games, limits, samples, args.burn)
        label = f"{args.runs} runs + {args.hogs} hogs"
        print(row(label, max(load, load_average()), samples, bad), flush=True)


if __name__ == "__main__":
    main()
