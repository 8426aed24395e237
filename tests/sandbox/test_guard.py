"""The bot-side guard's judgements, called directly (its hook is never installed in this process)."""

from __future__ import annotations

import os
import socket
from pathlib import Path

import pytest

from harness.sandbox.bot.guard import Forbidden, Guard


@pytest.fixture
def guard(tmp_path: Path) -> Guard:
    """A guard armed for a bot with code/ and work/ under ``tmp_path``, not installed as a hook."""
    g = Guard()
    (tmp_path / "code").mkdir()
    (tmp_path / "work").mkdir()
    (tmp_path / "lib" / "statistics").mkdir(parents=True)
    g.player_path = str(tmp_path / "code" / "player.py")
    g.read_roots = tuple(str(tmp_path / d) for d in ("code", "work", "lib")) + ("/dev/null",)
    g.write_roots = (str(tmp_path / "work"), "/dev/null")
    g.library_roots = (str(tmp_path / "lib"),)
    g.forbidden_imports = frozenset({"statistics"})
    return g


def test_files_inside_the_bot_s_folders_are_allowed(guard: Guard, tmp_path: Path) -> None:
    assert guard._open((str(tmp_path / "code" / "player.py"), "r", os.O_RDONLY)) is None
    assert guard._open((str(tmp_path / "work" / "cache.txt"), "w", os.O_WRONLY | os.O_CREAT)) is None
    assert guard._open(("/dev/null", "w", os.O_WRONLY)) is None
    assert guard._open((3, "r", 0)) is None  # a descriptor: judged when it was opened


def test_files_outside_are_refused(guard: Guard, tmp_path: Path) -> None:
    assert "writing" in guard._open((str(tmp_path / "code" / "player.py"), "a", os.O_APPEND))
    assert "reading '/etc/passwd'" in guard._open(("/etc/passwd", "r", os.O_RDONLY))
    assert "writing" in guard._open((str(tmp_path / "elsewhere"), None, os.O_RDWR))  # os.open with flags


def test_symlinks_and_dot_dot_are_resolved(guard: Guard, tmp_path: Path) -> None:
    (tmp_path / "work" / "link").symlink_to("/etc/passwd")
    assert "reading '/etc/passwd'" in guard._open((str(tmp_path / "work" / "link"), "r", 0))
    assert "outside" in guard._open((str(tmp_path / "work" / ".." / ".." / "secret"), "r", 0))


def test_path_events(guard: Guard, tmp_path: Path) -> None:
    assert guard._paths("os.rename", (str(tmp_path / "work" / "a"), str(tmp_path / "work" / "b")), (0, 1)) is None
    assert "os.link" in guard._paths("os.link", ("/etc/passwd", str(tmp_path / "work" / "x")), (0, 1))
    assert guard._read("os.listdir", (str(tmp_path / "work"),), 0) is None
    assert "os.listdir('/')" in guard._read("os.listdir", ("/",), 0)


def test_forbidden_module_files_are_refused_whatever_the_import_route(guard: Guard, tmp_path: Path) -> None:
    assert "statistics" in guard._open((str(tmp_path / "lib" / "statistics.py"), "r", 0))
    assert "statistics" in guard._open((str(tmp_path / "lib" / "__pycache__" / "statistics.cpython-311.pyc"), "r", 0))
    assert "statistics" in guard._open((str(tmp_path / "lib" / "statistics" / "__init__.py"), "r", 0))
    assert guard._open((str(tmp_path / "lib" / "random.py"), "r", 0)) is None
    assert "game's import policy" in guard._import(("statistics.x",))
    assert guard._import(("random",)) is None


def test_modules_the_sandbox_never_grants_are_a_verdict_for_the_bot_and_missing_for_a_library(
        guard: Guard) -> None:
    # Asked for by a library (here: this test file, not the bot's): the module is just missing,
    # as numpy's optional `import ctypes` finds it on a machine without ctypes.
    with pytest.raises(ModuleNotFoundError, match="ctypes"):
        guard._import(("ctypes",))
    assert guard.take_violation() is None
    # Asked for by the bot's own code (its folder): refused, and the call ends with a verdict.
    guard.bot_dir = os.path.dirname(os.path.abspath(__file__))
    with pytest.raises(Forbidden, match="ctypes"):
        guard._import(("ctypes",))
    assert "could get around the sandbox" in guard.take_violation()


def test_signals_sockets_and_attributes(guard: Guard) -> None:
    assert guard._kill((os.getpid(), 0)) is None
    assert "another process" in guard._kill((1, 9))
    assert guard._socket((None, socket.AF_UNIX, socket.SOCK_STREAM, 0)) is None
    assert "network access" in guard._socket((None, socket.AF_INET, socket.SOCK_STREAM, 0))

    def harness_function() -> None:
        pass

    harness_function.__module__ = "_harness_wire"
    assert "monkeypatching the harness" in guard._setattr((harness_function, "__code__", None))
    assert guard._setattr((test_signals_sockets_and_attributes, "__code__", None)) is None


def test_a_refusal_raises_and_is_recorded_once(guard: Guard) -> None:
    with pytest.raises(Forbidden, match="the sandbox refuses os.fork"):
        guard.refuse("os.fork")
    with pytest.raises(Forbidden):
        guard.refuse("os.system")
    assert guard.take_violation() == "os.fork is not allowed"  # the first one is the verdict's reason
    assert guard.take_violation() is None
