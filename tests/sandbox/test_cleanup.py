"""Cleanup never dies: what a bot leaves is removed iteratively, or reported in one line, and the run goes on."""

from __future__ import annotations

import fcntl
import os
import shutil
import struct
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from harness.games import get_game
from harness.match import play_match
from harness.record import Verdict
from harness.sandbox import Limits, reaper, spawn
from harness.sandbox.remove import FS_IOC_SETFLAGS, remove_tree
from harness.sandbox.stale import DIR_PREFIX, sweep_stale_dirs

REPO = Path(__file__).resolve().parents[2]
GAME = get_game("priemspel")
BASIS = (REPO / "reference_players/priemspel/basis.py").read_bytes()


def deep_chain(root: Path, depth: int = 3000) -> None:
    """A chain of ``depth`` folders under ``root``, built by renames (no call ever names a long path)."""
    here = os.getcwd()
    os.chdir(root)
    try:
        os.mkdir("d")
        for _ in range(depth):
            os.mkdir("n")
            os.rename("d", "n/d")
            os.rename("n", "d")
    finally:
        os.chdir(here)


def set_flags(path: Path, flags: int) -> bool:
    """Set a file's attribute flags (chattr); False where this file system or uid cannot."""
    fd = os.open(path, os.O_RDONLY)
    try:
        fcntl.ioctl(fd, FS_IOC_SETFLAGS, struct.pack("i", flags) + b"\0" * 4)
        return True
    except OSError:
        return False
    finally:
        os.close(fd)


def test_a_deep_chain_is_removed_where_rmtree_raises(tmp_path: Path) -> None:
    for name in ("a", "b"):
        (tmp_path / name).mkdir()
        deep_chain(tmp_path / name)
    with pytest.raises(RecursionError):
        shutil.rmtree(tmp_path / "a", ignore_errors=True)  # what the reaper and the sweep used to do
    assert remove_tree(tmp_path / "a") is None and remove_tree(tmp_path / "b") is None
    assert not (tmp_path / "a").exists() and not (tmp_path / "b").exists()


def test_a_tree_another_remover_is_deleting_meanwhile_is_no_problem(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """Two removers of one folder (a harness at exit and another's stale sweep): what the other
    deleted first is gone, not "left" (a SIGHUP'd run once warned "No such file or directory")."""
    from harness.sandbox import remove

    root = tmp_path / "tree"
    for i in range(5):
        (root / f"d{i}" / "sub").mkdir(parents=True)
        (root / f"d{i}" / "sub" / "f").write_text("x")
    opened = remove._open_folder

    def the_other_remover_was_first(fd: int, name: str) -> int:
        if name.startswith("d"):  # each top folder vanishes just before it is opened
            shutil.rmtree(root / name)
        return opened(fd, name)

    monkeypatch.setattr(remove, "_open_folder", the_other_remover_was_first)
    assert remove_tree(root) is None
    assert not root.exists()
    gone = tmp_path / "gone"
    assert remove_tree(gone) is None  # a folder already removed: nothing to say


def test_links_are_removed_not_followed(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "keep.txt").write_text("keep")
    folder = tmp_path / "folder"
    (folder / "sub").mkdir(parents=True)
    (folder / "sub" / "to-dir").symlink_to(outside)
    (folder / "to-file").symlink_to(outside / "keep.txt")
    (folder / "sub" / "locked").mkdir()
    (folder / "sub" / "locked" / "f").write_text("x")
    os.chmod(folder / "sub" / "locked", 0)  # unreadable: made readable to be removed
    assert remove_tree(folder) is None
    assert not folder.exists() and (outside / "keep.txt").read_text() == "keep"


def test_immutable_and_append_only_flags_are_cleared(tmp_path: Path) -> None:
    folder = tmp_path / "folder"
    (folder / "sub").mkdir(parents=True)
    (folder / "sub" / "immutable").write_text("x")
    (folder / "top").write_text("x")
    if not set_flags(folder / "sub" / "immutable", 0x10):
        pytest.skip("this file system or uid cannot set FS_IMMUTABLE_FL (chattr +i): tests/hostile's "
                    "cleanup_disarmed_immutable covers the bot's side")
    assert set_flags(folder / "sub", 0x20) and set_flags(folder / "top", 0x10 | 0x20)
    with pytest.raises(PermissionError):
        os.unlink(folder / "sub" / "immutable")
    assert remove_tree(folder) is None
    assert not folder.exists()


def test_a_mount_is_not_crossed_and_what_stays_is_one_line(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "keep.txt").write_text("keep")
    folder = tmp_path / "folder"
    (folder / "mnt").mkdir(parents=True)
    (folder / "other").write_text("x")
    if subprocess.run(["mount", "--bind", str(outside), str(folder / "mnt")], capture_output=True).returncode:
        pytest.skip("cannot bind-mount here (not root, or no mount permission): the st_dev check is not exercised")
    try:
        problem = remove_tree(folder)
        assert problem is not None and "\n" not in problem
        assert problem.startswith(f"cannot remove everything under {folder}: mnt (another file system is mounted")
        assert (outside / "keep.txt").read_text() == "keep"  # nothing of the mounted tree was touched
        assert not (folder / "other").exists()
    finally:
        subprocess.run(["umount", str(folder / "mnt")], check=True)
    assert remove_tree(folder) is None


@pytest.fixture
def own_tmp(monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A temporary folder of this test's own (other harness runs on the machine sweep /tmp too)."""
    root = Path(tempfile.mkdtemp(prefix="harness-cleanup-test-"))
    root.chmod(0o755)  # a bot's own uid (plain mode as root) must reach its folder
    monkeypatch.setattr(tempfile, "tempdir", str(root))
    yield root
    monkeypatch.undo()
    reaper.settle()
    remove_tree(root)


def test_what_a_killed_harness_left_never_costs_a_later_game(tmp_path: Path, own_tmp: Path,
                                                             capfd: pytest.CaptureFixture[str]) -> None:
    """A dead harness's folder with a deep chain, an immutable file and a mount: the sweep of the
    next harness removes what it can, says what it cannot in one line, and its games are ok."""
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()
    stale = Path(tempfile.mkdtemp(prefix=f"{DIR_PREFIX}{gone.pid}-"))
    assert stale.parent == own_tmp
    deep_chain(stale)
    (stale / "immutable").write_text("x")
    set_flags(stale / "immutable", 0x10)
    (stale / "mnt").mkdir()
    (tmp_path / "outside").mkdir()
    mounted = not subprocess.run(["mount", "--bind", str(tmp_path / "outside"), str(stale / "mnt")],
                                 capture_output=True).returncode
    try:
        spawn._SWEPT = False  # this process sweeps again at its next start, as a new harness would
        for mode in ("auto", "plain"):
            record = play_match(GAME, [BASIS, BASIS], seed=1, limits=Limits(isolation=mode))
            assert [p.verdict for p in record.players] == [Verdict.OK, Verdict.OK], record.players[0].reason
        err = capfd.readouterr().err
        if mounted:
            lines = [line for line in err.splitlines() if str(stale) in line]
            assert len(lines) == 1 and "another file system is mounted there" in lines[0], err
            assert sorted(os.listdir(stale)) == ["mnt"]
        else:
            assert not stale.exists()
    finally:
        if mounted:
            subprocess.run(["umount", str(stale / "mnt")], check=True)
        remove_tree(stale)
    assert sweep_stale_dirs() >= 0 and not stale.exists()


def test_the_reaper_survives_a_folder_it_cannot_remove(capfd: pytest.CaptureFixture[str]) -> None:
    """A job that raises (here: a folder path the removal itself cannot handle) costs one line; the
    thread goes on and later folders are removed."""
    broken = Path(tempfile.mkdtemp(prefix="harness-cleanup-test-"))

    class Exploding:
        def remove(self) -> None:
            raise RuntimeError("a cgroup that will not go")

    reaper.later(Exploding(), broken)  # type: ignore[arg-type]
    assert reaper.settle(30)
    assert "cleanup after a bot failed (RuntimeError: a cgroup that will not go)" in capfd.readouterr().err
    later = Path(tempfile.mkdtemp(prefix="harness-cleanup-test-"))
    deep_chain(later, 200)
    reaper.later(None, later)
    reaper.later(None, broken)
    assert reaper.settle(30)
    assert not later.exists() and not broken.exists()
    record = play_match(GAME, [BASIS, BASIS], seed=1, limits=Limits())
    assert [p.verdict for p in record.players] == [Verdict.OK, Verdict.OK]
