"""What dropping a bot to its own uid costs per bot start, against bubblewrap's user namespace.

    python bench/bench_uid_drop.py [--starts 20]

Run as root (where the harness drops bots). A trivial bot is started with
``BotProcess(...).load()`` and closed, many times, in two bubblewrap set-ups, interleaved so a
change of the machine's load touches both alike: ``drop`` (the sandbox built as root, then
``setpriv`` to the bot's uid: what a root harness does) and ``userns`` (``--unshare-user``,
``nobody`` inside, root outside: what it did before). Prints the median start per set-up and
the median of the per-round differences.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from harness.games import get_game  # noqa: E402
from harness.sandbox import bubblewrap, privileges  # noqa: E402
from harness.sandbox.limits import Limits  # noqa: E402
from harness.sandbox.process import BotProcess  # noqa: E402

GAME = get_game("priemspel")
SOURCE = (Path(__file__).resolve().parents[1] / "reference_players/priemspel/basis.py").read_bytes()


def start(support: bubblewrap.BwrapSupport) -> float:
    """Seconds to start and load one bot under ``support`` (then it is closed)."""
    bubblewrap._SUPPORT = support
    t0 = time.perf_counter()
    with BotProcess(GAME, SOURCE, limits=Limits(isolation="bwrap").with_game(GAME)) as bot:
        loaded = bot.load()
        elapsed = time.perf_counter() - t0
        if not loaded.ok:
            raise SystemExit(f"the bot did not load: {loaded.reason}")
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--starts", type=int, default=20)
    args = parser.parse_args()
    found = bubblewrap.support()
    if not (privileges.is_root() and found.drop):
        raise SystemExit(f"needs root with bubblewrap and setpriv here: {found}")
    setups = {"drop": found, "userns": bubblewrap.BwrapSupport(found.path, userns=True, version=found.version)}
    times: dict[str, list[float]] = {name: [] for name in setups}
    for _ in range(args.starts):
        for name, support in setups.items():
            times[name].append(start(support))
    for name, values in times.items():
        print(f"{name:7} median start {statistics.median(values) * 1000:7.1f} ms over {len(values)}")
    diffs = [d - u for d, u in zip(times["drop"], times["userns"])]
    print(f"drop - userns: median {statistics.median(diffs) * 1000:+.1f} ms per start")


if __name__ == "__main__":
    main()
