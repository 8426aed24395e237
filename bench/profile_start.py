"""Where a bot's start goes inside its process: ``-X importtime`` of the worker through its hello,
the import of a trivial ``player.py``, its constructor and one move, and the time of each step.

    python bench/profile_start.py [--repo PATH]

The worker runs as a plain process (no bubblewrap, no cgroup: the imports are the same), from
the checkout's folder of compiled bot-side files, with the bytecode a start ships (the bot API's
and player.py's, where the checkout has them). Read the cumulative column of the top-level
modules; ``-X importtime`` itself inflates every figure a little.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SOURCE = b"class Player:\n    def __init__(self, name):\n        pass\n    def zet(self, spel):\n        return 2\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repo", default=str(Path(__file__).resolve().parents[1]), help="the checkout to profile")
    args = parser.parse_args()
    sys.path.insert(0, args.repo)
    from harness.games import get_game
    from harness.sandbox import botside
    from harness.sandbox.bot import wire

    game = get_game("priemspel")
    lib = botside.folder()
    root = Path(tempfile.mkdtemp(prefix="profile-start-"))
    try:
        (root / "code").mkdir()
        (root / "work").mkdir()
        player = root / "code" / "player.py"
        player.write_bytes(SOURCE)
        api = game.botapi_dir
        if importlib.util.find_spec("harness.door") is not None and api is not None:  # as spawn ships them
            from harness.door import modules

            modules.place({"player.py": SOURCE}, root / "code")
            api = botside.botapi(api)
        elif hasattr(botside, "bytecode") and api is not None:  # an older checkout (--repo)
            pyc = botside.bytecode(SOURCE)
            if pyc is not None:
                cached = Path(importlib.util.cache_from_source(str(player)))
                cached.parent.mkdir()
                cached.write_bytes(pyc)
            api = botside.botapi(api)
        req_r, req_w = os.pipe()
        rep_r, rep_w = os.pipe()
        t0 = time.perf_counter()
        proc = subprocess.Popen([sys.executable, "-X", "importtime", "-I", "-S", "-B", str(lib / botside.SCRIPT),
                                 str(req_r), str(rep_w)], pass_fds=(req_r, rep_w), stderr=subprocess.PIPE,
                                cwd=root / "work")
        os.close(req_r)
        os.close(rep_w)
        steps = []

        def roundtrip(name: str, message: dict[str, object] | None) -> None:
            if message is not None:
                wire.write_frame(req_w, json.dumps(message).encode())
            reply = wire.parse(wire.read_frame(rep_r, 1 << 20))
            assert reply.get("ok", True), reply
            steps.append((name, time.perf_counter()))

        roundtrip("hello", None)
        roundtrip("load", {"op": "load", "path": str(player), "work": str(root / "work"), "code": str(root / "code"),
                           "sys_path": [str(api), str(root / "code")], "libraries": [],
                           "wire": {k: list(v) for k, v in game.wire_classes.items()}, "seed": 1, "limit": 5,
                           "class": "Player", "forbidden": sorted(game.submission.forbidden_imports),
                           "rlimits": {"CORE": 0},
                           "max_threads": 7, "seq": 1, "policy": "wall", "backstop": 5})
        roundtrip("init", {"op": "call", "method": "__init__", "args": ["x"], "limit": 5, "seq": 2})
        roundtrip("move", {"op": "call", "method": "zet", "limit": 5, "seq": 3,
                           "args": [{"$o": "Spel", "type": "Spel", "f": {"_N": 5, "_positie": 0, "_eind": 23}}]})
        os.close(req_w)
        assert proc.stderr is not None
        profile = proc.stderr.read().decode()
        proc.wait()
        os.close(rep_r)
    finally:
        shutil.rmtree(root, ignore_errors=True)
    print(profile, end="")
    last = t0
    for name, at in steps:
        print(f"{name:<6} {1000 * (at - last):6.2f} ms")
        last = at


if __name__ == "__main__":
    main()
