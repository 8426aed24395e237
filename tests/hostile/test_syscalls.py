"""What the kernel refuses a bot whose guard is disarmed, and the disk it may hold (issue 32, part 3).

Same arena, opponent and modes as :mod:`tests.hostile.test_hostile`: every bot plays PriemSpel
against the seed's basic strategy through real subprocesses, under bubblewrap (``auto``) and in
the container tier (``plain`` as root: a uid of its own, Landlock, the seccomp filter). Each
bot performs its attack for real and reports what the kernel answered; both players' verdicts
are pinned, and the store, the other submission and the target are intact.

* ``syscall_*``: the seccomp filter (:mod:`harness.sandbox.bot.seccomp`) refuses SysV IPC,
  ``fallocate``, UDP, raw, netlink, packet and unix sockets, ``io_uring``, ``ptrace``, ``bpf``,
  ``perf_event_open``, ``userfaultfd``, the key ring, mounts, namespaces, ``kexec``, modules,
  swap, ``reboot``, ``acct`` and personality changes with ``EPERM``; no SysV object survives a
  game or is shared between bots (``/proc/sysvipc`` before and after).
* ``disk_*``: the working folder's cap counts what the bot's processes hold open or mapped
  after unlinking it, and preallocation is refused; a bot churning a thousand entries costs
  the harness about what a bot writing the same bytes into one file does.
"""

from __future__ import annotations

import json
import re
import resource
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from harness.match import play_match
from harness.sandbox import container
from harness.sandbox.isolation import use_bwrap
from tests.hostile.conftest import Arena
from tests.hostile.test_hostile import BASIS, GAME, LIMITS, MODES, Case, V

EPERM, ENOSYS = 1, 38
CAP = r"^the bot's working folder grew past 64 MiB \(\d+ MiB written; the cap on its folder\)$"

# bot file (tests/hostile/bots/<name>.py) -> its pinned verdict and reason (fallback: plain mode's)
SYSCALLS: dict[str, Case] = {
    "syscall_families": Case(V.OK, r"^$", limits={"move": 5.0}),
    "syscall_sysv_counter": Case(V.OK, r"^$"),
    "disk_fallocate_bursts": Case(V.OK, r"^$"),
    "disk_unlinked_holder": Case(V.EXCEPTION, r"^zet\(\) raised OSError: \[Errno 28\] No space left on device",
                                 limits={"move": 10.0}, fallback=(V.FORBIDDEN, CAP)),
    "disk_churn_990": Case(V.OK, r"^$", limits={"move": 5.0}),
}
TIERS = ("auto", "plain")
# what syscall_families tries (each refused with EPERM), besides clone3 (ENOSYS)
FAMILIES = ("shmget", "msgget", "semget", "fallocate", "udp", "raw", "netlink", "packet", "unix path connect",
            "unix dgram pair", "io_uring_setup", "ptrace attach", "process_vm_readv", "bpf", "perf_event_open",
            "userfaultfd", "add_key", "keyctl", "mount", "fsopen", "unshare user", "setns", "clone newuser",
            "kexec_load", "init_module", "swapon", "reboot", "acct", "personality")


def limits_for(name: str, mode: str) -> Any:
    return replace(LIMITS, **{**MODES[mode], **SYSCALLS[name].limits})


def play(arena: Arena, name: str, mode: str, source: bytes | None = None, opponent: bytes = BASIS) -> Any:
    return play_match(GAME, [source or arena.source(name), opponent], seed=1, logins=["hostile", "basis"],
                      limits=limits_for(name, mode))


def pinned(record: Any, name: str, mode: str) -> None:
    """Both players' verdicts as pinned: the bot's (and its reason), and its legal opponent ``ok``."""
    case = SYSCALLS[name]
    sandboxed = use_bwrap(MODES[mode].get("isolation", "auto"))
    verdict, reason = case.fallback if case.fallback and not sandboxed else (case.verdict, case.reason)
    me, other = record.players
    assert (me.verdict, other.verdict) == (verdict, V.OK), (me.reason, other.reason, me.stderr[-500:])
    assert re.search(reason, me.reason), me.reason
    assert record.end == ("rules" if verdict is V.OK else "verdict")


def sysvipc() -> dict[str, list[str]]:
    """Every SysV object on the machine (the kernel's own tables), by kind."""
    return {kind: Path(f"/proc/sysvipc/{kind}").read_text().splitlines()[1:] for kind in ("shm", "msg", "sem")}


@pytest.mark.parametrize("mode", TIERS)
def test_every_refused_family_gets_eperm(mode: str, arena: Arena, no_leftovers: None) -> None:
    record = play(arena, "syscall_families", mode)
    pinned(record, "syscall_families", mode)
    got = json.loads(record.players[0].stdout)
    assert got.pop("seccomp mode") == "2"  # the filter is in force in the bot's process
    assert got.pop("clone3") == ENOSYS  # so the C library falls back to clone, whose flags are read
    assert got == dict.fromkeys(FAMILIES, EPERM)
    arena.assert_intact()


@pytest.mark.parametrize("mode", TIERS)
def test_no_sysv_object_survives_a_game_or_is_shared(mode: str, arena: Arena, no_leftovers: None) -> None:
    """Both seats play the counter bot, twice: no segment, queue or semaphore set is made, none
    carries a count or a move from one bot or game to another."""
    before = sysvipc()
    source = arena.source("syscall_sysv_counter")
    for _game in range(2):
        record = play(arena, "syscall_sysv_counter", mode, opponent=source)
        assert [p.verdict for p in record.players] == [V.OK, V.OK], [p.reason for p in record.players]
        for player in record.players:
            assert json.loads(player.stdout) == {"shmget": EPERM, "shmget 64 MiB": EPERM, "msgget": EPERM,
                                                 "semget": EPERM}, player.stdout
    assert sysvipc() == before
    arena.assert_intact()


@pytest.mark.parametrize("mode", TIERS)
def test_preallocation_is_refused(mode: str, arena: Arena, no_leftovers: None) -> None:
    record = play(arena, "disk_fallocate_bursts", mode)
    pinned(record, "disk_fallocate_bursts", mode)
    assert record.players[0].stdout.splitlines() == [f"burst {i} errno {EPERM}" for i in range(4)]
    arena.assert_intact()


@pytest.mark.parametrize("mode", TIERS)
def test_disk_held_after_unlinking_is_counted(mode: str, arena: Arena, no_leftovers: None) -> None:
    """40 MiB mapped and unlinked, then a file unlinked while open: stopped near the 64 MiB cap
    (under bubblewrap the tmpfs is full), well before the 768 MiB it tries to hold."""
    record = play(arena, "disk_unlinked_holder", mode)
    pinned(record, "disk_unlinked_holder", mode)
    reached = max(map(int, record.players[0].stdout.split() or ["0"]))
    # Within twice the cap at every moment, the mapping's 40 MiB included (the walk is paced by the
    # writes: 64 MiB of files on top of the mapping were seen once under load, 104 MiB held).
    assert 40 + reached <= 2 * 64, reached
    arena.assert_intact()


@pytest.mark.skipif(container.tier(False) != "container", reason="the parent's folder walk is plain mode's")
def test_churning_entries_costs_the_harness_little(arena: Arena, no_leftovers: None) -> None:
    """990 entries and 1 MiB rewritten for 0.3 s in each of four moves: the parent's own CPU
    time (its rusage: walks, polls, the game, the cleanup) stays within about twice what the
    same game costs it when the bot keeps the same entries and spins as long without writing."""
    source = arena.source("disk_churn_990")
    control = source.replace(b"REWRITE = True", b"REWRITE = False")
    assert control != source

    def harness_cpu(text: bytes) -> float:
        usage = resource.getrusage(resource.RUSAGE_SELF)
        record = play(arena, "disk_churn_990", "plain", source=text)
        after = resource.getrusage(resource.RUSAGE_SELF)
        pinned(record, "disk_churn_990", "plain")
        return after.ru_utime + after.ru_stime - usage.ru_utime - usage.ru_stime

    play(arena, "disk_churn_990", "plain", source=control)  # warm: the bot-side folder, the compile cache
    churn, base = harness_cpu(source), harness_cpu(control)
    assert churn <= 2 * base + 0.1, (churn, base)
    arena.assert_intact()
