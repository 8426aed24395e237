"""Where a move's time goes, in the parent and in the bot's process: a profile of each side.

    python bench/profile_move.py cprofile [--moves 3000] [--top 25]
    python bench/profile_move.py callgrind [--moves 1000]

Both run a trivial bot (as ``bench_overhead.py`` does) in plain mode (no bubblewrap, so the
bot's interpreter can be wrapped), with its cgroup, two bots taking turns (so the stop and
resume of the bot whose turn it is not are on the path).

* ``cprofile``: the parent's calls under :mod:`cProfile`, and the bot thread of each worker
  under its own profiler (enabled when the thread starts, before any bot code; the figures
  are written to a descriptor opened before the guard is armed). Prints the functions with the
  most own time per move on each side. The profiler's own cost inflates small functions: read
  the ranking and the call counts, not the absolute microseconds.
* ``callgrind``: both processes under valgrind's callgrind; instructions per call in each
  (the difference between a run of ``--moves`` and one of twice as many, so start-up cancels).
  Instruction counts barely move on a busy machine, unlike times.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import cProfile
import io
import marshal
import os
import pstats
import shutil
import subprocess
import sys
import tempfile
import textwrap
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from harness.games import get_game  # noqa: E402
from harness.games.base import Call, WireObject  # noqa: E402
from harness.sandbox import BotProcess, Limits  # noqa: E402
from harness.sandbox import spawn as spawn_module  # noqa: E402

TRIVIAL = b"class Player:\n    def __init__(self, name):\n        pass\n    def zet(self, spel):\n        return 2\n"
GAME = get_game("priemspel")
VIEW = WireObject("Spel", {"_N": 5, "_positie": 0, "_eind": 23})

# Runs the compiled worker as __main__ with its bot thread profiled; the statistics go to the
# descriptor in $PROFILE_FD when the worker exits (its os._exit is bound at import: patched first).
WRAPPER = textwrap.dedent("""
    import cProfile, marshal, os, runpy, sys, threading
    fd = int(os.environ.pop("PROFILE_FD"))
    real_exit, write = os._exit, os.write
    prof = cProfile.Profile()
    def start(*_):
        threading.setprofile(None)
        sys.setprofile(None)
        prof.enable()
    threading.setprofile(start)
    def exit_(code):
        prof.disable()
        prof.create_stats()
        data = marshal.dumps(prof.stats)
        while data:
            data = data[write(fd, data):]
        real_exit(code)
    os._exit = exit_
    sys.argv = sys.argv[1:]
    runpy.run_path(sys.argv[0], run_name="__main__")
""")


def plain_limits() -> Limits:
    return replace(Limits().with_game(GAME), isolation="plain")


def play(moves: int, prof: cProfile.Profile | None = None) -> None:
    """Two trivial bots answering in turn, ``moves`` calls each (the moves alone under ``prof``).

    At the end the bots' request channels are closed, so their workers exit on their own.
    """
    call = Call("zet", (VIEW,), "move")
    with BotProcess(GAME, TRIVIAL, limits=plain_limits()) as a, BotProcess(GAME, TRIVIAL, limits=plain_limits()) as b:
        for bot in (a, b):
            if not bot.load().ok or not bot.call(Call("__init__", ("x",), "init")).ok:
                raise SystemExit(f"the trivial bot did not start: {bot.dead}")
        if prof is not None:
            prof.enable()
        for _ in range(moves):
            for bot in (a, b):
                result = bot.call(call)
                if result.value != 2:
                    raise SystemExit(f"unexpected answer {result}")
        if prof is not None:
            prof.disable()
        for bot in (a, b):
            assert bot._req_w is not None and bot.proc is not None
            bot._resume()  # the bot whose turn it is not is stopped
            os.close(bot._req_w)
            bot._req_w = None
            bot.proc.wait(timeout=60)


def wrap_executable(prefix: list[str], env: dict[str, str]) -> Path:
    """A script that runs the bot's interpreter under ``prefix``; it becomes ``sys.executable``."""
    folder = Path(tempfile.mkdtemp(prefix="profile-move-"))
    script = folder / "python"
    exports = "".join(f"export {k}={v}\n" for k, v in env.items())
    script.write_text(f"#!/bin/sh\n{exports}exec {' '.join(prefix)} \"$@\"\n")
    script.chmod(0o755)
    return script


def cprofile(moves: int, top: int) -> None:
    wrapper = Path(tempfile.mkdtemp(prefix="profile-move-")) / "wrapper.py"
    wrapper.write_text(WRAPPER)
    # The worker's argv is [python, -I, -S, -B, worker.pyc, ...]: the wrapper keeps -I -S -B.
    outputs: list[concurrent.futures.Future[bytes]] = []  # each worker's profile, in the order they start
    reader = concurrent.futures.ThreadPoolExecutor(4)
    real_popen = subprocess.Popen

    def popen(argv: list[str], **kwargs: object) -> subprocess.Popen[bytes]:
        if argv and argv[0] == sys.executable:
            out_r, out_w = os.pipe()
            outputs.append(reader.submit(_read_all, out_r))
            script = wrap_executable([sys.executable, "-I", "-S", "-B", str(wrapper)], {"PROFILE_FD": str(out_w)})
            argv = [str(script), *[a for a in argv[1:] if a not in ("-I", "-S", "-B")]]
            kwargs["pass_fds"] = (*kwargs.get("pass_fds", ()), out_w)  # type: ignore[misc]
            try:
                return real_popen(argv, **kwargs)  # type: ignore[arg-type]
            finally:
                os.close(out_w)
        return real_popen(argv, **kwargs)  # type: ignore[arg-type]

    spawn_module.subprocess.Popen = popen  # type: ignore[attr-defined,assignment]
    prof = cProfile.Profile()
    play(moves, prof)
    data = outputs[0].result(timeout=60)
    print(f"== parent: {moves} moves of each of two bots (per move: divide by {2 * moves})")
    _print(pstats.Stats(prof), top)
    child = _Loaded(marshal.loads(data))  # the first worker's profile (the second is behind it)
    print(f"== one bot's process (its bot thread): {moves} moves")
    _print(pstats.Stats(child), top)


def _read_all(fd: int) -> bytes:
    data = b""
    while chunk := os.read(fd, 1 << 20):
        data += chunk
    os.close(fd)
    return data


class _Loaded:
    """What pstats.Stats loads from: an object with ``create_stats`` and ``stats``."""

    def __init__(self, stats: dict) -> None:  # type: ignore[type-arg]
        self.stats = stats

    def create_stats(self) -> None:
        pass


def _print(stats: pstats.Stats, top: int) -> None:
    buf = io.StringIO()
    stats.stream = buf  # type: ignore[attr-defined]
    stats.sort_stats("tottime").print_stats(top)
    print("\n".join(line for line in buf.getvalue().splitlines() if line.strip())[:20000])


def callgrind(moves: int) -> None:
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed")
    folder = Path(tempfile.mkdtemp(prefix="profile-move-cg-"))
    counts = {}
    for n in (moves, 2 * moves):
        out = folder / f"cg-{n}"
        out.mkdir()
        cmd = ["valgrind", "--tool=callgrind", "--trace-children=yes", f"--callgrind-out-file={out}/cg.%p",
               sys.executable, __file__, "_play", "--moves", str(n)]
        subprocess.run(cmd, check=True, stderr=subprocess.DEVNULL)
        sizes = []
        for f in out.iterdir():
            text = f.read_text(errors="replace")
            cmdline = next((line for line in text.splitlines() if line.startswith("cmd:")), "")
            total = next((int(line.split()[1]) for line in text.splitlines() if line.startswith("summary:")), 0)
            sizes.append((cmdline, total))
        counts[n] = sizes
    print(f"instructions per call (run of {2 * moves} calls of each bot minus run of {moves}; two bots, plain mode):")
    for (cmd1, a), (_cmd2, b) in zip(sorted(counts[moves]), sorted(counts[2 * moves])):
        per = (b - a) / moves
        if "_play" in cmd1:
            per /= 2  # the parent made two calls (one on each bot) per round
        role = "bot process" if "worker" in cmd1 else "parent" if "_play" in cmd1 else cmd1[:60]
        if per > 1000:
            print(f"  {role:<14} {per:12,.0f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("tool", choices=["cprofile", "callgrind", "_play"])
    parser.add_argument("--moves", type=int, default=3000)
    parser.add_argument("--top", type=int, default=25)
    args = parser.parse_args()
    if args.tool == "cprofile":
        cprofile(args.moves, args.top)
    elif args.tool == "callgrind":
        callgrind(args.moves)
    else:
        play(args.moves)


if __name__ == "__main__":
    main()
