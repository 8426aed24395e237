"""A submission is only its own regular files: links in a folder are refused by name, as in a zip.

Real folders with real links (to files, to folders, dangling), a FIFO, and ``harness check`` on
them as a student or an instructor runs it.
"""

from __future__ import annotations

import io
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from harness.submission import SubmissionError, read_regular, read_submission
from tests.conftest import REPO

GOOD = (REPO / "tests/check/bots/good.py").read_bytes()


@pytest.fixture
def secret(tmp_path: Path) -> Path:
    """A file the grader can read and a bot must never get."""
    path = tmp_path / "grader-secret.txt"
    path.write_text("the instructor's token\n")
    return path


def folder(tmp_path: Path, name: str = "alice") -> Path:
    sub = tmp_path / "submissions" / name
    sub.mkdir(parents=True)
    (sub / "player.py").write_bytes(GOOD)
    return sub


@pytest.mark.parametrize("entry", ["helper.py", "notes.txt", "data"])
def test_a_link_in_a_folder_is_refused_with_its_name(entry: str, tmp_path: Path, secret: Path) -> None:
    sub = folder(tmp_path)
    (sub / entry).symlink_to(secret.parent if entry == "data" else secret)
    with pytest.raises(SubmissionError, match=rf"^{sub}: '{entry}' is a link \(a submission is only its own "
                                              r"regular files\)$"):
        read_submission(sub)


def test_a_dangling_link_is_refused_too(tmp_path: Path) -> None:
    sub = folder(tmp_path)
    (sub / "utils.py").symlink_to(tmp_path / "nowhere.py")
    with pytest.raises(SubmissionError, match="'utils.py' is a link"):
        read_submission(sub)


def test_player_py_itself_as_a_link_is_refused(tmp_path: Path, secret: Path) -> None:
    sub = tmp_path / "bob"
    sub.mkdir()
    (sub / "player.py").symlink_to(secret)
    with pytest.raises(SubmissionError, match="'player.py' is a link"):
        read_submission(sub)
    with pytest.raises(SubmissionError, match=r"player\.py is a link"):
        read_submission(sub / "player.py")


def test_a_submission_folder_that_is_a_link_is_refused(tmp_path: Path) -> None:
    sub = folder(tmp_path)
    (tmp_path / "carol").symlink_to(sub)
    with pytest.raises(SubmissionError, match="carol is a link"):
        read_submission(tmp_path / "carol")


def test_an_imported_sibling_that_is_a_link_is_refused(tmp_path: Path, secret: Path) -> None:
    sub = folder(tmp_path)
    (sub / "player.py").write_bytes(b"import helper\n" + GOOD)
    (sub / "helper.py").symlink_to(secret)
    with pytest.raises(SubmissionError, match="'helper.py' is a link"):
        read_submission(sub / "player.py")
    (sub / "player.py").write_bytes(GOOD)  # not imported: not part of this submission, not read
    assert read_submission(sub / "player.py").names == ["player.py"]


def test_a_fifo_is_refused_without_hanging(tmp_path: Path) -> None:
    sub = folder(tmp_path)
    os.mkfifo(sub / "utils.py")  # opening it for reading would block forever without O_NONBLOCK
    with pytest.raises(SubmissionError, match="'utils.py' is not a regular file"):
        read_submission(sub)


def test_files_are_opened_without_following_links(tmp_path: Path, secret: Path) -> None:
    (tmp_path / "swapped.py").symlink_to(secret)  # e.g. swapped in after the folder was listed
    with pytest.raises(SubmissionError, match="is a link"):
        read_regular(tmp_path / "swapped.py")
    assert read_regular(secret) == secret.read_bytes()


def test_a_zip_given_as_a_link_is_refused_and_a_link_inside_one_too(tmp_path: Path, secret: Path) -> None:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as archive:
        archive.writestr("player.py", GOOD)
        info = zipfile.ZipInfo("secret.txt")
        info.external_attr = 0o120777 << 16  # a symlink entry, as `zip -y` writes it
        archive.writestr(info, str(secret))
    (tmp_path / "player.zip").write_bytes(buf.getvalue())
    with pytest.raises(SubmissionError, match="'secret.txt' is a link"):
        read_submission(tmp_path / "player.zip")
    (tmp_path / "linked.zip").symlink_to(tmp_path / "player.zip")
    with pytest.raises(SubmissionError, match="linked.zip is a link"):
        read_submission(tmp_path / "linked.zip")


def test_check_says_so_in_one_line(tmp_path: Path, secret: Path) -> None:
    sub = folder(tmp_path)
    (sub / "helper.py").symlink_to(secret)
    run = subprocess.run([sys.executable, "-m", "harness", "check", "priemspel", str(sub), "--games", "1"],
                         capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert run.returncode != 0
    out = run.stdout + run.stderr
    assert "'helper.py' is a link" in out and "Traceback" not in out, out
    assert "the instructor's token" not in out
