"""Escapes from the bot's process in a container (plain mode as root): what issue 26 got through.

Same arena, opponent, modes and guarantees as :mod:`tests.hostile.test_hostile`: every bot plays
PriemSpel against the seed's basic strategy through real subprocesses, under bubblewrap
(``auto``) and without it (``plain``, the container tier), and gets its pinned verdict and
reason; its opponent is ``ok``; the store, the other submission and the target are intact; no
process, cgroup or folder of the bot survives.

Groups (by file name): ``escape_*`` signals and ``/proc`` links the guard now judges (pidfds,
SIGIO, ioctls), ``folder_*`` the 64 MiB cap on the working folder in every mode,
``cleanup_*`` folders no cleanup could remove before (the fixture ``no_leftovers`` checks that
they are gone).
"""

from __future__ import annotations

import re
import textwrap
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from harness.config import load_config
from harness.match import play_match
from harness.sandbox.isolation import use_bwrap
from harness.tournament.execute import LocalExecutor, run_job
from harness.tournament.store import ResultsStore
from tests.hostile.conftest import HOSTILE, REPO, Arena
from tests.hostile.test_hostile import BASIS, GAME, LIMITS, MODES, WHERE, Case, V

# bot file (tests/hostile/bots/<name>.py) -> its pinned verdict and reason
ESCAPE: dict[str, Case] = {
    # signals by routes without an audit event, SIGIO, ioctls
    "escape_pidfd_kill": Case(V.FORBIDDEN, r"^signalling another process \(os\.pidfd_open\(\d+\)\) is not allowed"
                              + WHERE),
    "escape_pidfd_send": Case(V.FORBIDDEN, r"^signalling another process \(signal\.pidfd_send_signal\(0, 9\)\) is "
                              r"not allowed" + WHERE),
    "escape_sigio_owner": Case(V.FORBIDDEN, r"^asking for signals on a descriptor \(fcntl\.fcntl\(1, F_SETOWN, "
                               r"\.\.\.\)\) is not allowed" + WHERE),
    "escape_sigio_async": Case(V.FORBIDDEN, r"^asking for signals on a descriptor \(fcntl\.fcntl\(1, F_SETFL, "
                               r"O_ASYNC\)\) is not allowed" + WHERE),
    "escape_ioctl_immutable": Case(V.FORBIDDEN, r"^an ioctl \(fcntl\.ioctl\(\d+, 0x40086602, \.\.\.\)\) is not allowed"
                                   + WHERE),
    # another process's /proc links (os.readlink raises no audit event)
    "escape_proc_cwd": Case(V.FORBIDDEN, r"^reading another process's /proc entries \('/proc/\d+/cwd'\) is not "
                            r"allowed" + WHERE),
    "escape_proc_via_link": Case(V.FORBIDDEN, r"^reading another process's /proc entries \('/proc/\d+/root'\) is "
                                 r"not allowed" + WHERE),
    "escape_allowed_ok": Case(V.OK, r"^$"),  # its own /proc links, FIONREAD, F_GETFL stay legal
    # what a bot leaves in its folder is removed all the same (no_leftovers checks it)
    "cleanup_deep_chain": Case(V.OK, r"^$",  # 3,000 folders deep: removed iteratively
                               fallback=(V.FORBIDDEN, r"^the bot's working folder nests folders more than 64 deep "
                                                      r"\(the cap on its folder\)$")),
    "cleanup_disarmed_immutable": Case(V.OK, r"^$"),  # flags it set as root are cleared, then removed
    # the working folder's cap: bubblewrap's tmpfs says ENOSPC; in plain mode the parent measures
    "folder_fill_480": Case(V.EXCEPTION, r"^zet\(\) raised OSError: \[Errno 28\] No space left on device",
                            limits={"move": 5.0},  # 64 MiB take a while on a loaded disk
                            fallback=(V.FORBIDDEN, r"^the bot's working folder grew past 64 MiB \(\d+ MiB "
                                                   r"written; the cap on its folder\)$")),
    "folder_mmap_fill": Case(V.CRASH, r"^the bot's process was killed by SIGBUS during zet\(\)$",  # tmpfs full
                             limits={"move": 5.0},
                             fallback=(V.FORBIDDEN, r"^the bot's working folder grew past 64 MiB \(\d+ MiB "
                                                    r"written; the cap on its folder\)$")),
    "folder_many_files": Case(V.OK, r"^$", limits={"move": 5.0},
                              fallback=(V.FORBIDDEN, r"^the bot's working folder holds more than 1000 files and "
                                                     r"folders \(the cap on its folder\)$")),
    "folder_sparse_ok": Case(V.OK, r"^$"),  # 15 MiB sparse + 8 MiB linked twice: 8 MiB allocated
    # the shared compiled files: a later bot never gets a changed copy (test_a_rewritten_api_...)
    "shared_rewrite_api": Case(V.OK, r"^$"),
}


def play(arena: Arena, name: str, mode: str, **changes: Any) -> Any:
    case = ESCAPE[name]
    limits = replace(LIMITS, **{**MODES[mode], **case.limits, **changes})
    return play_match(GAME, [arena.source(name), BASIS], seed=1, logins=["hostile", "basis"], limits=limits)


@pytest.mark.parametrize(("name", "mode"), [(n, m) for n in sorted(ESCAPE) for m in ("auto", "plain")])
def test_hostile_bot_gets_its_pinned_verdict(name: str, mode: str, arena: Arena, no_leftovers: None) -> None:
    case = ESCAPE[name]
    record = play(arena, name, mode)
    me, other = record.players
    sandboxed = use_bwrap(MODES[mode].get("isolation", "auto"))
    verdict, reason = case.fallback if case.fallback and not sandboxed else (case.verdict, case.reason)
    assert (me.verdict, other.verdict) == (verdict, V.OK), me.reason
    assert re.search(reason, me.reason), me.reason
    if verdict is not V.OK:
        assert record.winner == 1 and record.end == "verdict"
    else:
        assert record.end == "rules"
    arena.assert_intact()


def test_a_rewritten_api_is_never_handed_to_a_later_bot(arena: Arena, no_leftovers: None) -> None:
    """A bot that disarms the guard and rewrites the shared compiled bot API (it can where it runs
    as root without bubblewrap): the next bots of this process get a fresh, true copy."""
    from harness.sandbox import botside

    for mode in ("auto", "plain"):
        botside.folder()  # (a copy an earlier test's bot changed is replaced here)
        before = botside.tampered
        record = play(arena, "shared_rewrite_api", mode)
        assert [p.verdict for p in record.players] == [V.OK, V.OK], record.players[0].reason
        rewritten = "api: rewritten" in record.players[0].stdout
        assert rewritten or not use_bwrap(MODES[mode].get("isolation", "auto")) or "api: Read-only" in \
            record.players[0].stdout, record.players[0].stdout
        record = play_match(GAME, [BASIS, BASIS], seed=2, limits=replace(LIMITS, **MODES[mode]))
        assert [p.verdict for p in record.players] == [V.OK, V.OK], record.players[0].reason
        api = botside.botapi(GAME.botapi_dir) / "priemspel.py"
        assert api.read_bytes() == (GAME.botapi_dir / "priemspel.py").read_bytes()
        assert botside.tampered == before + rewritten


def test_a_round_robin_survives_a_bot_that_rewrites_the_api(tmp_path: Path, no_leftovers: None) -> None:
    """The whole run, in one worker process (one shared folder), in plain mode: the legal players
    stay ok in every game, before and after the bot's rewrite; nothing is charged to the harness."""
    subs = tmp_path / "submissions"
    for login, source in [("rewriter", (HOSTILE / "shared_rewrite_api.py").read_bytes()), ("cat", BASIS),
                          ("ben", (REPO / "reference_players/priemspel/strategie.py").read_bytes())]:
        (subs / login).mkdir(parents=True)
        (subs / login / "player.py").write_bytes(source)
    config = tmp_path / "tournaments.yaml"
    config.write_text(textwrap.dedent("""
        jobs:
          rr:
            game: priemspel
            format: round_robin
            submissions: submissions
            settings: [{N: 5}]
            games: 2
            workers: 1
            limits: {init: 5, move: 5, backstop: 4, isolation: plain}
    """))
    job = load_config(config).resolve("rr")[0]
    summary = run_job(job, LocalExecutor(1))
    assert summary.faults == 0 and summary.played == summary.total
    with ResultsStore(job.results, lock=False) as store:
        records = [r for _, r in store.records()]
    assert len(records) == summary.total >= 6
    assert all(p.verdict is V.OK for r in records for p in r.players), [
        (p.login, p.verdict, p.reason) for r in records for p in r.players if p.verdict is not V.OK]


def test_a_plain_bot_is_stopped_near_the_folder_cap(arena: Arena, no_leftovers: None) -> None:
    """480 MiB attempted: the parent stops it within a few MiB of the 64 MiB cap, not at 480."""
    record = play(arena, "folder_fill_480", "plain")
    me = record.players[0]
    assert (me.verdict, record.players[1].verdict) == (V.FORBIDDEN, V.OK), me.reason
    reached = max(int(n) for n in me.stdout.split())
    # MiB written when it was killed (its last report may lag a write): within 2x the cap at every
    # moment, the bound the sandbox promises; the walk is paced by the writes, so a busy machine
    # lets a few more MiB through (98 seen at load 5 beside another test run).
    assert 60 <= reached < 128, reached
