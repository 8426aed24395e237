"""Sources that cost the compiler, not the bot: the door takes them, never the harness's process.

Issue 32's attacks, each a legal-looking bot against the seed's basic strategy, under bubblewrap
(``auto``) and in plain mode (as root: the container tier):

* ``budget_folded_chain``: an 18 KB chain of string additions the optimiser folds (8 GB to
  compile): ``forbidden``, the door's memory cap named;
* ``budget_folded_helper``: the same chain in helper.py, which player.py imports: ``forbidden``,
  naming helper.py;
* ``budget_string_tuple``: a 200 KB tuple of distinct strings, 65 MB of bytecode: ``forbidden``,
  the bytecode cap named;
* ``budget_unused_modules``: 20 such chains in modules nothing imports: only parsed, ``ok``;
* ``budget_used_modules``: the same 20 modules, all imported: each fits the door's caps, ``ok``.

Both players' verdicts are pinned. Each pair plays two games in a fresh harness process
(:mod:`tests.hostile.door_games`), as does a control pair (basis against basis): the harness's own
peak RSS stays under 400 MB, its own CPU time within 2 s of the control's, and the second game
starts no door child at all. What the door's children spent is measured apart (their own rusage);
``bench/bench_parent_budget.py`` gives the figures.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.hostile.conftest import REPO, Arena

MODES = {"auto": {}, "plain": {"isolation": "plain"}}
BASIS = (REPO / "reference_players/priemspel/basis.py").read_bytes()
RSS_MB = 400  # the harness's own peak, whatever the source
CPU_OVER = 2.0  # seconds of the harness's own CPU time over a control game's
# About 18 KB; 8 GB to compile without a cap. Issue 32's 12 KB chain (1,330 additions, 3.6 GB
# uncapped) sits at the door's 1 GiB: the optimiser drops a fold it has no memory for and goes
# on, so whether the rest fits depends on where memory ran out (measured: a 2.9 MB pyc in the
# door's child, MemoryError in a bare capped process). Either way the cost is the door's, never
# the harness's; the test takes a chain past the cap in both (1,600 additions and more).
CHAIN = b"+".join([b"'a'*4096"] * 2000)
MEMORY = r"too large or complex to compile \(memory cap 1 GiB\)$"
CASES: dict[str, tuple[str, str]] = {  # bot -> (verdict, reason)
    "budget_folded_chain": ("forbidden", r"^player\.py: " + MEMORY),
    "budget_folded_helper": ("forbidden", r"^helper\.py: " + MEMORY),
    "budget_string_tuple": ("forbidden", r"^player\.py: too large to compile: its bytecode is larger than the 8 MiB cap$"),
    "budget_unused_modules": ("ok", r"^$"),
    "budget_used_modules": ("ok", r"^$"),
}


def files(arena: Arena, name: str) -> dict[str, bytes]:
    """The attacking submission's files: its hostile part, then the seed's basic strategy."""
    source = arena.source(name) + b"\n\n" + BASIS
    if name == "budget_folded_chain":
        return {"player.py": source.replace(b"@CHAIN@", CHAIN)}
    if name == "budget_folded_helper":
        return {"player.py": source, "helper.py": b"X = " + CHAIN + b"\n"}
    if name == "budget_string_tuple":
        return {"player.py": source.replace(b"@TUPLE@", b",".join(b"'%05d'*819" % i for i in range(16_000)))}
    chain = b"X = " + b"+".join([b"'a'*4096"] * 400) + b"\n"
    return {"player.py": source, **{f"mod{i:02d}.py": chain.replace(b"X", b"X%d" % i, 1) for i in range(20)}}


def games(tmp: Path, seats: list[dict[str, bytes]], mode: str, count: int = 2) -> dict:
    """``count`` games of ``seats`` in a fresh harness process, with a fresh door cache."""
    folders = []
    for i, seat in enumerate(seats):
        folder = tmp / f"seat{i}"
        folder.mkdir(parents=True)
        for name, data in seat.items():
            (folder / name).write_bytes(data)
        folders.append(str(folder))
    spec = tmp / "spec.json"
    spec.write_text(json.dumps({"game": "priemspel", "limits": MODES[mode], "games": count, "seats": folders}))
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp / "cache")}
    done = subprocess.run([sys.executable, "-m", "tests.hostile.door_games", str(spec)], cwd=REPO, env=env,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout)


@pytest.fixture(scope="module")
def control(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict]:
    """The control pair (basis against basis), per mode."""
    return {mode: games(tmp_path_factory.mktemp(f"control-{mode}"), [{"player.py": BASIS}] * 2, mode)
            for mode in MODES}


@pytest.mark.parametrize(("name", "mode"), [(n, m) for n in CASES for m in MODES])
def test_a_source_that_costs_the_compiler_costs_the_door_never_the_harness(
        name: str, mode: str, arena: Arena, control: dict[str, dict], tmp_path: Path, no_leftovers: None) -> None:
    import re

    verdict, reason = CASES[name]
    out = games(tmp_path, [files(arena, name), {"player.py": BASIS}], mode)
    base = control[mode]
    for game in out["games"]:
        assert game["verdicts"] == [verdict, "ok"], game["reasons"]
        assert re.search(reason, game["reasons"][0]), game["reasons"][0]
        assert not game["harness_fault"]
    first, second = out["games"]
    assert first["door_children"] >= 1 and second["door_children"] == 0 and second["door_cpu"] == 0
    assert out["parent_rss_mb"] < RSS_MB, out
    assert out["parent_cpu"] < base["parent_cpu"] + CPU_OVER, (out, base)
    assert out["door_peak_rss_mb"] < 1100, out  # the door's own cap (1 GiB of address space)
    arena.assert_intact()
