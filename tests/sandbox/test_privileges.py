"""Bots never run as root: the kernel's own view of a real bot process, and what doctor says.

The process's credentials are read by the test from ``/proc/<pid>/status`` (the bot cannot
read it: the guard refuses), so nothing here trusts the bot's word.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from harness.games import get_game
from harness.sandbox import bubblewrap, privileges
from harness.sandbox.isolation import use_bwrap
from harness.sandbox.limits import Limits
from harness.sandbox.process import BotProcess
from tests.conftest import REPO

GAME = get_game("priemspel")
BASIS = (REPO / "reference_players/priemspel/basis.py").read_bytes()


def status(pid: int) -> dict[str, str]:
    """The kernel's status lines of ``pid``: name -> value."""
    lines = Path(f"/proc/{pid}/status").read_text().splitlines()
    return {k: v.strip() for k, _, v in (line.partition(":") for line in lines)}


def credentials(mode: str) -> tuple[dict[str, str], int | None]:
    limits = Limits(isolation=mode).with_game(GAME)
    with BotProcess(GAME, BASIS, limits=limits) as bot:
        loaded = bot.load()
        assert loaded.ok, loaded.reason
        assert bot.worker_pid is not None
        return status(bot.worker_pid), bot.uid


needs_linux_root = pytest.mark.skipif(not (sys.platform.startswith("linux") and privileges.is_root()),
                                      reason="the drop happens only where the harness is root (Linux)")


@needs_linux_root
def test_under_bubblewrap_a_bot_runs_as_its_own_uid_without_any_capability(no_leftovers: None) -> None:
    if not use_bwrap("auto") or not bubblewrap.support().drop:
        pytest.fail(f"expected bubblewrap with setpriv as root here: {bubblewrap.support()}")
    first, uid = credentials("auto")
    assert uid is not None and privileges.UID_BASE <= uid < privileges.UID_BASE + privileges.UID_SPAN
    assert first["Uid"].split() == [str(uid)] * 4 and first["Gid"].split() == [str(uid)] * 4
    assert first["Groups"] == ""
    assert int(first["CapEff"], 16) == int(first["CapPrm"], 16) == int(first["CapBnd"], 16) == 0
    assert first["NoNewPrivs"] == "1"
    second, other = credentials("auto")
    assert other != uid  # two bots never share a uid


@needs_linux_root
def test_in_plain_mode_a_bot_runs_as_its_own_uid_never_root(no_leftovers: None) -> None:
    """The container tier: with an interpreter under /root (pyenv here), the bot runs a
    same-version one every uid can read; from a venv of such a Python (CI), the harness's own."""
    found, uid = credentials("plain")
    assert uid is not None and privileges.UID_BASE <= uid < privileges.UID_BASE + privileges.UID_SPAN
    assert found["Uid"].split() == [str(uid)] * 4 and found["Gid"].split() == [str(uid)] * 4
    assert found["Groups"] == "" and int(found["CapEff"], 16) == 0


def test_what_an_ordinary_user_cannot_reach_is_named() -> None:
    base = Path(tempfile.mkdtemp())  # under /tmp itself: pytest's own folders are root's, 0700
    try:
        base.chmod(0o755)
        shut = base / "private"
        shut.mkdir(mode=0o700)
        (shut / "python").write_text("")
        open_ = base / "public"
        open_.mkdir(mode=0o755)
        (open_ / "python").write_text("")
        (open_ / "python").chmod(0o644)
        (open_ / "secret").write_text("")
        (open_ / "secret").chmod(0o600)
        assert privileges._unreadable(str(open_ / "python")) is None
        assert privileges._unreadable(str(shut / "python")) == f"{shut} is not searchable by other users"
        assert privileges._unreadable(str(open_ / "secret")) == f"{open_ / 'secret'} is not readable by other users"
    finally:
        shutil.rmtree(base)


def test_doctor_says_who_bots_run_as_and_what_plain_mode_does_not_stop() -> None:
    run = subprocess.run([sys.executable, "-m", "harness", "doctor"], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    assert "bot runs as an unprivileged uid of its own" in run.stdout
    assert "does not stop:" in run.stdout or "would not stop:" in run.stdout
    assert "a bot can tell which paths exist" in run.stdout
    if os.geteuid() == 0:  # the container tier: its seccomp filter leaves a disarmed bot no UDP, no SysV IPC
        assert "a bot that disarms the guard can still use UDP" not in run.stdout


@needs_linux_root
def test_a_dropped_uid_reads_its_code_writes_its_folder_and_nothing_of_the_harness_s(tmp_path: Path) -> None:
    """The folders as plain mode shares them, used by a real process of another uid.

    The system's interpreter runs the probe (any an ordinary user can run): the point is the
    layout of the bot's folders, which the harness made as root with mkdtemp (mode 0700).
    """
    system_python = next((p for p in ("/usr/bin/python3", "/usr/local/bin/python3")
                          if privileges.plain_obstacle([p]) is None), None)
    if system_python is None:
        pytest.fail("no interpreter an ordinary user can run here (/usr/bin/python3)")
    root = Path(tempfile.mkdtemp(prefix="harness-privileges-test-"))
    try:
        code, work, other = root / "code", root / "work", root / "store"
        for folder in (code, work, other):
            folder.mkdir()
        (code / "player.py").write_text("print('the bot')\n")
        (other / "results.sqlite").write_text("the store\n")
        uid = privileges.pick_uid()
        privileges.share_with(uid, root, code, work)
        probe = (f"import os\nprint(open({str(code / 'player.py')!r}).read().strip())\n"
                 f"open({str(work / 'cache')!r}, 'w').write('x')\n"
                 f"for path in ({str(other / 'results.sqlite')!r}, {str(code / 'extra')!r}):\n"
                 f"    try:\n        open(path, 'a')\n        print('wrote', path)\n"
                 f"    except PermissionError:\n        print('refused')\n"
                 f"try:\n    os.listdir({str(root)!r})\nexcept PermissionError:\n    print('not listable')\n")
        run = subprocess.run([system_python, "-I", "-S", "-c", probe], capture_output=True, text=True,
                             timeout=60, user=uid, group=uid, extra_groups=[], cwd=work)
        assert run.stdout.splitlines() == ["print('the bot')", "refused", "refused", "not listable"], \
            run.stdout + run.stderr
        assert (work / "cache").stat().st_uid == uid
    finally:
        shutil.rmtree(root)  # root deletes what the bot's uid wrote
    assert not root.exists()
