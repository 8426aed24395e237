"""The compiled bot-side files: made once per harness process, fresh against their sources, and
what a real bot's process runs."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from harness.door import modules as door_modules
from harness.games import get_game
from harness.games.base import Call, WireObject
from harness.sandbox import BotProcess, botside

GAME = get_game("priemspel")
VIEW = WireObject("Spel", {"_N": 5, "_positie": 0, "_eind": 23})
CHECKED_HASH = 0b11  # a pyc's flags word: hash-based, checked against its source at every import


def _flags(pyc: Path) -> int:
    return int.from_bytes(pyc.read_bytes()[4:8], "little")


def test_the_folder_holds_the_worker_compiled_and_its_modules_with_checked_bytecode() -> None:
    lib = botside.folder()
    assert lib == botside.folder()  # once per process
    assert lib.name.startswith(f"{botside.PREFIX}{os.getpid()}-")
    assert (lib / botside.SCRIPT).read_bytes()[:4] == __import__("importlib.util").util.MAGIC_NUMBER
    for source, module in botside.MODULES.items():
        if module is None:
            continue
        assert (lib / f"{module}.py").read_bytes() == (botside.HERE / source).read_bytes()
        [pyc] = (lib / "__pycache__").glob(f"{module}.*.pyc")
        assert _flags(pyc) == CHECKED_HASH
    for path in [lib, *lib.rglob("*")]:  # nobody, not even the harness's own uid, writes it
        assert not os.stat(path).st_mode & 0o222 if path.is_file() else os.stat(path).st_mode & 0o777 == 0o755


def test_a_changed_source_gets_a_new_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    here = tmp_path / "sandbox"
    shutil.copytree(botside.HERE, here, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(botside, "HERE", here)
    monkeypatch.setattr(botside, "SOURCES", tuple(here / n for n in botside.MODULES))
    monkeypatch.setattr(botside, "_built", None)
    first = botside.folder()
    wire = here / "wire.py"
    wire.write_text(wire.read_text() + "\nCHANGED = True\n")
    second = botside.folder()
    assert second != first and not first.exists()
    assert "CHANGED = True" in (second / "_harness_wire.py").read_text()
    botside._remove()
    assert not second.exists()


def test_a_bot_runs_the_compiled_worker_and_a_stale_pyc_never_runs() -> None:
    """A bot reads what its process imported: the worker is ``__main__`` from ``worker.pyc``, and
    a module whose source no longer matches its bytecode runs from the source."""
    lib = botside.folder()
    copy = lib / "_harness_construct.py"
    original = copy.read_bytes()
    bot = (b"import sys\n"
           b"main, construct = sys.modules['__main__'], sys.modules['_harness_construct']\n"
           b"assert main.__file__.endswith('/worker.pyc'), main.__file__\n"
           b"assert getattr(construct, 'STALE_CHECK', False), 'a stale pyc ran'\n"
           b"class Player:\n    def __init__(self, name):\n        pass\n    def zet(self, spel):\n        return 2\n")
    os.chmod(copy, 0o644)
    try:  # the source changes, its pyc does not: the import must see the change
        copy.write_bytes(original + b"\nSTALE_CHECK = True\n")
        # Sealed as if the harness had made the change: the folder's seal would otherwise replace
        # the whole folder (tests/hostile/test_escape.py), and the pyc's own check is tested here.
        botside._sealed[lib] = botside._seal(lib)
        with BotProcess(GAME, bot) as b:
            loaded = b.load()
            assert loaded.ok, loaded.reason
            assert b.call(Call("__init__", ("x",), "init")).ok
            assert b.call(Call("zet", (VIEW,), "move")).value == 2
    finally:
        copy.write_bytes(original)
        os.chmod(copy, 0o444)
        botside._sealed[lib] = botside._seal(lib)


def test_the_folder_goes_when_the_harness_process_exits(tmp_path: Path) -> None:
    code = ("import sys; sys.path.insert(0, sys.argv[1]); from harness.sandbox import botside; "
            "print(botside.folder(), flush=True)")
    done = subprocess.run([sys.executable, "-c", code, str(Path(__file__).resolve().parents[2])],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    folder = Path(done.stdout.strip())
    deadline = time.monotonic() + 10
    while folder.exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert folder.name.startswith(botside.PREFIX) and not folder.exists()


@pytest.mark.parametrize("isolation", ["auto", "plain"])
def test_a_bot_dies_with_a_harness_killed_with_sigkill(isolation: str) -> None:
    """Under bubblewrap its PID namespace takes the worker along (the worker no longer asks the
    kernel itself); in plain mode the worker's own PR_SET_PDEATHSIG does."""
    code = ("import sys, time; sys.path.insert(0, sys.argv[1])\n"
            "from harness.games import get_game; from harness.sandbox import BotProcess, Limits\n"
            "b = BotProcess(get_game('priemspel'), b'class Player:\\n    pass\\n', limits=Limits(isolation=sys.argv[2]))\n"
            "assert b.load().ok\n"
            "print(b.worker_pid, b.pid, int(b.bwrap), flush=True)\n"
            "time.sleep(600)\n")
    harness = subprocess.Popen([sys.executable, "-c", code, str(Path(__file__).resolve().parents[2]), isolation],
                               stdout=subprocess.PIPE, text=True)
    try:
        assert harness.stdout is not None
        worker, root, bwrapped = map(int, harness.stdout.readline().split())
        assert bwrapped == (isolation == "auto" and botside_bwrap())
        assert Path(f"/proc/{worker}/cmdline").read_bytes().split(b"\0")[4].endswith(b"/worker.pyc")
    finally:
        harness.kill()
        harness.wait()
    deadline = time.monotonic() + 30
    while any(_alive(p) for p in (worker, root)) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _alive(worker) and not _alive(root), "the bot outlived its harness"


def botside_bwrap() -> bool:
    from harness.sandbox import bubblewrap

    return bubblewrap.support().available


def _alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return False


THREADS_PROBE = """
def probe():
    import asyncio, signal, threading

    async def three():
        return 3

    seen = []
    helper = threading.Thread(target=lambda: seen.append(threading.current_thread().name), name="helper")
    helper.start()
    helper.join()
    refused = []
    for call in (lambda: signal.signal(signal.SIGALRM, lambda *a: None), lambda: signal.set_wakeup_fd(-1),
                 asyncio.get_event_loop):
        try:
            call()
            refused.append("")
        except Exception as exc:
            refused.append(f"{type(exc).__name__}: {str(exc).split(' in thread ')[0]}")
    return [threading.current_thread() is threading.main_thread(), threading.main_thread().name,
            threading.main_thread().is_alive(), len(threading.enumerate()), seen, refused, asyncio.run(three()),
            signal.getsignal(signal.SIGINT) is signal.default_int_handler]
"""

THREADS_BOT = ('''import sys
BEFORE = sorted(m for m in ("json", "re", "threading", "enum", "functools", "collections") if m in sys.modules)
import threading
''' + THREADS_PROBE + '''

class Player:
    def __init__(self, name):
        pass

    def zet(self, spel):
        return [BEFORE, probe()]
''').encode()


def _as_on_the_course_s_grader() -> list:
    """The probe run as the course's manager ran a bot's call: on a thread of its own (func-timeout's)."""
    code = THREADS_PROBE + """
import json, threading
out = []
t = threading.Thread(target=lambda: out.append(probe()))
t.start()
t.join()
print(json.dumps(out[0]))
"""
    done = subprocess.run([sys.executable, "-I", "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.mark.parametrize("isolation", ["auto", "plain"])
def test_the_worker_starts_without_json_re_or_threading_and_the_bot_sees_threads_as_on_the_grader(
        isolation: str) -> None:
    """The start imports none of them (the bot pays for what it imports itself). The bot's code
    runs on the process's main thread, yet ``threading``, ``signal`` and ``asyncio`` tell it what
    they told a bot on the course's grader, whose calls ran on a thread of their own: not the
    main thread, ``signal.signal`` refused, no implicit event loop; its own threads and
    ``asyncio.run`` work."""
    from harness.sandbox import Limits

    with BotProcess(GAME, THREADS_BOT, limits=Limits(isolation=isolation)) as b:
        loaded = b.load()
        assert loaded.ok, loaded.reason
        assert b.call(Call("__init__", ("x",), "init")).ok
        answer = b.call(Call("zet", (VIEW,), "move"))
        assert answer.ok, answer.reason
    grader = _as_on_the_course_s_grader()
    assert grader[0] is False and grader[5][0].startswith("ValueError: signal only works in main thread")
    assert answer.value == [[], grader]


RANDOM_BOT = b'''import importlib.util, sys
BEFORE = "random" in sys.modules
assert importlib.util.find_spec("random") is not None  # looking first does not unseed the import
import random, tempfile

class Player:
    def __init__(self, name):
        self.first = random.random()

    def zet(self, spel):
        return [BEFORE, self.first, random.__file__.endswith("/random.py"), type(random.__loader__).__name__,
                any(type(f).__name__ == "SeededRandom" for f in sys.meta_path)]
'''


def test_random_is_seeded_from_the_game_s_seed_at_its_first_import_and_only_then() -> None:
    """The worker imports ``random`` only when something does (a start need not pay for it), and
    seeds it from the game's seed before the importer sees it, as it did when it imported it itself."""
    import random

    values = []
    for seed in (5, 5, 6):
        with BotProcess(GAME, RANDOM_BOT, seed=seed) as b:
            assert b.load().ok and b.call(Call("__init__", ("x",), "init")).ok
            answer = b.call(Call("zet", (VIEW,), "move"))
            assert answer.ok, answer.reason
            before, first, stdlib, loader, finder = answer.value
            assert (before, stdlib, loader, finder) == (False, True, "SourceFileLoader", False)
            values.append(first)
    assert values[0] == values[1] == random.Random(5).random() != values[2] == random.Random(6).random()


PYC_BOT = b'''import importlib.util, sys
import priemspel

def header(path):
    with open(importlib.util.cache_from_source(path), "rb") as f:
        data = f.read(16)
    with open(path, "rb") as f:
        source = f.read()
    return [int.from_bytes(data[4:8], "little"), data[8:16] == importlib.util.source_hash(source)]

class Player:
    def __init__(self, name):
        pass

    def zet(self, spel):
        return [header(__file__), header(priemspel.__file__), priemspel.__file__]
'''


def test_the_bot_s_module_and_its_bot_api_come_with_checked_bytecode() -> None:
    """Neither player.py nor the game's bot API is compiled in the bot's process: both have a
    checked-hash pyc beside them (the bot API's in the read-only folder of bot-side files)."""
    with BotProcess(GAME, PYC_BOT) as b:
        assert b.load().ok and b.call(Call("__init__", ("x",), "init")).ok
        answer = b.call(Call("zet", (VIEW,), "move"))
        assert answer.ok, answer.reason
        lib = botside.folder()
    own, api, api_file = answer.value
    assert own == [CHECKED_HASH, True] and api == [CHECKED_HASH, True]
    assert Path(api_file).is_relative_to(lib / "api") and Path(api_file).parent.name == "botapi"
    assert Path(api_file).read_bytes() == (GAME.botapi_dir / "priemspel.py").read_bytes()


def test_a_module_whose_compilation_warns_is_compiled_by_the_bot_and_the_warning_is_the_bot_s() -> None:
    source = (b"class Player:\n    def __init__(self, name):\n        pass\n"
              b"    def zet(self, spel):\n        return 2 if spel is 1 else 2\n")
    assert door_modules.check({"player.py": source})["player.py"].pyc is None
    assert door_modules.check({"player.py": b"x = ("})["player.py"].pyc is None
    assert door_modules.check({"player.py": TRIVIAL_SOURCE})["player.py"].pyc[:4] == \
        __import__("importlib.util").util.MAGIC_NUMBER
    with BotProcess(GAME, source) as b:
        assert b.load().ok and b.call(Call("__init__", ("x",), "init")).ok
        assert b.call(Call("zet", (VIEW,), "move")).value == 2
        assert not (b.root / "code" / "__pycache__").exists()
    assert "SyntaxWarning" in b.stderr.text() and "player.py" in b.stderr.text()


TRIVIAL_SOURCE = b"class Player:\n    def __init__(self, name):\n        pass\n    def zet(self, spel):\n        return 2\n"


def test_a_changed_bot_api_gets_a_new_copy(tmp_path: Path) -> None:
    api = tmp_path / "game" / "botapi"
    api.mkdir(parents=True)
    (api / "thing.py").write_text("X = 1\n")
    first = botside.botapi(api)
    assert first == botside.botapi(api) and (first / "thing.py").read_text() == "X = 1\n"
    [pyc] = (first / "__pycache__").glob("thing.*.pyc")
    assert _flags(pyc) == CHECKED_HASH and not os.stat(first / "thing.py").st_mode & 0o222
    (api / "thing.py").write_text("X = 22\n")
    second = botside.botapi(api)
    assert second != first and (second / "thing.py").read_text() == "X = 22\n"
    assert first.is_dir()  # a bot started before the change may still be importing from it
