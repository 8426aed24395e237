"""The container tier, for real: a root harness without bubblewrap (``isolation="plain"``).

As in a Docker, Gradescope or CI container: each bot runs as a uid of its own, never root, and
under a Landlock ruleset (this kernel has one) applied before any of its code runs. Each
attack is made by a bot that first disarms the guard, so only the kernel stands in its way, and
each is made a second time with Landlock turned off (``HARNESS_LANDLOCK=0``): the same bot
then gets what it went for, so the first game shows Landlock at work, not the uid or the
guard. Where no interpreter the bot's uid can read exists, the harness refuses to play with
one line, and no bot is charged.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import socket
import sys
import tempfile
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from harness.games import get_game
from harness.match import play_match
from harness.record import Verdict
from harness.sandbox import Limits, container, interpreter, isolation, privileges
from harness.sandbox.bot import landlock
from tests.conftest import REPO
from tests.sandbox.conftest import SANDBOX_BOTS

GAME = get_game("priemspel")
BASIS = (REPO / "reference_players/priemspel/basis.py").read_bytes()
LIMITS = Limits(init=1.0, move=0.5, isolation="plain")
V = Verdict
DENIED = r"^zet\(\) raised PermissionError: \[Errno (13|1)\] (Permission denied|Operation not permitted)"

pytestmark = pytest.mark.skipif(not (sys.platform.startswith("linux") and privileges.is_root()),
                                reason="the container tier is a root harness's (Linux); CI runs as root")


@dataclass
class Targets:
    """What the bots go for: a world-readable file and a world-writable folder outside their own
    folders, a TCP listener on 127.0.0.1 and an abstract unix socket."""

    public: Path
    open_folder: Path
    tcp: socket.socket
    abstract: socket.socket
    name: str

    def source(self, action: str) -> bytes:
        text = (SANDBOX_BOTS / "landlock_escape.py").read_text()
        for key, value in {"@ACTION@": action, "@PUBLIC@": self.public, "@OPEN_FOLDER@": self.open_folder,
                           "@PORT@": self.tcp.getsockname()[1], "@ABSTRACT@": self.name}.items():
            text = text.replace(key, str(value))
        return text.encode()

    def reached(self) -> bool:
        """Whether a connection reached either listener (and accept it)."""
        for listener in (self.tcp, self.abstract):
            try:
                listener.accept()[0].close()
                return True
            except BlockingIOError:
                pass
        return False


@pytest.fixture
def targets() -> Iterator[Targets]:
    base = Path(tempfile.mkdtemp(prefix="harness-container-test-"))  # under /tmp itself, not pytest's 0700 folders
    tcp = socket.create_server(("127.0.0.1", 0))
    abstract = socket.socket(socket.AF_UNIX)
    name = f"harness-container-test-{uuid.uuid4().hex}"
    try:
        base.chmod(0o755)
        public = base / "public.txt"
        public.write_text("a world-readable secret\n")
        public.chmod(0o644)
        open_folder = base / "open"
        open_folder.mkdir()
        open_folder.chmod(0o777)
        abstract.bind("\0" + name)
        for listener in (tcp, abstract):
            listener.listen(4)
            listener.setblocking(False)
        yield Targets(public, open_folder, tcp, abstract, name)
    finally:
        tcp.close()
        abstract.close()
        shutil.rmtree(base)


@pytest.fixture
def seccomp_off(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without the seccomp filter, which refuses every socket() before Landlock judges its connect."""
    monkeypatch.setenv("HARNESS_SECCOMP", "0")


@pytest.fixture
def landlock_off(monkeypatch: pytest.MonkeyPatch, seccomp_off: None) -> Iterator[None]:
    monkeypatch.setenv("HARNESS_LANDLOCK", "0")
    container.landlock_abi.cache_clear()
    yield
    monkeypatch.delenv("HARNESS_LANDLOCK")
    container.landlock_abi.cache_clear()


def play(source: bytes) -> tuple[object, object]:
    record = play_match(GAME, [source, BASIS], seed=1, logins=["hostile", "basis"], limits=LIMITS)
    return record.players[0], record.players[1]


def test_this_kernel_has_landlock_with_tcp_and_scopes() -> None:
    """The tier's tests below need a kernel with Landlock ABI 6+ (Linux 6.12): CI's has ABI 7."""
    assert landlock.abi() >= 6, "expected Landlock ABI 6 or later here"
    assert isolation.tier("plain").startswith("container (root, no bubblewrap: a uid of its own, Landlock ABI")


def test_a_bot_runs_as_a_uid_of_its_own_not_root(targets: Targets, no_leftovers: None) -> None:
    me, other = play(targets.source("uid"))
    assert (me.verdict, other.verdict) == (V.OK, V.OK), me.reason
    uid = int(re.search(r"got: uid (\d+)", me.stdout).group(1))
    assert privileges.UID_BASE <= uid < privileges.UID_BASE + privileges.UID_SPAN


@pytest.mark.parametrize("action", ["read", "write", "tcp", "abstract"])
def test_landlock_stops_a_disarmed_bot(action: str, targets: Targets, seccomp_off: None, no_leftovers: None) -> None:
    me, other = play(targets.source(action))
    assert (me.verdict, other.verdict) == (V.EXCEPTION, V.OK), me.reason
    assert re.search(DENIED, me.reason), me.reason
    assert "got:" not in me.stdout and not targets.reached()
    assert not (targets.open_folder / "planted.txt").exists()


@pytest.mark.parametrize("action", ["read", "write", "tcp", "abstract"])
def test_without_landlock_the_same_bot_gets_through(action: str, targets: Targets, landlock_off: None,
                                                    no_leftovers: None) -> None:
    """The control: its uid alone stops none of these (the file, the folder and the sockets are
    open to every uid), so the test above shows Landlock at work."""
    me, other = play(targets.source(action))
    assert (me.verdict, other.verdict) == (V.OK, V.OK), me.reason
    expected = {"read": "got: a world-readable secret", "write": "got: written", "tcp": "got: connected",
                "abstract": "got: connected"}[action]
    assert expected in me.stdout
    if action in ("tcp", "abstract"):
        assert targets.reached()
    if action == "write":
        assert (targets.open_folder / "planted.txt").read_text() == "planted"


def test_a_guarded_bot_still_gets_the_guard_s_clear_verdict(no_leftovers: None) -> None:
    """Where the guard catches an attempt first, its ``forbidden`` verdict stands under Landlock."""
    source = (b"class Player:\n    def __init__(self, name):\n        pass\n"
              b"    def zet(self, spel):\n        return len(open('/etc/hostname').read())\n")
    me, other = play(source)
    assert (me.verdict, other.verdict) == (V.FORBIDDEN, V.OK), me.reason
    assert "reading '/etc/hostname' (outside the bot's own files) is not allowed" in me.reason


@pytest.fixture
def unreadable_python(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """The harness's interpreter as if it lived in a folder other uids cannot search (pyenv
    under /root), and no other Python of its version on the machine."""
    base = Path(tempfile.mkdtemp(prefix="harness-container-python-"))
    shut = base / "home"
    shut.mkdir(mode=0o700)
    python = shut / "python3"
    python.write_text("")
    python.chmod(0o755)
    monkeypatch.setattr(container, "OWN_PYTHON", (str(python), str(shut), str(shut)))
    # The rule of every tier (harness.sandbox.interpreter) picks it: no other Python of its version.
    monkeypatch.setattr(interpreter, "default", lambda: str(python))
    monkeypatch.setattr(interpreter, "_requested", None)
    yield str(python)
    container._alternative.cache_clear()
    shutil.rmtree(base)


def test_no_readable_interpreter_refuses_with_one_line(unreadable_python: str, monkeypatch: pytest.MonkeyPatch,
                                                       no_leftovers: None) -> None:
    monkeypatch.setattr(container, "CANDIDATES", (unreadable_python,))
    with pytest.raises(container.NoReadablePython) as refused:
        container.bot_python()
    line = str(refused.value)
    assert "\n" not in line and line.startswith("refusing to run bots as root")
    assert "is not searchable by other users" in line
    assert "install the harness in a venv made from a python every user can read" in line
    # A game is the harness's fault, never the bot's: neither player is charged.
    record = play_match(GAME, [BASIS, BASIS], seed=1, limits=LIMITS)
    assert [p.verdict for p in record.players] == [V.HARNESS_ERROR, V.HARNESS_ERROR] and record.winner is None
    assert all(p.reason == f"cannot start the bot: {line}" for p in record.players)


def test_a_same_version_interpreter_every_uid_can_read_is_used_instead(unreadable_python: str,
                                                                      no_leftovers: None) -> None:
    """The harness's Python under /root: a bot runs the system's Python of the same version."""
    system = next((p for p in container.CANDIDATES if os.path.isfile(p)), None)
    if system is None:
        pytest.fail(f"expected one of {container.CANDIDATES} here (CI installs Debian's python3.11)")
    assert container.bot_python() == os.path.realpath(system)
    me, other = play(BASIS)
    assert (me.verdict, other.verdict) == (V.OK, V.OK), me.reason


@pytest.mark.parametrize("landlock_env", ["", "0"])
def test_doctor_names_the_container_tier_and_each_layer(landlock_env: str) -> None:
    env = {**os.environ, "HARNESS_ISOLATION": "plain", "HARNESS_LANDLOCK": landlock_env,
           "PYTHONPATH": str(REPO)}
    run = subprocess.run([sys.executable, "-m", "harness", "doctor"], capture_output=True, text=True, timeout=300,
                         cwd=REPO, env=env)
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    uid_line = next(line for line in lines if "bot runs as an unprivileged uid of its own" in line)
    assert uid_line.startswith("  [x]") and "plain process started as uid" in uid_line
    landlock_line = next(line for line in lines if "Landlock (files, TCP, signals and abstract sockets)" in line)
    tier = next(line for line in lines if line.startswith("tier: "))
    if landlock_env == "0":
        assert landlock_line.startswith("  [ ]") and "HARNESS_LANDLOCK=0" in landlock_line
        assert tier.startswith("tier: container (root, no bubblewrap: a uid of its own, Landlock off")
    else:
        assert landlock_line.startswith("  [x]") and "no TCP bind or connect" in landlock_line
        assert "signals and abstract unix sockets scoped" in landlock_line
        assert tier.startswith("tier: container (root, no bubblewrap: a uid of its own, Landlock ABI ")
    assert "live check: a trivial bot started" in run.stdout


def test_a_ruleset_the_worker_cannot_apply_is_the_harness_s_error(monkeypatch: pytest.MonkeyPatch,
                                                                 no_leftovers: None) -> None:
    """Fail closed: a bot whose ruleset does not apply is not started (never run without it),
    and neither player is charged."""
    monkeypatch.setattr(container, "landlock_args", lambda *args: ["landlock", "not-an-abi", "r:/usr"])
    record = play_match(GAME, [BASIS, BASIS], seed=1, limits=LIMITS)
    assert [p.verdict for p in record.players] == [V.HARNESS_ERROR, V.HARNESS_ERROR] and record.winner is None
    assert all("cannot apply the Landlock ruleset" in p.reason for p in record.players), record.players[0].reason


def test_a_harness_that_is_not_root_names_the_unprotected_tier() -> None:
    """The third tier, for real: the harness run by an ordinary uid (a student's laptop), whose
    bots run as that uid, with rlimits and the guard only, and doctor says so plainly."""
    if privileges.plain_obstacle([sys.executable, *container.OWN_PYTHON]) is not None:
        pytest.skip("needs a harness interpreter every uid can read (CI's venv of Debian's python3.11)")
    env = {"PATH": "/usr/bin:/bin", "HOME": "/tmp", "HARNESS_ISOLATION": "plain", "LANG": "C.UTF-8"}
    if privileges.plain_obstacle([str(REPO / "harness" / "__init__.py")]) is None:
        env["PYTHONPATH"] = str(REPO)  # this checkout where that uid can read it, else the venv's copy
    run = subprocess.run([sys.executable, "-m", "harness", "doctor"], capture_output=True, text=True, timeout=300,
                         cwd="/", env=env, user=65534, group=65534, extra_groups=[])
    assert run.returncode == 0, run.stderr
    assert "tier: unprotected (the harness is not root: rlimits and the guard only" in run.stdout
    assert "[ ] bot runs as an unprivileged uid of its own" in run.stdout
    assert "[ ] Landlock" in run.stdout and "live check: a trivial bot started" in run.stdout
