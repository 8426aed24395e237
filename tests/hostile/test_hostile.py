"""The hostile-bot corpus: each bot attacks the harness one way and gets exactly its pinned verdict.

Every bot plays PriemSpel against the seed's basic strategy through real subprocesses, in two
modes: ``auto`` (bubblewrap where it works, as in production) and ``plain`` (the fallback of
a machine without bubblewrap, still with cgroups where there are some); a subset also runs
``bare`` (plain, no cgroups: a student's laptop). The verdict and reason are the same in every
mode: the bot-side guard gives the clear verdict and the kernel (bubblewrap, cgroups) is the
boundary behind it. The documented differences without bubblewrap: a bot can *see* which paths exist
(``test_what_a_bot_can_see``), and a bot that disarms the guard can read files
(``disarmed_guard_read``) where the harness is not root; with bubblewrap neither gets it anything, and in the
container tier (root: a uid of its own, Landlock) the read is the kernel's ``PermissionError``. After each game: the opponent is ``ok``, the store, the other
submission and the target file are intact, no connection reached the listener, and no
process, cgroup or folder of the bot survives.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field, replace
from typing import Any

import pytest

from harness.games import get_game
from harness.match import play_match
from harness.record import Verdict
from harness.sandbox import Limits, container
from harness.sandbox.isolation import use_bwrap
from tests.hostile.conftest import REPO, Arena

GAME = get_game("priemspel")
# A test-only game with an import policy: PriemSpel's rules, but `statistics` and `json` forbidden.
STRICT = replace(GAME, submission=replace(GAME.submission, forbidden_imports=frozenset({"statistics", "json", "stat"})))
BASIS = (REPO / "reference_players/priemspel/basis.py").read_bytes()
LIMITS = Limits(init=1.0, move=0.5)  # half a second per move keeps the timeouts cheap

V = Verdict
WHERE = r" \(player\.py line \d+ in \w+\)"  # where the guard caught the bot


@dataclass(frozen=True)
class Case:
    """One hostile bot's pinned outcome."""

    verdict: Verdict
    reason: str  # a regular expression the reason must match
    limits: dict[str, Any] = field(default_factory=dict)  # changes to LIMITS for this bot
    strict: bool = False  # play the STRICT game (with forbidden imports)
    fallback: tuple[Verdict, str] | None = None  # the documented outcome without bubblewrap, if different
    container: tuple[Verdict, str] | None = None  # ... and in the container tier (root: own uid, Landlock)


# bot file (tests/hostile/bots/<name>.py) -> its pinned verdict and reason
CORPUS: dict[str, Case] = {
    # processes
    "fork_bomb": Case(V.FORBIDDEN, r"^os\.fork is not allowed" + WHERE),
    "fork_exec_direct": Case(V.FORBIDDEN, r"^_posixsubprocess\.fork_exec is not allowed" + WHERE),
    "ctypes_fork": Case(V.FORBIDDEN, r"^import of 'ctypes' \(it could get around the sandbox\) is not allowed" + WHERE),
    "daemon_grandchild": Case(V.FORBIDDEN, r"^os\.fork is not allowed" + WHERE),
    "daemon_shell": Case(V.FORBIDDEN, r"^subprocess\.Popen is not allowed" + WHERE),
    "multiprocessing_worker": Case(V.FORBIDDEN, r"^os\.fork is not allowed" + WHERE),
    "thread_bomb": Case(V.FORBIDDEN, r"^starting more than 6 threads is not allowed" + WHERE),
    "setsid_thread": Case(V.OK, r"^$"),  # leaves its group, keeps a thread spinning: still killed at the end
    # memory, files, output
    "memory_bomb": Case(V.MEMORY, r"^zet\(\) ran out of memory \(MemoryError\) at player\.py line \d+ in zet$"),
    "memory_mmap": Case(V.MEMORY, r"^zet\(\) ran out of memory \(OSError\) at player\.py"),
    "big_file": Case(V.EXCEPTION, r"^zet\(\) raised OSError: \[Errno 27\] File too large"),
    "open_files": Case(V.EXCEPTION, r"^zet\(\) raised OSError: \[Errno 24\] Too many open files"),
    "output_flood": Case(V.FORBIDDEN, r"^the bot wrote more than 16 MiB of output during one call \(the cap per call\)$"),
    "stderr_flood_raw": Case(V.FORBIDDEN, r"^the bot wrote more than 16 MiB of output during one call"),
    # the filesystem
    "write_outside": Case(V.FORBIDDEN, r"^writing '.*/target\.txt' \(outside the bot's working directory\) is not allowed" + WHERE),
    "write_own_code": Case(V.FORBIDDEN, r"^writing '.*/harness-bot-[^/]+/code/player\.py' \(outside the bot's working directory\)"),
    "read_submission": Case(V.FORBIDDEN, r"^reading '.*/submissions/priemspel/alice/player\.py' \(outside the bot's own files\) is not allowed" + WHERE),
    "read_store": Case(V.FORBIDDEN, r"^writing '.*/results\.sqlite' \(outside the bot's working directory\) is not allowed" + WHERE),
    "list_submissions": Case(V.FORBIDDEN, r"^os\.listdir\('.*/submissions/priemspel'\) \(outside the bot's own files\) is not allowed"),
    "symlink_escape": Case(V.FORBIDDEN, r"^reading '.*/submissions/priemspel/alice/player\.py' \(outside the bot's own files\)"),
    "chdir_escape": Case(V.FORBIDDEN, r"^reading '/etc/hostname' \(outside the bot's own files\) is not allowed" + WHERE),
    "parent_environ": Case(V.FORBIDDEN, r"^reading '/proc/\d+/environ' \(outside the bot's own files\) is not allowed" + WHERE),
    "probe_paths": Case(V.OK, r"^$"),  # existence checks are not audited: see test_what_a_bot_can_see
    # the network
    "network_connect": Case(V.FORBIDDEN, r"^network access \(socket\.getaddrinfo\) is not allowed" + WHERE),
    "network_raw_socket": Case(V.FORBIDDEN, r"^network access \(a socket of family 2\) is not allowed" + WHERE),
    "name_lookup": Case(V.FORBIDDEN, r"^network access \(socket\.getaddrinfo\) is not allowed" + WHERE),
    # other processes, the harness, its channel
    "kill_parent": Case(V.FORBIDDEN, r"^signalling another process \(os\.kill\(\d+, 9\)\) is not allowed" + WHERE),
    "killpg_zero": Case(V.FORBIDDEN, r"^signalling a process group \(os\.killpg\(0, \.\.\.\)\) is not allowed" + WHERE),
    "close_channel": Case(V.CRASH, r"^the bot's process exited with code 1 during zet\(\)$"),
    "forged_frame": Case(V.FORBIDDEN, r"^zet\(\): a reply out of sequence \(seq None, expected \d+\): the bot tampered"),
    "forged_frame_seq": Case(V.FORBIDDEN, r"^zet\(\): a reply out of sequence \(seq \d+, expected \d+\): the bot tampered"),
    "garbage_frame": Case(V.FORBIDDEN, r"^a reply frame of 4294967295 bytes, over the cap of \d+ bytes: the bot tampered"),
    "gc_introspection": Case(V.FORBIDDEN, r"^inspecting the process's objects \(gc\.get_objects\) is not allowed" + WHERE),
    "setrlimit_raise": Case(V.FORBIDDEN, r"^changing the sandbox's limits \(resource\.setrlimit\) is not allowed" + WHERE),
    # monkeypatching
    "patch_time": Case(V.TIMEOUT, r"^zet\(\) did not return within 0\.5 s \(stuck at player\.py line \d+ in zet\)"),
    "patch_signal": Case(V.TIMEOUT, r"^zet\(\) did not return within 0\.5 s"),
    "patch_os": Case(V.OK, r"^$"),  # the worker bound os.read/os.write/os._exit before any bot code ran
    "patch_worker_cpu": Case(V.TIMEOUT, r"^zet\(\) used more than 0\.5 s of CPU time \(\d+\.\d\d s when killed",
                             limits={"policy": "cpu", "backstop": 20.0}),
    "patch_worker_answer": Case(V.ILLEGAL_MOVE, r"^step 1000 is larger than N = 5$"),  # the referee decides
    "gil_hog": Case(V.TIMEOUT, r"^zet\(\) did not return within 0\.5 s; killed after \d+\.\d\d s"),
    "sigstop_self": Case(V.TIMEOUT, r"^zet\(\) did not return within 0\.5 s; killed after .* \(its process was stopped"),
    # what the bot returns or raises
    "deep_recursion": Case(V.EXCEPTION, r"^zet\(\) raised RecursionError: maximum recursion depth exceeded at player\.py"),
    "recursion_crash": Case(V.CRASH, r"^the bot's process was killed by SIGSEGV during zet\(\)$"),
    "cyclic_answer": Case(V.BAD_ANSWER, r"^zet\(\) returned answer is a cyclic structure$"),
    "deep_answer": Case(V.BAD_ANSWER, r"^zet\(\) returned answer nested deeper than 64 levels$"),
    "enormous_answer": Case(V.BAD_ANSWER, r"^zet\(\) returned answer too large \(more than 1048576 characters of text\)$"),
    "answer_property_loop": Case(V.TIMEOUT, r"^zet\(\) did not return within 0\.5 s \(stuck at player\.py line \d+ in __dict__\)"),
    "evil_exception_str": Case(V.FORBIDDEN, r"^os\.fork is not allowed \(player\.py line \d+ in __str__\)$"),
    "keyboard_interrupt": Case(V.EXCEPTION, r"^zet\(\) raised KeyboardInterrupt: +at player\.py line \d+ in zet$"),
    # exits and hooks
    "sys_exit_in_del": Case(V.OK, r"^$"),  # Python ignores exceptions raised in __del__
    "os_exit_in_del": Case(V.CRASH, r"^the bot's process exited with code 7 during zet\(\)$"),
    "atexit_hook": Case(V.OK, r"^$"),  # the worker never runs atexit hooks: it is killed or leaves with os._exit
    # the game's import policy, at run time
    "forbidden_import_runtime": Case(V.FORBIDDEN, r"^import of 'statistics' \(the game's import policy forbids it\) is not allowed" + WHERE,
                                     strict=True),
    "forbidden_import_cached": Case(V.FORBIDDEN, r"^import of 'stat' \(the game's import policy forbids it\) is not allowed" + WHERE,
                                    strict=True),
    "threads_between_turns": Case(V.OK, r"^$"),  # its thread is stopped between turns: see test_turns.py
    # the guard is a policy layer, not the boundary: a bot that disarms it meets the kernel's
    "disarmed_guard_read": Case(V.EXCEPTION, r"^zet\(\) raised FileNotFoundError: \[Errno 2\] No such file",
                                fallback=(V.OK, r"^$"),  # documented: unprotected (not root), the read succeeds
                                container=(V.EXCEPTION, r"^zet\(\) raised PermissionError: \[Errno 13\]")),
    "disarmed_daemon": Case(V.OK, r"^$"),  # its daemon dies with the game: cgroup kill, PID namespace
    # its burners are frozen in its opponent's turns: tests/hostile/test_out_of_turn.py
    "timing_out_of_turn": Case(V.OK, r"^$"),
}

# Also run without cgroups (a laptop): the bots whose handling leans on the kernel's caps or clocks.
# Not disarmed_daemon: without cgroups or bubblewrap its daemon would survive (documented).
BARE = ("thread_bomb", "setsid_thread", "memory_bomb", "patch_worker_cpu", "gil_hog", "sigstop_self", "fork_bomb",
        "kill_parent", "close_channel", "output_flood", "big_file")
MODES = {"auto": {}, "plain": {"isolation": "plain"}, "bare": {"isolation": "plain", "cgroups": False}}
CASES = [(name, mode) for name in sorted(CORPUS) for mode in MODES if mode != "bare" or name in BARE]


def play(arena: Arena, name: str, mode: str, **changes: Any) -> Any:
    case = CORPUS[name]
    limits = replace(LIMITS, **{**MODES[mode], **case.limits, **changes})
    return play_match(STRICT if case.strict else GAME, [arena.source(name), BASIS], seed=1,
                      logins=["hostile", "basis"], limits=limits)


def test_the_corpus_is_complete() -> None:
    """Every bot file is pinned in exactly one corpus and every pin has a file; at least 100 bots.

    The corpora: ``CORPUS`` here, ``EXTRA`` (test_corpus_extra.py), the trust bots (test_trust.py),
    ``ESCAPE`` (test_escape.py), the budget bots (test_budget.py), ``SYSCALLS`` (test_syscalls.py),
    ``ALIBI`` (test_oom_evidence.py), the door's (test_door_budget.py);
    the ``text_*`` bots are pinned in test_bot_text.py, whose output is checked, not only the verdict.
    """
    from tests.hostile.test_budget import BUDGET
    from tests.hostile.test_corpus_extra import EXTRA
    from tests.hostile.test_door_budget import CASES as DOOR
    from tests.hostile.test_escape import ESCAPE
    from tests.hostile.test_oom_evidence import ALIBI
    from tests.hostile.test_syscalls import SYSCALLS
    from tests.hostile.test_trust import CORPUS as TRUST

    files = {p.stem for p in (REPO / "tests/hostile/bots").glob("*.py")}
    corpora = [set(CORPUS), set(EXTRA), set(TRUST), set(ESCAPE), set(BUDGET), set(SYSCALLS), set(ALIBI), set(DOOR)]
    pinned = set().union(*corpora)
    assert sum(map(len, corpora)) == len(pinned), "a bot is pinned in two corpora"
    assert {f for f in files if not f.startswith("text_")} == pinned
    assert len(files) >= 100, len(files)


@pytest.mark.parametrize(("name", "mode"), CASES)
def test_hostile_bot_gets_its_pinned_verdict(name: str, mode: str, arena: Arena, no_leftovers: None) -> None:
    case = CORPUS[name]
    record = play(arena, name, mode)
    me, other = record.players
    sandboxed = use_bwrap(MODES[mode].get("isolation", "auto"))
    tier = container.tier(sandboxed)
    verdict, reason = case.fallback if case.fallback and not sandboxed else (case.verdict, case.reason)
    if tier == "container" and case.container and container.landlock_abi() > 0:
        verdict, reason = case.container
    assert (me.verdict, other.verdict) == (verdict, V.OK), me.reason
    assert re.search(reason, me.reason), me.reason
    if sandboxed or (tier == "container" and container.landlock_abi() > 0):  # no bot gets another's code
        assert arena.victim.read_text()[:60] not in me.stdout
    if verdict is not V.OK:
        assert record.winner == 1 and record.end == "verdict"
    else:
        assert record.end == "rules"
    arena.assert_intact()


def test_what_a_bot_can_see(arena: Arena, no_leftovers: None) -> None:
    """Existence checks (os.path.exists: no audit event) see nothing outside under bubblewrap.

    Documented fallback: without bubblewrap a bot can tell that a path exists (it still cannot
    open it: see read_submission, read_store).
    """
    for mode in ("auto", "plain"):
        record = play(arena, "probe_paths", mode)
        seen = json.loads(record.players[0].stdout)
        if use_bwrap(MODES[mode].get("isolation", "auto")):
            assert seen == {"victim": False, "store": False, "target": False, "passwd": False,
                            "root": seen["root"], "repo": seen["repo"]}, seen
        elif container.tier(False) == "container":  # its own uid: not through folders only root may search
            assert seen["passwd"] and not seen["store"] and not seen["target"], seen  # pytest's folders: 0700
        else:
            assert seen["victim"] and seen["store"] and seen["target"] and seen["passwd"], seen


def test_the_run_continues_after_hostile_bots(arena: Arena, no_leftovers: None) -> None:
    """Hostile games back to back, then an ordinary game: everything still works."""
    for name in ("fork_bomb", "output_flood", "close_channel", "garbage_frame", "memory_bomb"):
        assert play(arena, name, "auto").players[1].verdict is V.OK
    record = play_match(GAME, [BASIS, BASIS], seed=3, limits=LIMITS)
    assert [p.verdict for p in record.players] == [V.OK, V.OK] and record.end == "rules"


def test_sys_exit_in_del_is_reported_on_stderr(arena: Arena, no_leftovers: None) -> None:
    record = play(arena, "sys_exit_in_del", "auto")
    assert "Exception ignored in" in record.players[0].stderr
