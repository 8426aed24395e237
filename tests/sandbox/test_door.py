"""The door: a capped child per batch, each item charged alone, results kept by content.

Real children, real caps: an item that loops is ended by the kernel's CPU limit, one that
allocates by its address space, one that answers too much by the output cap; the others of
its batch are still answered. A second run of the same content starts no child.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import pytest

from harness import door
from harness.door import modules, plain
from harness.sandbox import container, privileges

WORK = door.register(door.Task("test.work", "tests.sandbox.door_tasks:work", memory=512 << 20, cpu=1,
                               output=64 << 10))
WHOAMI = door.register(door.Task("test.whoami", "tests.sandbox.door_tasks:whoami"))


@dataclass(frozen=True)
class Point:
    x: int
    y: int


@pytest.fixture
def fresh(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    door.forget()
    return door.cache_dir()


def test_plain_data_comes_back_as_it_went_and_unknown_types_are_refused() -> None:
    value = {"a": (1, b"\x00\xff", [None, 2.5]), "$x": 1, 3: [Point(1, 2)], "t": {"$t": "not a tag"},
             "s": {(1, 2), "x"}}
    text, blobs = plain.encode(value)
    assert blobs == [b"\x00\xff"] and b"\xff" not in text
    assert plain.decode(text, blobs, {plain.type_name(Point): Point}) == value
    with pytest.raises(plain.Malformed, match="unexpected type"):
        plain.decode(text, blobs)  # a type the reader was not told to expect is never imported
    for bad in (b'{"$b": 5}', b'{"$d": [[1]]}', b'{"$d": [[[1], 2]]}', b'{"$s": [[1]]}', b"[" * 100_000, b"{"):
        with pytest.raises(plain.Malformed):
            plain.decode(bad, [])


def test_each_item_past_a_cap_is_charged_alone_and_the_rest_of_its_batch_is_answered(fresh: Path) -> None:
    before = door.stats.children
    found = door.run_many(WORK.name, ["a", "spin", "b", "eat", "big", "raise", ("c", 1)])
    assert found[0] == "a" and found[2] == "b" and found[6] == ("c", 1)
    assert found[1] == door.Over(WORK.name, "cpu", "CPU cap 1 s")
    assert found[3] == door.Over(WORK.name, "memory", "memory cap 512 MiB")
    assert found[4] == door.Over(WORK.name, "output", "output cap 64 KiB")
    assert isinstance(found[5], door.Unavailable) and "a bug of the task's own" in str(found[5])
    assert door.stats.children == before + 2  # the loop ended its child: the rest ran in a second one
    assert found[1].line("player.py") == "player.py: too large or complex to process (CPU cap 1 s)"
    # Kept by content: in this process, then on disk for a later run; the task's bug is not kept.
    assert door.run_many(WORK.name, ["a", "spin", "eat"]) == [found[0], found[1], found[3]]
    door.forget()
    assert door.run_many(WORK.name, ["b", "spin", "big"]) == [found[2], found[1], found[4]]
    assert door.stats.children == before + 2
    assert isinstance(door.run_many(WORK.name, ["raise"])[0], door.Unavailable)
    assert door.stats.children == before + 3


def test_the_child_has_its_own_uid_no_descriptor_no_environment_and_the_root_folder(
        fresh: Path, tmp_path: Path) -> None:
    secret = tmp_path / "secret"
    secret.write_text("x")
    secret.chmod(0o644)
    tmp_path.chmod(0o777)  # only Landlock (and the file-size limit) keeps the child out
    seen = door.run(WHOAMI.name, str(secret))
    assert seen["env"] == {"LC_ALL": "C.UTF-8"} and seen["cwd"] == "/"
    assert not seen["wrote"] and not (tmp_path / "secret.door").exists()
    assert seen["read"] is not (container.landlock_abi() > 0)
    assert len(seen["fds"]) <= 4  # stdin, stdout, stderr and the listing's own
    if privileges.is_root():
        assert seen["uid"] >= privileges.UID_BASE
    else:
        assert seen["uid"] == os.getuid()


def test_the_results_kept_in_memory_are_bounded_in_bytes(fresh: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(door, "MEMORY_CACHE", 5000)
    items = [f"item {i} " + "y" * 100 for i in range(60)]
    assert door.run_many(WORK.name, items) == items
    assert 0 < len(door._memo) < 60 and door._memo_bytes <= 5000
    assert list(door._memo)[-1] == door.key_of(WORK, items[-1])  # the oldest went first


def test_a_compiled_module_is_hard_linked_from_the_cache_into_each_game(fresh: Path, tmp_path: Path) -> None:
    source = b"import random\n\nclass Player:\n    def zet(self, spel):\n        return random.random()\n"
    games = [tmp_path / "game1", tmp_path / "game2"]
    for code in games:
        code.mkdir()
        (code / "player.py").write_bytes(source)
        assert modules.place({"player.py": source}, code) == 1
    pycs = [next((code / "__pycache__").glob("player.*.pyc")) for code in games]
    entry = door.blob_path(pycs[0].read_bytes())
    assert entry.stat().st_ino == pycs[0].stat().st_ino == pycs[1].stat().st_ino  # one copy on disk
    assert not entry.stat().st_mode & 0o222  # read-only: a bot never writes the harness's entry


def test_a_module_nothing_imports_is_parsed_not_compiled(fresh: Path) -> None:
    folded = b"X = " + b"+".join([b"'a'*4096"] * 300) + b"\n"  # compiling it keeps 180 MB of strings
    files = {"player.py": b"import helper\n", "helper.py": b"Y = 1\n", "unused.py": folded}
    checked = modules.check(files)
    assert checked["player.py"].pyc and checked["helper.py"].pyc and checked["unused.py"].pyc is None
    assert checked["unused.py"].scan.parsed and checked["unused.py"].over is None


def test_a_harness_in_a_private_folder_still_has_its_door(
        fresh: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A task whose module only the harness's uid can read (a checkout in a private folder): a
    child of a uid of its own cannot import it, so the door runs it as the harness's uid, still
    capped; a cap too small to start any child is not taken for that."""
    private = tmp_path / "private"
    private.mkdir(mode=0o700)
    (private / "door_private_task.py").write_text("def echo(item):\n    return item\n")
    monkeypatch.syspath_prepend(str(private))
    monkeypatch.setattr(door, "_drop", None)
    task = door.register(door.Task("test.private", "door_private_task:echo"))
    assert door.run(task.name, ["x"]) == ["x"]
    assert door._drop is (False if privileges.is_root() else None)
    monkeypatch.setattr(door, "_drop", None)
    monkeypatch.setitem(door.TASKS, task.name, door.Task(task.name, task.function, memory=8 << 20))
    with pytest.raises(door.Unavailable, match="exit code 3"):
        door.run(task.name, ["y"])
    assert door._drop is None
