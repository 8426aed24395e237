"""The bot environment and multi-file submissions, with bots written as the course's students wrote them.

The bots in ``tests/bots/course/`` import Pillow at the top (as the course's template does) and
draw PNGs outside tournament mode, turn cards with numpy, split themselves into two files, or
come as a Quoridor ``player.zip``. Each plays ``ok`` where its environment allows it and gets a
clear verdict where it does not, in bubblewrap and in the fallback (plain) mode.
"""

from __future__ import annotations

import hashlib
import stat
import zipfile
from dataclasses import replace
from pathlib import Path

import pytest

from harness.games import get_game
from harness.match import play_match
from harness.record import Verdict
from harness.sandbox import Limits
from harness.sandbox.checks.static import check_source, findings
from harness.submission import MAX_BYTES, MAX_FILES, Submission, SubmissionError, read_submission, read_zip
from tests.conftest import REPO

COURSE = REPO / "tests/bots/course"
STREKY, QUORIDOR = get_game("streky"), get_game("quoridor")
BRUTE = (REPO / "reference_players/streky/brute.py").read_bytes()
RANDOM_LEGAL = (REPO / "reference_players/quoridor/random_legal.py").read_bytes()
MODES = ["auto", "plain"]  # bubblewrap where it works (CI installs it), and the fallback


def limits(mode: str, **changes: object) -> Limits:
    return replace(Limits(isolation=mode), **changes)


def zipped(folder: Path, tmp_path: Path, prefix: str = "") -> Path:
    path = tmp_path / "player.zip"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for f in sorted(folder.glob("*.py")):
            z.write(f, prefix + f.name)
    return path


@pytest.mark.parametrize("mode", MODES)
def test_a_course_template_bot_imports_pillow_and_draws_pngs_outside_tournaments(mode: str, no_leftovers: None) -> None:
    bot = read_submission(COURSE / "streky_pillow")
    record = play_match(STREKY, [bot, BRUTE], seed=3, logins=["student", "brute"], limits=limits(mode))
    me = record.players[0]
    assert (me.verdict, record.players[1].verdict) == (Verdict.OK, Verdict.OK), me.reason
    drawn = [line.split() for line in me.stdout.splitlines() if line.startswith("drew ")]
    assert drawn and all(int(size) > 100 for _, _, size, *_ in drawn)  # real PNG files, in its working folder
    # The course's manager set `timeout` (the move limit) and `tournament` after the constructor.
    assert drawn[0][3:] == ["timeout", "1.0", "tournament", "False"]
    record = play_match(STREKY, [bot, BRUTE], seed=3, limits=limits(mode), tournament=True)
    assert record.players[0].verdict is Verdict.OK and "drew" not in record.players[0].stdout


@pytest.mark.parametrize("mode", MODES)
def test_numpy_plays_where_the_job_approves_it_and_is_refused_with_the_key_where_not(mode: str,
                                                                                     no_leftovers: None) -> None:
    bot = read_submission(COURSE / "streky_numpy")
    record = play_match(STREKY, [bot, BRUTE], seed=5, limits=limits(mode, packages=("numpy",)))
    assert record.players[0].verdict is Verdict.OK, record.players[0].reason
    assert record.plies > 4
    record = play_match(STREKY, [bot, BRUTE], seed=5, limits=limits(mode))
    me = record.players[0]
    assert me.verdict is Verdict.FORBIDDEN
    assert me.reason == ("player.py line 3: import of 'numpy' is not allowed: it is neither the standard library "
                         "nor a package approved for this job (an instructor approves it with `bot_packages: "
                         "[numpy]` in the job)")


@pytest.mark.parametrize("mode", MODES)
def test_a_two_file_streky_bot_is_refused_naming_its_second_module(mode: str, no_leftovers: None) -> None:
    bot = read_submission(COURSE / "streky_two_files", STREKY.botapi_modules)
    assert bot.names == ["player.py", "utils.py"]
    record = play_match(STREKY, [BRUTE, bot], seed=2, limits=limits(mode))
    assert [p.verdict for p in record.players] == [Verdict.OK, Verdict.FORBIDDEN], record.players[1].reason
    assert record.players[1].reason.startswith("utils.py: Štreky takes one file, player.py (§1.2 ")


@pytest.mark.parametrize("mode", MODES)
def test_a_zipped_quoridor_bot_plays_and_earns_its_sembasic_points(mode: str, tmp_path: Path,
                                                                   no_leftovers: None) -> None:
    from harness.tournament.battery import grade

    bot = read_submission(zipped(COURSE / "quoridor_zip", tmp_path))
    assert bot.names == ["player.py", "paths.py"]
    record = play_match(QUORIDOR, [bot, RANDOM_LEGAL], seed=1, limits=limits(mode),
                        settings={"start_columns": "random", "initial_walls": {"random": 3}})
    assert record.players[0].verdict is Verdict.OK, record.players[0].reason
    if mode == "auto":
        assert grade(QUORIDOR, bot, login="zipped").points == 2


def test_the_static_rules_apply_to_every_file_and_name_it(tmp_path: Path) -> None:
    folder = tmp_path / "two"
    folder.mkdir()
    for f in (COURSE / "streky_two_files").iterdir():
        (folder / f.name).write_bytes(f.read_bytes())
    lines = (folder / "utils.py").read_bytes().count(b"\n")
    (folder / "utils.py").write_bytes((folder / "utils.py").read_bytes() + "# Štreky\n".encode())
    # Štreky takes player.py alone (§1.2): its second module is refused as such, not read for ASCII.
    assert lines > 0 and [f.rule for f in findings(STREKY, read_submission(folder))] == ["files"]
    assert check_source(STREKY, read_submission(folder)).startswith("utils.py: Štreky takes one file")
    quoridor = tmp_path / "q"
    quoridor.mkdir()
    for f in (COURSE / "quoridor_zip").iterdir():
        (quoridor / f.name).write_bytes(f.read_bytes())
    (quoridor / "paths.py").write_text("import statistics\n" + (quoridor / "paths.py").read_text())
    assert check_source(QUORIDOR, read_submission(zipped(quoridor, tmp_path))) == \
        "paths.py line 1: import of 'statistics' is not allowed in Quoridor variant"


def test_a_guarded_import_is_left_to_run_time_as_on_the_course_s_grader() -> None:
    source = b"try:\n    import numpy\nexcept ImportError:\n    numpy = None\n\nclass Player:\n    pass\n"
    assert check_source(STREKY, source) is None
    assert check_source(STREKY, b"import numpy\n") is not None


def test_the_harness_s_own_bot_api_beside_player_py_is_not_taken(tmp_path: Path) -> None:
    (tmp_path / "player.py").write_text("import base\n")
    (tmp_path / "base.py").write_text("# a student's own copy\n")
    (tmp_path / "notes.py").write_text("x = 1\n")
    folder = read_submission(tmp_path, STREKY.botapi_modules)
    assert folder.names == ["player.py", "notes.py"]
    assert any("base.py: not taken" in n for n in folder.notes)
    # A file given alone takes only the modules it imports (not a student's scratch files).
    alone = read_submission(tmp_path / "player.py", STREKY.botapi_modules)
    assert alone.names == ["player.py"]


def test_a_submission_is_identified_by_every_file(tmp_path: Path) -> None:
    one = Submission({"player.py": b"x"})
    assert one.sha256 == hashlib.sha256(b"x").hexdigest()  # a lone player.py keeps its file's digest
    two = Submission({"player.py": b"x", "utils.py": b"a"})
    assert two.sha256 != one.sha256 != Submission({"player.py": b"x", "utils.py": b"b"}).sha256
    assert Submission.from_json(two.to_json()) == two


def _zip(tmp_path: Path, entries: list[tuple[str, bytes]], *, link: str | None = None) -> Path:
    path = tmp_path / "player.zip"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in entries:
            z.writestr(name, data)
        if link is not None:
            info = zipfile.ZipInfo(link)
            info.external_attr = (stat.S_IFLNK | 0o777) << 16
            z.writestr(info, "/etc/passwd")
    return path


def _lying_zip(tmp_path: Path) -> Path:
    """A zip whose headers say a file is 10 bytes while it unpacks to 8 MiB (a zip bomb in disguise)."""
    path = _zip(tmp_path, [("player.py", b"x"), ("data.bin", b"\0" * (MAX_BYTES + 16))])
    raw = bytearray(path.read_bytes())
    for signature, offset in ((b"PK\x01\x02", 24), (b"PK\x03\x04", 22)):  # uncompressed-size fields
        at = raw.find(signature, raw.find(b"data.bin") - 60 if signature == b"PK\x03\x04" else 0)
        while at != -1:
            name_len = int.from_bytes(raw[at + (28 if signature == b"PK\x01\x02" else 26):][:2], "little")
            start = at + (46 if signature == b"PK\x01\x02" else 30)
            if raw[start:start + name_len] == b"data.bin":
                raw[at + offset:at + offset + 4] = (10).to_bytes(4, "little")
            at = raw.find(signature, at + 4)
    path.write_bytes(bytes(raw))
    return path


# name -> (how to build it, the pinned reason)
BAD_ZIPS = {
    "traversal": (lambda t: _zip(t, [("player.py", b""), ("../evil.py", b"")]),
                  "'../evil.py' points outside the zip (path traversal)"),
    "absolute": (lambda t: _zip(t, [("player.py", b""), ("/etc/evil.py", b"")]),
                 "'/etc/evil.py' is an absolute path (files must sit at the root of the zip)"),
    "link": (lambda t: _zip(t, [("player.py", b"")], link="utils.py"),
             "'utils.py' is a link (only regular files are accepted)"),
    "nested": (lambda t: _zip(t, [("bot/player.py", b""), ("bot/utils.py", b"")]),
               "'bot/player.py' is in a folder: the files must sit at the root of the zip, not in a folder; "
               "found bot/player.py"),
    "too_many": (lambda t: _zip(t, [("player.py", b"")] + [(f"m{i}.py", b"") for i in range(MAX_FILES)]),
                 f"too many files (more than {MAX_FILES})"),
    "bomb": (lambda t: _zip(t, [("player.py", b""), ("big.bin", b"\0" * (MAX_BYTES + 1))]),
             f"too large once unpacked ('big.bin' is {MAX_BYTES + 1} bytes; at most {MAX_BYTES} bytes in all)"),
    # zipfile never reads past the size a header gives; the rest fails the entry's checksum.
    "lying_header": (_lying_zip, "'data.bin' cannot be unpacked (Bad CRC-32 for file 'data.bin')"),
    "no_player": (lambda t: _zip(t, [("main.py", b""), ("utils.py", b"")]), "no player.py at the root of the zip"),
    "not_a_zip": (lambda t: (t / "player.zip").write_bytes(b"PK not really") and t / "player.zip",
                  "not a valid zip file"),
    "bad_name": (lambda t: _zip(t, [("player.py", b""), ("my utils.py", b"")]),
                 "'my utils.py' is not an allowed file name (letters, digits, _ . -)"),
}


@pytest.mark.parametrize("name", sorted(BAD_ZIPS))
def test_a_bad_zip_is_refused_with_its_pinned_reason(name: str, tmp_path: Path) -> None:
    build, reason = BAD_ZIPS[name]
    path = build(tmp_path)
    with pytest.raises(SubmissionError) as info:
        read_zip(path)
    line = str(info.value)
    assert line == f"{path}: {reason}" and "\n" not in line
    assert not any(p.name == "evil.py" for p in tmp_path.parent.rglob("evil.py"))  # nothing was unpacked


def test_archiver_metadata_is_skipped_not_refused(tmp_path: Path) -> None:
    path = _zip(tmp_path, [("player.py", b"class Player: pass\n"), ("__MACOSX/._player.py", b"\0"),
                           (".DS_Store", b"\0")])
    sub = read_zip(path)
    assert sub.names == ["player.py"] and len(sub.notes) == 2


def test_a_folder_without_player_py_says_what_it_found(tmp_path: Path) -> None:
    cases = {"Player.py": "found Player.py (the name must be exactly player.py)",
             "nested/player.py": "found nested/player.py (it must sit directly in the folder)",
             "": "the folder is empty", "bot.py": "found bot.py"}
    for i, (made, hint) in enumerate(cases.items()):
        folder = tmp_path / f"dave{i}"
        folder.mkdir()
        if made:
            (folder / made).parent.mkdir(parents=True, exist_ok=True)
            (folder / made).write_text("")
        with pytest.raises(SubmissionError) as info:
            read_submission(folder)
        assert str(info.value) == f"no player.py in {folder}; {hint}"


def test_approved_packages_are_read_only_and_nothing_else_installed_is_visible(no_leftovers: None) -> None:
    spy = b'''
import importlib, os
import numpy
from priemspel import Spel

class Player:
    def __init__(self, name):
        try:
            importlib.import_module("ya" + "ml")  # installed for the harness, not approved for bots
            print("yaml: imported")
        except ImportError as exc:
            print("yaml:", type(exc).__name__)
        try:
            open(os.path.join(os.path.dirname(numpy.__file__), "evil.py"), "w")
            print("write: done")
        except Exception as exc:
            print("write:", type(exc).__name__)
        print("dot:", int(numpy.ones((64, 64)).dot(numpy.ones((64, 64)))[0, 0]))

    def zet(self, spel):
        return 2
'''
    game = get_game("priemspel")
    for mode in MODES:
        record = play_match(game, [spy, (REPO / "reference_players/priemspel/basis.py").read_bytes()], seed=1,
                            limits=limits(mode, packages=("numpy",)))
        me = record.players[0]
        lines = me.stdout.splitlines()
        assert "yaml: ModuleNotFoundError" in lines and "dot: 64" in lines, me.stdout + me.reason
        # Writing into the approved package: the guard refuses it (a verdict), the kernel's
        # read-only mount behind it; either way nothing is written.
        assert me.verdict is Verdict.FORBIDDEN and "writing" in me.reason and "numpy" in me.reason, me.reason
        import numpy

        assert not (Path(numpy.__file__).parent / "evil.py").exists()


def test_the_course_s_bots_play_a_job_with_its_approval(tmp_path: Path) -> None:
    """harness run: a Pillow bot and a numpy bot (approved in the job) ok; a two-file bot refused (§1.2)."""
    import json
    import shutil
    import subprocess
    import sys

    for name in ("streky_pillow", "streky_numpy", "streky_two_files"):
        shutil.copytree(COURSE / name, tmp_path / "subs" / name)
    (tmp_path / "tournaments.yaml").write_text(f"""
jobs:
  g:
    game: streky
    format: gauntlet
    submissions: subs
    opponent: {REPO}/reference_players/streky/brute.py
    settings: [{{cards: random}}]
    games: 2
    bot_packages: [numpy]
    awards: {{policy: pass_fail, points: 5}}
""")
    run = subprocess.run([sys.executable, "-m", "harness", "run", "g", "--quiet", "--no-self-check"], cwd=tmp_path,
                         capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr
    board = json.loads(subprocess.run([sys.executable, "-m", "harness", "leaderboard", "g", "--format", "json"],
                                      cwd=tmp_path, capture_output=True, text=True, timeout=120).stdout)
    rows = {r["login"]: (r["points"], r["reason"]) for r in board["rows"]}
    assert {k: v for k, v in rows.items() if k != "streky_two_files"} == {"streky_pillow": (5, ""),
                                                                          "streky_numpy": (5, "")}
    # Štreky takes player.py alone (§1.2): the two-file bot's second module is refused, by name.
    assert rows["streky_two_files"][0] == 0
    assert rows["streky_two_files"][1].startswith("forbidden: utils.py: Štreky takes one file, player.py (§1.2 ")
