"""The bot-side guard's judgements, called directly (its hook is never installed in this process),
and as a bot's process has it: installed and armed in a fresh interpreter."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from harness.sandbox import botside
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
    # called from here, not from socket.py's socket.__init__ with a descriptor: socket(2) would follow
    assert guard._socket((None, socket.AF_UNIX, socket.SOCK_STREAM, 0)) == "network access (a unix socket)"
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


# A fresh `python -I -S` with the guard installed and armed as a worker does, from the compiled
# bot-side folder, before `socket` is imported (as in a bot's process): each attempt prints what
# became of it.
SOCKETS = r"""
import json, os, sys
sys.path.insert(0, sys.argv[1])
import _harness_guard as guard
early = "socket" in sys.modules
g = guard.Guard()
g.install()
if sys.argv[2] == "before":
    import socket
g.arm(player_path=os.path.abspath(sys.argv[0]), read_roots=sys.path, write_roots=[os.getcwd()],
      forbidden_imports=(), max_threads=8, library_roots=[os.path.dirname(os.__file__)])
import _socket, socket
out = {"early": early}
def attempt(name, action):
    try:
        action()
        out[name] = "ok"
    except guard.Forbidden:
        out[name] = g.take_violation()
a, b = socket.socketpair()
attempt("socketpair", socket.socketpair)
attempt("fromfd", lambda: socket.fromfd(a.fileno(), socket.AF_UNIX, socket.SOCK_STREAM))
attempt("fileno", lambda: socket.socket(fileno=os.dup(a.fileno())))
attempt("dup", a.dup)
attempt("unix", lambda: socket.socket(socket.AF_UNIX, socket.SOCK_STREAM))
attempt("inet", socket.socket)
attempt("_socket", _socket.socket)
# code of its own under socket.py's name, whose `fileno` says "a descriptor" while it asks for a socket
forged = {}
exec(compile("import _socket\nclass socket(_socket.socket):\n    def __init__(self, fileno=5):\n"
             "        _socket.socket.__init__(self, 1, 1, 0, None)\n", socket.__file__, "exec"), forged)
attempt("forged", forged["socket"])
print(json.dumps(out))
"""


@pytest.mark.parametrize("imported", ["before", "after"])
def test_a_unix_socket_is_refused_unless_it_wraps_a_descriptor(imported: str, tmp_path: Path) -> None:
    """socketpair, fromfd, fileno= and dup wrap a descriptor: allowed. Every socket that would call
    socket(2), a unix one too, is refused with its reason, whether `socket` was imported before
    the guard was armed (by the worker) or after (by the bot, as usual)."""
    script = tmp_path / "player.py"
    script.write_text(SOCKETS)
    bot_side = botside.folder()
    done = subprocess.run([sys.executable, "-I", "-S", str(script), str(bot_side), imported], cwd=tmp_path,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out.pop("early") is False  # the guard itself never imports socket (5 ms of every start)
    assert all(v == "ok" or v.endswith(")") and " is not allowed (player.py line " in v for v in out.values()), out
    reasons = {name: v.partition(" is not allowed")[0] for name, v in out.items()}
    assert reasons == {"socketpair": "ok", "fromfd": "ok", "fileno": "ok", "dup": "ok",
                       "unix": "network access (a unix socket)", "inet": "network access (a socket of family 2)",
                       "_socket": "network access (a socket of family 2)",
                       "forged": "network access (a unix socket)"}, out
