"""Starting a bot's process: its folders, then bubblewrap (or a plain process) with its options.

:func:`spawn` makes the bot's temporary folders (its code and a working directory), links the
packages it may import, and starts the worker: from a bubblewrap launcher made ahead in the
bot's own cgroup where one is ready (:mod:`harness.sandbox.launcher`), else bubblewrap or a
plain process started here and enrolled in a new cgroup after its hello. The rest of a bot's
life (hello, calls, turns, kill) is :class:`harness.sandbox.process.BotProcess`'s.
"""

from __future__ import annotations

import os
import subprocess
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from harness.door import modules as door_modules
from harness.sandbox import botside, bubblewrap, container, interpreter, launcher, privileges, stale, syscalls
from harness.sandbox.checks import packages
from harness.sandbox.cgroup import BotCgroup
from harness.sandbox.isolation import use_bwrap
from harness.sandbox.turns import BWRAP_TASKS

if TYPE_CHECKING:
    from harness.games.base import GameSpec
    from harness.sandbox.limits import Limits
    from harness.submission import Submission


class BotProcess(Protocol):
    """What starting a bot reads and sets of its :class:`harness.sandbox.process.BotProcess`.

    A protocol, not an import: the process module imports this one, and the parent's two halves
    must not import each other.
    """

    game: GameSpec
    submission: Submission
    limits: Limits
    package_roots: list[Path]
    proc: subprocess.Popen[bytes] | None
    root: Path | None
    botapi: Path | None
    cgroup: BotCgroup | None
    bwrap: bool
    uid: int | None
    _req_w: int | None
    _rep_r: int | None
    _enrolled: bool

_SWEPT = False  # what a harness killed earlier left behind was swept (once per process)


def scrubbed_env(home: Path) -> dict[str, str]:
    """The bot's whole environment."""
    # Nothing of the parent's environment reaches the bot: no tokens, no paths to the store.
    return {"PATH": "/usr/bin:/bin", "HOME": str(home), "TMPDIR": str(home),
            "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", **packages.THREAD_ENV}


def spawn(bot: BotProcess) -> None:
    """Make the bot's folders and start its process (from a launcher made ahead where one is ready)."""
    global _SWEPT
    if not _SWEPT:  # once per process: what a harness killed earlier left behind
        _SWEPT = True
        stale.sweep_stale_dirs()
    # Named after the owner's pid: a sweep can tell a dead harness's folders from live ones.
    bot.root = Path(tempfile.mkdtemp(prefix=f"{stale.DIR_PREFIX}{os.getpid()}-"))
    code, work = bot.root / "code", bot.root / "work"
    code.mkdir()
    work.mkdir()
    for name, data in bot.submission.files.items():
        (code / name).write_bytes(data)
    door_modules.place(bot.submission.files, code)  # compiled in the door: the bot compiles nothing
    wanted = {*bot.game.submission.packages, *bot.limits.packages}
    bot.bwrap = use_bwrap(bot.limits.isolation)
    lib = botside.folder()
    if wanted:  # resolved once per process; a job's packages were checked when it was read
        found = packages.resolve_all(wanted)
        if not bot.bwrap and privileges.is_root():  # the bot's own uid must read them (container tier)
            found = container.readable_packages(found, lib)
        bot.package_roots = packages.link_folder(bot.root / "packages", found)
    bot.botapi = botside.botapi(bot.game.botapi_dir) if bot.game.botapi_dir is not None else None
    extra = (BWRAP_TASKS if bot.bwrap else 0) + 1  # + 1 spare: the guard's thread cap is the tighter one
    tasks = bot.limits.max_tasks + extra
    memory = bot.limits.memory_bytes + (bot.limits.work_bytes if bot.bwrap else 0) + (64 << 20)
    if bot.bwrap and bot.limits.cgroups and launch(bot, lib, tasks, memory, wanted):
        return
    filter_fd = syscalls.bwrap_pipe() if bot.bwrap else None  # bubblewrap loads the seccomp filter itself
    req_r, bot._req_w = os.pipe()
    bot._rep_r, rep_w = os.pipe()
    theirs: tuple[int, ...] = (req_r, rep_w) + (() if filter_fd is None else (filter_fd,))
    as_user: dict[str, Any] = {}  # plain mode as root: the bot's own uid
    if bot.bwrap:
        support = bubblewrap.support()
        bot.uid = privileges.pick_uid() if support.drop else None
        drop = privileges.setpriv_prefix(support.drop, bot.uid) if support.drop and bot.uid else []
        argv = [support.path or "bwrap", *bwrap_options(bot, lib, wanted, bot.uid),
                *([] if filter_fd is None else ["--seccomp", str(filter_fd)]), *drop,
                bubblewrap.python_executable(), "-I", "-S", "-B", str(lib / botside.SCRIPT), str(req_r), str(rep_w)]
    else:  # no PID namespace to take the bot with the harness: the worker asks the kernel itself
        python, confine = interpreter.chosen(), []
        if privileges.is_root():  # the container tier: never root, Landlock where the kernel has it
            reads = [lib, code, *([bot.root / "packages"] if wanted else []), *bot.package_roots]
            python = container.bot_python([lib, *bot.package_roots])
            confine = container.landlock_args(python, reads, work)
            bot.uid = privileges.pick_uid()
            privileges.share_with(bot.uid, bot.root, code, work)
            as_user = {"user": bot.uid, "group": bot.uid, "extra_groups": []}
        argv = [python, "-I", "-S", "-B", str(lib / botside.SCRIPT), str(req_r), str(rep_w), "pdeathsig",
                *syscalls.worker_args(), *confine]
    bot.python = argv[argv.index("-I") - 1]  # the judge's clock, named in the game's record
    try:
        bot.proc = subprocess.Popen(
            argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            cwd=work, env=scrubbed_env(work), pass_fds=theirs,
            start_new_session=True, close_fds=True, **as_user)
    finally:
        for fd in theirs:
            os.close(fd)
    if bot.limits.cgroups:
        bot.cgroup = BotCgroup.create(tasks, memory)


def bwrap_options(bot: BotProcess, lib: Path, wanted: set[str], uid: int | None) -> list[str]:
    """bubblewrap's options for this bot: its folders, binds and environment."""
    assert bot.root is not None
    support = bubblewrap.support()
    return bubblewrap.bwrap_options(userns=support.userns, code_dir=bot.root / "code",
                                    work_dir=bot.root / "work", botapi_dir=None,  # bot.botapi is in lib
                                    lib_dir=lib, work_bytes=bot.limits.work_bytes,
                                    package_dir=bot.root / "packages" if wanted else None,
                                    package_roots=tuple(bot.package_roots),
                                    drop=(support.drop, uid) if support.drop and uid else None,
                                    env=scrubbed_env(bot.root / "work"))


def launch(bot: BotProcess, lib: Path, tasks: int, memory: int, wanted: set[str]) -> bool:
    """Start the bot from a launcher made ahead, already in its cgroup (:mod:`launcher`).

    False if none is ready (one is then being made for a later start) or it failed: the
    caller starts bubblewrap itself.
    """
    support = bubblewrap.support()
    kind = (support.path or "bwrap", support.drop, bubblewrap.python_executable(), str(lib / botside.SCRIPT),
            syscalls.enabled())
    ready = launcher.claim(kind, privileges.pick_uid, tasks, memory,
                           lambda uid: bwrap_options(bot, lib, wanted, uid))
    if ready is None:
        return False
    bot.proc, bot.cgroup, bot.uid = ready.proc, ready.cgroup, ready.uid
    bot.python = kind[2]
    bot._req_w, bot._rep_r = ready.req_w, ready.rep_r
    bot._enrolled = True  # born in its cgroup: nothing to move
    return True


__all__ = ["bwrap_options", "launch", "scrubbed_env", "spawn"]
