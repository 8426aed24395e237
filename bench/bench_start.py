"""Bot start: from a new BotProcess to its first answer, by stage, next to bare interpreter starts.

    python bench/bench_start.py [--starts 20] [--repo PATH ...] [--player FILE]

Each start is a fresh bot (bubblewrap and cgroups where the machine has them) in PriemSpel, a
trivial ``player.py`` or ``--player`` (e.g. ``reference_players/priemspel/strategie.py``),
timed by stage:

* ``spawn``: ``BotProcess.start()`` (folders, pipes, the cgroup, ``Popen``);
* ``hello``: until the worker's hello is read and its process tree is in its cgroup;
* ``load``: the import of a trivial ``player.py``; ``init``: its constructor; ``move``: one move;
* ``close``: killing the tree and deleting its cgroup and folders (after the first answer).

``first answer`` is spawn to move. ``cpu`` is the CPU time the start cost the machine, from
start to close: the harness process (all its threads, the launchers made ahead) and every
process it started, read from a cpuacct cgroup the measuring process runs in, plus the bot's
own cgroup (where its tree moves) read before the close. Without a writable cpuacct hierarchy
it is the harness process and its reaped children only (bubblewrap's, not the worker's). The floors,
in the same run: ``python -I -S -c pass`` bare, under ``bwrap --ro-bind / /``, and under a bot's
own bubblewrap (its options, mounts and namespaces, and ``setpriv`` where the harness drops bots
to their own uid): what a start costs before the worker runs a line.

Each ``--repo`` (default: this checkout) runs in a process of its own, and the rounds
interleave the repos and the floors, so a machine whose load changes during the run disturbs
all of them alike. Prints the minimum and median of each, in milliseconds (the minimum is the
figure a busy machine disturbs least).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

TRIVIAL = b"class Player:\n    def __init__(self, name):\n        pass\n    def zet(self, spel):\n        return 2\n"
STAGES = ("spawn", "hello", "load", "init", "move", "close")


CPUACCT = Path("/sys/fs/cgroup/cpuacct")


class Accounting:
    """CPU time of this process and everything it starts, from a cpuacct cgroup of its own."""

    def __init__(self) -> None:
        self.group: Path | None = CPUACCT / f"bench-start-{os.getpid()}"
        try:
            self.group.mkdir()
            (self.group / "cgroup.procs").write_text(str(os.getpid()))
        except OSError:
            self.group = None

    def read(self) -> float:
        if self.group is not None:
            return int((self.group / "cpuacct.usage").read_text()) / 1e9
        own, reaped = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
        return own.ru_utime + own.ru_stime + reaped.ru_utime + reaped.ru_stime

    def close(self) -> None:
        if self.group is not None:
            (CPUACCT / "cgroup.procs").write_text(str(os.getpid()))
            self.group.rmdir()


def child(repo: str, player: bytes) -> None:
    """Serve one timed start per line read from stdin; print each as a JSON line."""
    sys.path.insert(0, repo)
    from harness.games import get_game
    from harness.games.base import Call, WireObject
    from harness.sandbox import BotProcess

    game = get_game("priemspel")
    view = WireObject("Spel", {"_N": 5, "_positie": 0, "_eind": 23})
    cpu = Accounting()
    for _ in sys.stdin:
        c0 = cpu.read()
        t = [time.perf_counter()]
        b = BotProcess(game, player)
        b.start()
        t.append(time.perf_counter())
        assert b._handshake() is None, b.dead
        t.append(time.perf_counter())
        assert b.load().ok
        t.append(time.perf_counter())
        assert b.call(Call("__init__", ("x",), "init")).ok
        t.append(time.perf_counter())
        assert b.call(Call("zet", (view,), "move")).ok, "the bot's move failed"
        t.append(time.perf_counter())
        bot_cpu = (b.cgroup.cpu_ns() or 0) / 1e9 if b.cgroup is not None and cpu.group is not None else 0.0
        b.close()
        t.append(time.perf_counter())
        row = {name: (t[i + 1] - t[i]) * 1000 for i, name in enumerate(STAGES)}
        row["first answer"] = (t[5] - t[0]) * 1000
        row["cpu"] = (cpu.read() - c0 + bot_cpu) * 1000
        print(json.dumps(row), flush=True)
    cpu.close()


def _bot_sandbox(repo: str) -> list[str] | None:
    """A bot's bubblewrap command line up to its interpreter, from ``repo``'s own harness."""
    code = ("import json, sys, tempfile; from pathlib import Path; sys.path.insert(0, sys.argv[1])\n"
            "from harness.sandbox import bubblewrap, privileges\n"
            "s = bubblewrap.support()\n"
            "if not s.available: print('null'); raise SystemExit\n"
            "root = Path(tempfile.gettempdir())\n"
            "drop = (s.drop, privileges.pick_uid()) if s.drop and privileges.is_root() else None\n"
            "argv = bubblewrap.command(s.path, userns=s.userns, code_dir=None, work_dir=root, botapi_dir=None,\n"
            "                          work_bytes=64 << 20, drop=drop, env={'PATH': '/usr/bin:/bin'})\n"
            "print(json.dumps([*argv, bubblewrap.python_executable()]))\n")
    done = subprocess.run([sys.executable, "-c", code, repo], capture_output=True, text=True)
    return json.loads(done.stdout) if done.returncode == 0 and done.stdout.strip() else None


def _show(name: str, ms: list[float]) -> None:
    print(f"  {name:<34} min {min(ms):7.1f} ms   median {statistics.median(ms):7.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--starts", type=int, default=20)
    parser.add_argument("--repo", action="append", help="a checkout to measure (repeatable; default: this one)")
    parser.add_argument("--player", help="the bot's player.py (default: a trivial one)")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child, Path(args.player).read_bytes() if args.player else TRIVIAL)
        return
    repos = args.repo or [str(Path(__file__).resolve().parents[1])]
    floors = {"python -I -S (bare)": [sys.executable, "-I", "-S", "-c", "pass"]}
    if shutil.which("bwrap"):
        floors["python -I -S in bwrap"] = ["bwrap", "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc",
                                           "--unshare-pid", sys.executable, "-I", "-S", "-c", "pass"]
        sandbox = _bot_sandbox(repos[0])
        if sandbox is not None:
            floors["python -I -S in a bot's bwrap"] = [*sandbox, "-I", "-S", "-c", "pass"]
    player = ["--player", str(Path(args.player).resolve())] if args.player else []
    children = {repo: subprocess.Popen([sys.executable, __file__, "--child", repo, *player], stdin=subprocess.PIPE,
                                       stdout=subprocess.PIPE, text=True, bufsize=1) for repo in repos}
    floor_ms: dict[str, list[float]] = {name: [] for name in floors}
    rows: dict[str, list[dict[str, float]]] = {repo: [] for repo in repos}
    for n in range(args.starts + 1):  # the first round warms the page cache and each harness
        for name, argv in floors.items():
            t0 = time.perf_counter()
            subprocess.run(argv, check=True)
            if n:
                floor_ms[name].append((time.perf_counter() - t0) * 1000)
        for repo, proc in children.items():
            assert proc.stdin is not None and proc.stdout is not None
            proc.stdin.write("go\n")
            line = proc.stdout.readline()
            if not line:
                sys.exit(f"the start in {repo} failed")
            if n:
                rows[repo].append(json.loads(line))
    for proc in children.values():
        assert proc.stdin is not None
        proc.stdin.close()
        proc.wait()
    print(f"{args.starts} starts each, interleaved")
    for name, ms in floor_ms.items():
        _show(name, ms)
    for repo, data in rows.items():
        print(f"bot in {repo}")
        for key in (*STAGES, "first answer", "cpu"):
            _show(key, [r[key] for r in data])


if __name__ == "__main__":
    main()
