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

import ast
import os
import re
from dataclasses import replace
from typing import Any

import pytest

from harness.match import play_match
from harness.sandbox.isolation import use_bwrap
from tests.hostile.conftest import Arena
from tests.hostile.test_hostile import BASIS, GAME, LIMITS, MODES, STRICT, WHERE, Case, V

# PriemSpel with Quoridor's import policy: `stat` is forbidden, as in the course's Quoridor.
STAT = replace(GAME, submission=replace(GAME.submission, forbidden_imports=frozenset({
    "numpy", "scipy", "matplotlib", "stat", "statistics", "pyclbr"})))
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
    "plain_setuid_root": Case(V.OK, r"^$"),  # it gets nothing: EPERM or EINVAL
    "plain_mknod_disk": Case(V.FORBIDDEN, r"^making a device node \(os\.mknod\('disk', \.\.\.\)\) is not allowed" + WHERE),
    "plain_mkfifo_outside": Case(V.FORBIDDEN, r"^os\.mkfifo\('/tmp/harness-collude-fifo'\)" + OUTSIDE_WORK),
    # imports judged by who imports (the game forbids `stat`, as Quoridor does)
    "import_pathlib_ok": Case(V.OK, r"^$"),  # pathlib, shutil, tempfile, zipfile, glob import `stat` themselves
    "import_dynamic_name": Case(V.FORBIDDEN, r"^import of 'stat' \(the game's import policy forbids it\) is not allowed"
                                + WHERE),
    "import_exec": Case(V.FORBIDDEN, r"^import of 'stat' \(the game's import policy forbids it\) is not allowed" + WHERE),
    "import_pickle": Case(V.FORBIDDEN, r"^import of 'stat' \(the game's import policy forbids it\) is not allowed"
                          + WHERE),  # _pickle is C: the import is the bot's own
    # a library asking later, or code forged under a library's name, just finds the module missing
    "import_pkgutil": Case(V.EXCEPTION, r"^zet\(\) raised ModuleNotFoundError: No module named 'stat' at player\.py"),
    "import_forged_filename": Case(V.EXCEPTION, r"^zet\(\) raised ModuleNotFoundError: No module named 'stat' at "
                                   r"player\.py"),
    "import_harness_package": Case(V.FORBIDDEN, r"^player\.py line \d+: import of 'harness' is not allowed: it is "
                                   r"neither the standard library nor a package approved"),
    # sources the static checks must take
    "static_long_sum": Case(V.OK, r"^$"),
    "static_hand_table": Case(V.OK, r"^$"),
    "static_too_deep": Case(V.EXCEPTION, r"^import of player\.py raised RecursionError: maximum recursion depth "
                                         r"exceeded during compilation"),  # Python's own compiler: the bot's fault
    "static_guarded_import": Case(V.OK, r"^$"),  # left to run time, where numpy is missing and the bot copes
    # links made at run time are judged where they point
    "link_hardlink_victim": Case(V.FORBIDDEN, r"^os\.link\('.*/submissions/priemspel/alice/player\.py'\)" + OUTSIDE_WORK),
    "link_symlink_root": Case(V.FORBIDDEN, r"^os\.listdir\('/etc'\)" + OUTSIDE_FILES),
    "link_proc_root": Case(V.FORBIDDEN, r"^reading '.*/submissions/priemspel/alice/player\.py'" + OUTSIDE_FILES),
    "link_dangling_then_create": Case(V.FORBIDDEN, r"^writing '.*/target\.txt'" + OUTSIDE_WORK),
    # /proc, ptrace-style memory access, namespaces
    "proc_parent_cmdline": Case(V.FORBIDDEN, r"^reading '/proc/\d+/cmdline'" + OUTSIDE_FILES),
    "proc_list_processes": Case(V.FORBIDDEN, r"^os\.listdir\('/proc'\)" + OUTSIDE_FILES),
    "proc_mem_write": Case(V.FORBIDDEN, r"^writing '/proc/\d+/mem'" + OUTSIDE_WORK),
    "proc_self_mem": Case(V.FORBIDDEN, r"^writing '/proc/\d+/mem'" + OUTSIDE_WORK),
    "ns_unshare_command": Case(V.FORBIDDEN, r"^subprocess\.Popen is not allowed" + WHERE),
    # sockets, the terminal
    # a unix socket of its own: the guard names the socket(2) (which the seccomp filter refuses
    # too, in every tier), before its bind or connect
    "socket_abstract_unix": Case(V.FORBIDDEN, r"^network access \(a unix socket\) is not allowed \(player\.py "
                                 r"line 19 in zet\)$"),
    "socket_unix_connect": Case(V.FORBIDDEN, r"^network access \(a unix socket\) is not allowed \(player\.py "
                                r"line 19 in zet\)$"),
    "socket_pair_ok": Case(V.OK, r"^$"),  # a socketpair inside its own process is legal
    "socket_asyncio_ok": Case(V.OK, r"^$", limits={"move": 5.0}),  # an event loop's self-pipe: a socketpair
    "tty_tiocsti": Case(V.FORBIDDEN, r"^writing '/dev/tty'" + OUTSIDE_WORK),
    # persistence and tampering with code
    "persist_cron": Case(V.FORBIDDEN, r"^writing '/etc/cron\.d/harness-bot'" + OUTSIDE_WORK),
    "persist_sitecustomize": Case(V.FORBIDDEN, r"^writing '.*/sitecustomize\.py'" + OUTSIDE_WORK),
    "tamper_botapi": Case(V.FORBIDDEN, r"^writing '.*/botapi/priemspel\.py'" + OUTSIDE_WORK),
    "tamper_guard_file": Case(V.FORBIDDEN, r"^writing '.*/harness-lib-\d+-\w+/_harness_guard\.py'" + OUTSIDE_WORK),
    "tamper_unaudited_file": Case(V.FORBIDDEN, r"^writing '.*/harness-lib-\d+-\w+/_harness_unaudited\.py'"
                                  + OUTSIDE_WORK),
    "patch_unaudited": Case(V.FORBIDDEN, r"^monkeypatching the harness \(pidfd_pid\.__code__\) is not allowed \("
                            r"player\.py line 22 in zet\)$"),
    # signals and limits of other processes
    "signal_neighbour": Case(V.FORBIDDEN, r"^signalling another process \(os\.kill\(\d+, 19\)\) is not allowed" + WHERE),
    "signal_everyone": Case(V.FORBIDDEN, r"^signalling another process \(os\.kill\(-1, 9\)\) is not allowed" + WHERE),
    "prlimit_parent": Case(V.FORBIDDEN, r"^changing the sandbox's limits \(resource\.prlimit\) is not allowed" + WHERE),
    # resource exhaustion
    "fd_exhaustion": Case(V.EXCEPTION, r"^zet\(\) raised OSError: \[Errno 24\] Too many open files"),
    "thread_pool_bomb": Case(V.FORBIDDEN, r"^starting more than 6 threads is not allowed" + WHERE),
    "output_one_line": Case(V.FORBIDDEN, r"^the bot wrote more than 16 MiB of output during one call \(the cap per call\)$"),
    # secrets and other bots' code
    "environ_secrets": Case(V.OK, r"^$"),  # it sees the scrubbed environment only: test_the_environment_is_scrubbed
    "read_opponent_code": Case(V.FORBIDDEN, r"^os\.scandir\('/tmp'\)" + OUTSIDE_FILES),
    # text chosen to hurt (its cleaning is the reports' business; the verdict is pinned here)
    "unicode_name": Case(V.OK, r"^$"),
    "unicode_exception": Case(V.EXCEPTION, r"^zet\(\) raised ValueError: "),
    # the worker's own process: finalizers, tracing, introspection, builtins, frames
    "finalizer_fork": Case(V.FORBIDDEN, r"^os\.fork is not allowed \(player\.py line \d+ in __del__\)$"),
    "trace_worker": Case(V.OK, r"^$"),  # a trace or profile hook of its own thread sees only its own code
    "gc_referrers": Case(V.FORBIDDEN, r"^inspecting the process's objects \(gc\.get_referrers\) is not allowed" + WHERE),
    "patch_builtins": Case(V.OK, r"^$"),  # the worker bound what it uses before any bot code ran
    "frames_worker_locals": Case(V.TIMEOUT, r"^zet\(\) did not return within 0\.5 s"),  # the parent's limit holds
}


# Where a bot would leave something for another bot (on the old code, in plain mode, it did).
DROPS = {"plain_shm_open": "/dev/shm/harness-collude", "plain_shared_memory": "/dev/shm/harness-collude",
         "plain_dev_shm_write": "/dev/shm/harness-collude", "plain_mkfifo_outside": "/tmp/harness-collude-fifo"}


def play(arena: Arena, name: str, mode: str, **changes: Any) -> Any:
    case = EXTRA[name]
    limits = replace(LIMITS, **{**MODES[mode], **case.limits, **changes})
    game = STAT if name.startswith("import_") else STRICT if case.strict else GAME
    return play_match(game, [arena.source(name), BASIS], seed=1, logins=["hostile", "basis"], limits=limits)


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
    assert not os.path.lexists(DROPS.get(name, "/nonexistent")), f"{name} left {DROPS[name]}"


def test_the_environment_is_scrubbed(arena: Arena, monkeypatch: pytest.MonkeyPatch, no_leftovers: None) -> None:
    """Nothing of the grader's environment reaches a bot: no token, no path to the store."""
    monkeypatch.setenv("HARNESS_TEST_TOKEN", "s3cr3t-token")
    monkeypatch.setenv("HARNESS_TEST_STORE", str(arena.store))
    for mode in ("auto", "plain"):
        record = play(arena, "environ_secrets", mode)
        assert record.players[0].verdict is V.OK
        seen = dict(ast.literal_eval(record.players[0].stdout))  # the (name, value) pairs the bot printed
        assert "HARNESS_TEST_TOKEN" not in seen and "s3cr3t-token" not in record.players[0].stdout
        assert str(arena.store) not in record.players[0].stdout
        assert seen["PATH"] == "/usr/bin:/bin" and "harness-bot-" in seen["HOME"]
