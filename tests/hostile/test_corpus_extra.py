"""More of the hostile corpus: the attacks a determined student tries on a Python sandbox.

Same arena, opponent, modes and guarantees as :mod:`tests.hostile.test_hostile` (whose CORPUS
other bots keep): every bot plays PriemSpel against the seed's basic strategy through real
subprocesses, under bubblewrap (``auto``) and without it (``plain``), and gets its pinned
verdict and reason; its opponent is ``ok``; the store, the other submission and the target are
intact; nothing reached the listener; no process, cgroup or folder of the bot survives.

Groups (by file name): ``plain_*`` what plain mode's guard closes (descriptor-relative paths,
shared memory, scheduler and priority), ``import_*`` imports judged by who imports,
``static_*`` sources the static checks must take, ``link_*`` links made at run time, and the
rest real attacks of other kinds.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

import pytest

from harness.match import play_match
from harness.sandbox.isolation import use_bwrap
from tests.hostile.conftest import REPO, Arena
from tests.hostile.test_hostile import BASIS, GAME, LIMITS, MODES, STRICT, WHERE, Case, V

# PriemSpel with Quoridor's import policy: `stat` is forbidden, as in the course's Quoridor.
STAT = replace(GAME, forbidden_imports=frozenset({"numpy", "scipy", "matplotlib", "stat", "statistics", "pyclbr"}))
OUTSIDE_WORK = r" \(outside the bot's working directory\) is not allowed" + WHERE
OUTSIDE_FILES = r" \(outside the bot's own files\) is not allowed" + WHERE

# bot file (tests/hostile/bots/<name>.py) -> its pinned verdict and reason
EXTRA: dict[str, Case] = {
    # plain mode: paths relative to a directory descriptor are judged where they point
    "plain_dir_fd_read": Case(V.FORBIDDEN, r"^reading '.*/submissions/priemspel/alice/player\.py'" + OUTSIDE_FILES),
    "plain_dir_fd_write": Case(V.FORBIDDEN, r"^writing '.*/target\.txt'" + OUTSIDE_WORK),
    "plain_dir_fd_unlink": Case(V.FORBIDDEN, r"^os\.remove\('.*/target\.txt'\)" + OUTSIDE_WORK),
    "plain_dir_fd_rename": Case(V.FORBIDDEN, r"^os\.rename\('.*/target\.txt'\)" + OUTSIDE_WORK),
    "plain_dir_fd_opener": Case(V.FORBIDDEN, r"^reading '.*/submissions/priemspel/alice/player\.py' \(outside the "
                                r"bot's own files\) is not allowed \(player\.py line \d+ in <lambda>\)$"),
    "plain_rmtree_own_folder": Case(V.OK, r"^$"),  # dir_fd inside its own folder stays legal
    # plain mode: shared memory, scheduler, priority
    "plain_shm_open": Case(V.FORBIDDEN, r"^import of '_posixshmem' \(it could get around the sandbox\) is not allowed"
                           + WHERE),
    "plain_shared_memory": Case(V.EXCEPTION, r"^zet\(\) raised ModuleNotFoundError: No module named '_posixshmem'"),
    "plain_dev_shm_write": Case(V.FORBIDDEN, r"^writing '/dev/shm/harness-collude'" + OUTSIDE_WORK),
    "plain_sched_fifo": Case(V.FORBIDDEN, r"^changing the scheduler \(os\.sched_setscheduler\(0, 1, \.\.\.\)\) is not "
                             r"allowed" + WHERE),
    "plain_sched_param": Case(V.FORBIDDEN, r"^changing the scheduler \(os\.sched_setparam\(0, \.\.\.\)\) is not allowed"
                              + WHERE),
    "plain_nice_negative": Case(V.FORBIDDEN, r"^raising its priority \(os\.nice\(-20\)\) is not allowed" + WHERE),
    "plain_setpriority": Case(V.FORBIDDEN, r"^changing a priority \(os\.setpriority\(0, 0, -20\)\) is not allowed"
                              + WHERE),
    "plain_renice_user": Case(V.FORBIDDEN, r"^changing a priority \(os\.setpriority\(2, 0, 19\)\) is not allowed" + WHERE),
    "plain_nice_positive": Case(V.OK, r"^$"),  # lowering its own priority hurts nobody
    "plain_affinity_parent": Case(V.FORBIDDEN, r"^changing another process's CPUs \(os\.sched_setaffinity\(\d+, "
                                  r"\.\.\.\)\) is not allowed" + WHERE),
    "plain_fresh_posix": Case(V.FORBIDDEN, r"^a fresh copy of the built-in module 'posix' is not allowed" + WHERE),
    "plain_setuid_root": Case(V.OK, r"^$"),  # see test_a_bot_does_not_run_as_root
}


def play(arena: Arena, name: str, mode: str, **changes: Any) -> Any:
    case = EXTRA[name]
    limits = replace(LIMITS, **{**MODES[mode], **case.limits, **changes})
    game = STAT if name.startswith("import_") else STRICT if case.strict else GAME
    return play_match(game, [arena.source(name), BASIS], seed=1, logins=["hostile", "basis"], limits=limits)


def test_the_extra_corpus_is_complete_and_the_whole_corpus_holds_100() -> None:
    from tests.hostile.test_hostile import CORPUS

    files = {p.stem for p in (REPO / "tests/hostile/bots").glob("*.py")}
    assert set(EXTRA) <= files and not set(EXTRA) & set(CORPUS)
    assert files == set(EXTRA) | set(CORPUS)
    assert len(files) >= 100, len(files)


@pytest.mark.parametrize(("name", "mode"), [(n, m) for n in sorted(EXTRA) for m in ("auto", "plain")])
def test_hostile_bot_gets_its_pinned_verdict(name: str, mode: str, arena: Arena, no_leftovers: None) -> None:
    case = EXTRA[name]
    record = play(arena, name, mode)
    me, other = record.players
    sandboxed = use_bwrap(MODES[mode].get("isolation", "auto"))
    verdict, reason = case.fallback if case.fallback and not sandboxed else (case.verdict, case.reason)
    assert (me.verdict, other.verdict) == (verdict, V.OK), me.reason
    assert re.search(reason, me.reason), me.reason
    assert arena.victim.read_text()[:60] not in me.stdout
    if verdict is not V.OK:
        assert record.winner == 1 and record.end == "verdict"
    else:
        assert record.end == "rules"
    arena.assert_intact()
