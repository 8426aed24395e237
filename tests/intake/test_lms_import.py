"""``harness import``: Moodle's and Canvas's bulk downloads, built here from their documented naming
(see harness/intake/names.py for the sources), imported into a job's submissions by the real
command; every attempt kept with its time; a late attempt charged in a real job's export.
"""

from __future__ import annotations

import csv
import io
import json
import os
import struct
import subprocess
import sys
import zipfile
from datetime import datetime, timezone
from pathlib import Path

import pytest

from harness.intake.names import Matcher, canvas_keys, fold, parse
from harness.roster import Person
from tests.conftest import BOTS, REPO

BASIS = (REPO / "reference_players/priemspel/basis.py").read_bytes()
STRATEGIE = REPO / "reference_players/priemspel/strategie.py"
BROKEN = (BOTS / "priemspel/wrong_type.py").read_bytes()
ROSTER = """login,name,email,canvas id
novakjan,"Novák, Jan",jan.novak@uni.example,1001
svobodova,"Svobodová, Šárka",sarka@uni.example,1002
dvorak,"Dvořák, Petr",petr.dvorak@uni.example,
kral,"Král, Ľubomír",lubo@uni.example,1004
"""
PRAGUE = "+01:00"


def harness(config: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "harness", *args, "--config", str(config)], cwd=config.parent,
                          capture_output=True, text=True, timeout=600)


def add(z: zipfile.ZipFile, name: str, data: bytes, when: tuple[int, ...], utc: int | None = None) -> None:
    """An entry as the LMS writes it: its upload time as the zip's local time (Moodle, Canvas), and
    with ``utc`` the extended timestamp field too."""
    info = zipfile.ZipInfo(name, date_time=when)
    info.compress_type = zipfile.ZIP_DEFLATED
    if utc is not None:
        info.extra = struct.pack("<HHBi", 0x5455, 5, 1, utc)
    z.writestr(info, data)


def course(tmp: Path, late: str = "late: {per_day: 1, max: 3 days}") -> Path:
    (tmp / "students.csv").write_text(ROSTER, encoding="utf-8")
    config = tmp / "tournaments.yaml"
    config.write_text(f"""
jobs:
  hw:
    game: priemspel
    format: gauntlet
    submissions: submissions
    roster: students.csv
    opponent: {STRATEGIE}
    settings: [{{N: 5}}]
    games: 2
    awards: {{policy: pass_fail, points: 2}}
    workers: 2
    deadline: 2026-11-17T20:00:00+01:00
    {late}
""", encoding="utf-8")
    return config


def moodle_zips(folder: Path) -> None:
    """Two "Download all submissions" of a Moodle assignment, a day apart: in folders (Moodle >= 3.1)
    and flat; a resubmission, an online text, and a name no roster student has."""
    folder.mkdir()
    with zipfile.ZipFile(folder / "HW1-Strategie-1.zip", "w") as z:
        add(z, "Jan Novák_4711_assignsubmission_file_/player.py", BROKEN, (2026, 11, 16, 10, 0, 0))
        add(z, "Jan Novák_4711_assignsubmission_onlinetext_/onlinetext.html", b"<p>hi</p>", (2026, 11, 16, 10, 0, 0))
        add(z, "Šárka Svobodová_4712_assignsubmission_file_/player.py", BASIS, (2026, 11, 17, 19, 59, 58))
        add(z, "Petr Neznámý_4799_assignsubmission_file_/player.py", BASIS, (2026, 11, 17, 12, 0, 0))
    with zipfile.ZipFile(folder / "HW1-Strategie-2.zip", "w") as z:  # flat: "in folders" switched off
        add(z, "Jan Novák_4711_assignsubmission_file_player.py", BASIS, (2026, 11, 17, 18, 30, 0))
        add(z, "Šárka Svobodová_4712_assignsubmission_file_player.py", BASIS, (2026, 11, 17, 19, 59, 58))


def canvas_zip(path: Path, later: int = 0) -> None:
    """Canvas's "Download Submissions": sortable name squashed, LATE, user id, file id, a renamed
    resubmission (-1), a name kept with its diacritics, a file that is no bot's, a name no roster
    student has. Canvas writes each entry with the time it made the zip; ``later`` days later is
    another download of the same submissions."""
    with zipfile.ZipFile(path, "w") as z:
        add(z, "novákjan_1001_5001_player.py", BROKEN, (2026, 11, 15 + later, 9, 0, 0))
        add(z, "novákjan_LATE_1001_5002_player-1.py", BASIS, (2026, 11, 18 + later, 9, 30, 0),
            utc=int(datetime(2026, 11, 18 + later, 8, 30, tzinfo=timezone.utc).timestamp()))
        # Downloaded after the deadline, but Canvas did not mark it LATE: on time.
        add(z, "svobodovasarka_1002_5003_player.py", BASIS, (2026, 11, 19 + later, 19, 0, 0))
        add(z, "kralubomir_LATE_1004_5004_player.py", BASIS, (2026, 11, 25, 10, 0, 0))  # 8 days late
        add(z, "dvorakpetr_1003_5005_notes.pdf", b"%PDF-1.4", (2026, 11, 17, 10, 0, 0))
        add(z, "dvorakpetr_1003_5008_player (1).py", BASIS, (2026, 11, 17, 10, 0, 0))
        add(z, "dvorakpetr_1003_5006_player.py", BASIS, (2026, 11, 17, 10, 0, 0))
        add(z, "nobodyhere_1999_5007_player.py", BASIS, (2026, 11, 17, 10, 0, 0))


def history(subs: Path, login: str) -> dict:
    return json.loads((subs / ".attempts" / login / "attempts.json").read_text(encoding="utf-8"))


# ---- names ---------------------------------------------------------------------------------------
def test_names_are_read_as_moodle_and_canvas_write_them() -> None:
    e = parse("Jan Novák_4711_assignsubmission_file_/player.py")
    assert e is not None and (e.lms, e.who, e.number, e.file) == ("moodle", "Jan Novák", "4711", "player.py")
    e = parse("Jan Novák_4711_assignsubmission_file_player.zip")
    assert e is not None and e.file == "player.zip"
    e = parse("Jan Novák_4711_assignsubmission_onlinetext_/onlinetext.html")
    assert e is not None and e.skip and not e.file
    e = parse("novakjan_LATE_12345_67890_player-1.py")
    assert e is not None and (e.lms, e.who, e.number, e.file, e.late) == ("canvas", "novakjan", "12345",
                                                                            "player.py", True)
    e = parse("smithjohn_12345_67890_player.py")
    assert e is not None and not e.late and e.file == "player.py"
    assert parse("README.txt") is None


def test_diacritics_and_name_orders_are_compared_deterministically() -> None:
    assert fold("Dvořák, Ľubomír Šťastný") == "dvorak, lubomir stastny"
    assert canvas_keys("Novák, Jan") == {"novakjan"} and "novakjan" in canvas_keys("Jan Novák")
    people = [Person("novakjan", "Novák, Jan", canvas_id="1001"), Person("novakova", "Nováková, Jana"),
              Person("jan2", "Jan Novák")]
    m = Matcher(people)
    found = m.find(parse("novákjan_1001_1_player.py"))  # by Canvas's user id first
    assert not isinstance(found, str) and found.login == "novakjan"
    # By name: two fit, none is taken.
    assert "fits 2 students of the roster (jan2, novakjan)" in str(m.find(parse("novakjan_77_1_player.py")))
    found = m.find(parse("Jana Nováková_9_assignsubmission_file_/player.py"))
    assert not isinstance(found, str) and found.login == "novakova"


# ---- import --------------------------------------------------------------------------------------
def test_a_moodle_download_imports_into_the_right_logins_with_every_attempt(tmp_path: Path) -> None:
    config = course(tmp_path)
    moodle_zips(tmp_path / "moodle")
    done = harness(config, "import", str(tmp_path / "moodle"), "--job", "hw")
    assert done.returncode == 0, done.stderr
    subs = tmp_path / "submissions"
    assert sorted(p.name for p in subs.iterdir()) == [".attempts", "novakjan", "svobodova"]
    assert (subs / "novakjan" / "player.py").read_bytes() == BASIS  # the newest attempt
    jan = history(subs, "novakjan")
    times = [a["time"] for a in jan["attempts"]]
    # The zip's local times in the deadline's zone (+01:00), recorded in UTC.
    assert times == ["2026-11-16T09:00:00+00:00", "2026-11-17T17:30:00+00:00"]
    for a in jan["attempts"]:
        assert (subs / ".attempts" / "novakjan" / a["folder"] / "player.py").is_file()
    assert len(history(subs, "svobodova")["attempts"]) == 1  # the same upload in both downloads: once
    lines = done.stderr.splitlines()
    assert [ln for ln in lines if "unmapped" in ln] == [
        "harness import: unmapped: HW1-Strategie-1.zip: 'Petr Neznámý_4799_assignsubmission_file_/player.py': "
        "Moodle name 'Petr Neznámý' fits no student of the roster"]
    assert any("onlinetext text, no part of a bot" in ln for ln in lines)
    assert "novakjan: 2 attempts (2 new); graded: 2026-11-17T18:30:00+01:00, on time (installed)" in done.stdout
    again = harness(config, "import", str(tmp_path / "moodle"), "--job", "hw")  # idempotent
    assert again.returncode == 0 and "0 new attempts, 0 installed" in again.stdout
    assert history(subs, "novakjan") == jan


def test_a_canvas_download_with_a_late_resubmission_is_charged_in_a_real_run(tmp_path: Path) -> None:
    config = course(tmp_path)
    subs = tmp_path / "submissions"
    (subs / "dvorak").mkdir(parents=True)
    (subs / "dvorak" / "player.py").write_bytes(BROKEN)  # placed by hand before: kept in the history
    canvas_zip(tmp_path / "submissions.zip")
    done = harness(config, "import", str(tmp_path / "submissions.zip"), "--job", "hw")
    assert done.returncode == 0, done.stderr
    assert (subs / "novakjan" / "player.py").read_bytes() == BASIS  # player-1.py: the resubmission
    jan = history(subs, "novakjan")["attempts"]
    assert [(a["time"], a["late_mark"]) for a in jan] == [("2026-11-15T08:00:00+00:00", False),
                                                          ("2026-11-18T08:30:00+00:00", True)]  # UTC field
    # Ľubomír's only attempt is 8 days late: max 3 days, not accepted, nothing installed.
    assert not (subs / "kral").exists() and "kral: 1 attempt (1 new); every one is after the deadline" in done.stdout
    dvorak = history(subs, "dvorak")["attempts"]
    found = [a for a in dvorak if a["source"].startswith("found in dvorak/")]
    assert len(dvorak) == 2 and len(found) == 1 and found[0]["found"]
    assert (subs / "dvorak" / "player.py").read_bytes() == BASIS  # the upload, though the old file is newer
    assert (subs / ".attempts" / "dvorak" / found[0]["folder"] / "player.py").read_bytes() == BROKEN
    assert "unmapped: submissions.zip: 'nobodyhere_1999_5007_player.py': Canvas user 1999 'nobodyhere' fits no " \
           "student of the roster" in done.stderr
    assert "skipped 1 file: no part of a bot" in done.stderr
    assert "dvorak: submissions.zip: 'player (1).py' is not a name a bot's file may have" in done.stderr
    sarka = history(subs, "svobodova")["attempts"]
    assert [a["time"] for a in sarka] == ["2026-11-17T19:00:00+00:00"]  # the deadline
    assert "did not mark it LATE" in sarka[0]["time_from"]
    canvas_zip(tmp_path / "later.zip", later=2)  # the same uploads downloaded two days later: nothing new
    again = harness(config, "import", str(tmp_path / "later.zip"), "--job", "hw")
    assert again.returncode == 0 and "0 new attempts, 0 installed" in again.stdout, again.stdout

    run = harness(config, "run", "hw", "--quiet", "--no-self-check")
    assert run.returncode == 0, run.stderr
    out = harness(config, "export", "hw", "--format", "csv")
    assert out.returncode == 0, out.stderr
    rows = {r["login"]: r for r in csv.DictReader(io.StringIO(out.stdout))}
    # 2 points for a clean gauntlet; Jan's graded attempt is 12.5 hours late: 1 started day, 1 point.
    assert (rows["novakjan"]["points"], rows["novakjan"]["late_days"], rows["novakjan"]["late_penalty"]) == \
           ("1", "1", "1")
    assert rows["novakjan"]["submitted"] == "2026-11-18T09:30:00+01:00"
    assert rows["svobodova"]["submitted"] == "2026-11-17T20:00:00+01:00"
    assert (rows["svobodova"]["points"], rows["svobodova"]["late_days"]) == ("2", "0")
    assert rows["kral"]["points"] == "0" and rows["kral"]["reason"] == "no submission"
    canvas = harness(config, "export", "hw", "--format", "canvas")
    assert canvas.returncode == 0, canvas.stderr
    body = {r[0]: r for r in csv.reader(io.StringIO(canvas.stdout))}
    assert body["Novák, Jan"][5] == "1" and body["Svobodová, Šárka"][5] == "2"
    feedback = harness(config, "export", "hw", "--format", "feedback", "--out", str(tmp_path / "fb"))
    assert feedback.returncode == 0, feedback.stderr
    text = (tmp_path / "fb" / "novakjan.txt").read_text(encoding="utf-8")
    assert ("Submitted 2026-11-18T09:30:00+01:00, 1 day after the deadline (2026-11-17T20:00:00+01:00): 1 point "
            "off (1 point off per started day late; not accepted more than 3 days late).") in text
    gs = harness(config, "export", "hw", "--format", "gradescope", "--out", str(tmp_path / "gs"))
    assert gs.returncode == 0, gs.stderr
    result = json.loads((tmp_path / "gs" / "novakjan" / "results.json").read_text(encoding="utf-8"))
    assert result["score"] == 1 and "1 day after the deadline" in result["tests"][0]["output"]
    moodle = harness(config, "export", "hw", "--format", "moodle")
    assert "1 day after the deadline" in moodle.stdout
    board = harness(config, "leaderboard", "hw")
    assert "1 d: -1" in board.stdout and "on time" in board.stdout and "deadline 2026-11-17T20:00+01:00" in board.stdout
    site = harness(config, "report", "hw", "--out", str(tmp_path / "site"))
    assert site.returncode == 0, site.stderr
    page = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    assert ">late</th>" in page and "1 d: -1" in page and "not accepted more than 3 days late" in page


def test_a_deadline_that_closes_grades_the_newest_attempt_on_time(tmp_path: Path) -> None:
    config = course(tmp_path, late="")
    canvas_zip(tmp_path / "submissions.zip")
    done = harness(config, "import", str(tmp_path / "submissions.zip"), "--job", "hw")
    assert done.returncode == 0, done.stderr
    subs = tmp_path / "submissions"
    assert (subs / "novakjan" / "player.py").read_bytes() == BROKEN  # the late resubmission is not accepted
    assert "novakjan: 2 attempts (2 new); graded: 2026-11-15T09:00:00+01:00, on time (installed); 1 later " \
           "attempt not accepted" in done.stdout
    assert len(history(subs, "novakjan")["attempts"]) == 2  # and is still recorded


def test_a_quoridor_attempt_is_its_player_py_and_player_zip_and_an_unpacked_download_imports(tmp_path: Path) -> None:
    from harness.intake.importer import import_download

    inner = io.BytesIO()
    with zipfile.ZipFile(inner, "w") as z:
        z.writestr("player.py", "from helper import X\n")
        z.writestr("helper.py", "X = 1\n")
    unpacked = tmp_path / "unpacked"
    for folder, name, data in [("Jan Novák_1_assignsubmission_file_", "player.py", b"# stub\n"),
                               ("Jan Novák_1_assignsubmission_file_", "player.zip", inner.getvalue()),
                               ("Jan Novák_1_assignsubmission_file_", "report.pdf", b"%PDF")]:
        (unpacked / folder).mkdir(parents=True, exist_ok=True)
        (unpacked / folder / name).write_bytes(data)
    people = [Person("novakjan", "Novák, Jan")]
    report = import_download(unpacked, tmp_path / "subs", people, zone=timezone.utc)
    assert sorted(p.name for p in (tmp_path / "subs" / "novakjan").iterdir()) == ["player.py", "player.zip"]
    assert report.skipped == {"no part of a bot (a bot is .py files or player.zip)": 1} and not report.unmapped
    [attempt] = history(tmp_path / "subs", "novakjan")["attempts"]
    assert attempt["files"] == ["player.py", "player.zip"] and "Moodle" in attempt["time_from"]


# ---- hostile downloads ---------------------------------------------------------------------------
def _refused(tmp_path: Path, build: object) -> str:
    config = course(tmp_path)
    path = tmp_path / "evil.zip"
    with zipfile.ZipFile(path, "w") as z:
        build(z)  # type: ignore[operator]
    done = harness(config, "import", str(path), "--job", "hw")
    assert done.returncode == 2 and len(done.stderr.splitlines()) == 1 and "Traceback" not in done.stderr
    assert not (tmp_path / "submissions").exists() and not (tmp_path.parent / "escaped").exists()
    return done.stderr


def test_path_traversal_is_refused_whole(tmp_path: Path) -> None:
    err = _refused(tmp_path, lambda z: (add(z, "novakjan_1001_1_player.py", BASIS, (2026, 11, 1, 0, 0, 0)),
                                        add(z, "../../escaped/x.py", b"x", (2026, 11, 1, 0, 0, 0))))
    assert "path traversal" in err and "nothing imported" in err


def test_a_link_in_the_zip_is_refused_whole(tmp_path: Path) -> None:
    def build(z: zipfile.ZipFile) -> None:
        info = zipfile.ZipInfo("novakjan_1001_1_player.py")
        info.external_attr = (0o120777 << 16)
        z.writestr(info, "/etc/passwd")
    assert "is a link" in _refused(tmp_path, build)


def test_too_many_entries_are_refused_whole(tmp_path: Path) -> None:
    from harness.intake.archive import MAX_ENTRIES

    def build(z: zipfile.ZipFile) -> None:
        for i in range(MAX_ENTRIES + 1):
            z.writestr(f"f{i}", b"")
    assert f"at most {MAX_ENTRIES}" in _refused(tmp_path, build)


def test_a_zip_bomb_costs_a_capped_read_and_one_line(tmp_path: Path) -> None:
    config = course(tmp_path)
    path = tmp_path / "bomb.zip"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        add(z, "novakjan_1001_1_player.py", b"#" * (200 << 20), (2026, 11, 17, 10, 0, 0))  # 200 MiB -> 200 KiB
        add(z, "svobodovasarka_1002_2_player.py", BASIS, (2026, 11, 17, 10, 0, 0))
    assert path.stat().st_size < 1 << 20
    done = harness(config, "import", str(path), "--job", "hw")
    assert done.returncode == 0, done.stderr
    assert "novakjan: bomb.zip: 'novakjan_1001_1_player.py' is larger than 4194304 bytes unpacked; skipped" \
        in done.stderr
    assert not (tmp_path / "submissions" / "novakjan").exists()
    assert (tmp_path / "submissions" / "svobodova" / "player.py").read_bytes() == BASIS


def test_not_a_zip_and_bad_keys_are_one_line(tmp_path: Path) -> None:
    config = course(tmp_path)
    (tmp_path / "x.zip").write_bytes(b"not a zip")
    done = harness(config, "import", str(tmp_path / "x.zip"), "--job", "hw")
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "not a readable zip file" in done.stderr
    for login in ("a", "b"):
        (tmp_path / "submissions" / login).mkdir(parents=True)
        (tmp_path / "submissions" / login / "player.py").write_bytes(BASIS)
    for bad, says in [("deadline: 2026-11-17", "needs a time and a time zone"),
                      ("deadline: 2026-11-17 20:00:00", "must say its time zone"),
                      ("deadline: '2026-11-17 20:00 Mars/Olympus'", "unknown time zone"),
                      ("late: {per_day: 1}", "late: needs a deadline"),
                      ("deadline: 2026-11-17T20:00:00Z\n    late: {per_day: lots}", "late.per_day: must be points")]:
        text = config.read_text().replace("    deadline: 2026-11-17T20:00:00+01:00\n", "")
        text = text.replace("late: {per_day: 1, max: 3 days}", bad)
        config.write_text(text)
        done = harness(config, "validate")
        assert done.returncode != 0 and says in done.stdout + done.stderr, (bad, done.stdout, done.stderr)
        assert "Traceback" not in done.stderr
        config = course(tmp_path)
    assert harness(config, "validate").returncode == 0


def test_a_job_that_cannot_take_an_import_is_one_line(tmp_path: Path) -> None:
    config = course(tmp_path)
    canvas_zip(tmp_path / "d.zip")
    text = config.read_text()
    config.write_text(text + "  both: {jobs: [hw]}\n")
    for args, says in [(["--job", "nope"], "no job named 'nope'"), (["--job", "both"], "is a group of jobs"),
                       (["--job", "hw", "--tz", "Mars/Olympus"], "--tz Mars/Olympus: unknown time zone")]:
        done = harness(config, "import", str(tmp_path / "d.zip"), *args)
        assert done.returncode == 2 and done.stderr.count("\n") == 1 and says in done.stderr, done.stderr
    config.write_text(text.replace("    roster: students.csv\n", ""))
    done = harness(config, "import", str(tmp_path / "d.zip"), "--job", "hw")
    assert done.returncode == 2 and "jobs.hw.roster: missing" in done.stderr and done.stderr.count("\n") == 1
    assert not (tmp_path / "submissions").exists()


def test_a_sembasic_job_with_a_deadline_charges_and_keeps_its_own_columns(tmp_path: Path) -> None:
    """Quoridor's SemBasic: a Canvas download (player.py + player.zip), one student late."""
    inner = io.BytesIO()
    with zipfile.ZipFile(inner, "w") as z:
        z.writestr("player.py", (REPO / "submissions/quoridor/ok_naive/player.py").read_bytes())
    (tmp_path / "students.csv").write_text(ROSTER, encoding="utf-8")
    with zipfile.ZipFile(tmp_path / "q.zip", "w") as z:
        add(z, "novákjan_LATE_1001_1_player.py", (REPO / "submissions/quoridor/ok_naive/player.py").read_bytes(),
            (2026, 11, 19, 10, 0, 0))
        add(z, "svobodovasarka_1002_2_player.zip", inner.getvalue(), (2026, 11, 17, 10, 0, 0))
    config = tmp_path / "tournaments.yaml"
    config.write_text("""
jobs:
  basic:
    game: quoridor
    format: sembasic
    submissions: subs
    roster: students.csv
    deadline: '2026-11-17 20:00 Europe/Prague'
    late: {per_day: 25%, max: 50%}
""", encoding="utf-8")
    done = harness(config, "import", str(tmp_path / "q.zip"), "--job", "basic", "--into", str(tmp_path / "subs"))
    assert done.returncode == 0, done.stderr
    assert "novakjan: 1 attempt (1 new); graded: 2026-11-19T10:00:00+01:00, 2 days late (installed)" in done.stdout
    run = harness(config, "run", "basic", "--quiet", "--no-self-check")
    assert run.returncode == 0, run.stderr
    out = harness(config, "export", "basic", "--format", "csv")
    rows = {r["login"]: r for r in csv.DictReader(io.StringIO(out.stdout))}
    assert rows["svobodova"]["points"] == "2" and rows["svobodova"]["late_days"] == "0"
    # 2 days late at 25 % a day, at most 50 %: half the 2 points.
    assert (rows["novakjan"]["points"], rows["novakjan"]["late_days"], rows["novakjan"]["late_penalty"]) == \
           ("1", "2", "1")
    board = harness(config, "leaderboard", "basic")
    line = next(ln for ln in board.stdout.splitlines() if "novakjan" in ln)
    assert "2 d: -1" in line and "passed" in line and "not passed" not in line


def test_a_utf8_name_written_without_the_utf8_flag_is_still_read(tmp_path: Path) -> None:
    """Some zip writers store UTF-8 names without the flag (zipfile then reads them as cp437)."""
    from harness.intake.importer import import_download

    path = tmp_path / "noflag.zip"
    with zipfile.ZipFile(path, "w") as z:  # an ASCII name of the same length, its bytes swapped below
        add(z, "Jan NovXXX_7_assignsubmission_file_/player.py", BASIS, (2026, 11, 17, 10, 0, 0))
    data = path.read_bytes()
    assert data.count(b"NovXXX") == 2  # the local header and the central directory
    path.write_bytes(data.replace(b"NovXXX", "Novák".encode()))
    report = import_download(path, tmp_path / "subs", [Person("novakjan", "Novák, Jan")], zone=timezone.utc)
    assert not report.unmapped and (tmp_path / "subs" / "novakjan" / "player.py").read_bytes() == BASIS


def test_the_gradescope_bundle_leaves_the_deadline_to_gradescope(tmp_path: Path) -> None:
    from harness.config import load_config
    from harness.report.autograder import bundled_job

    config = course(tmp_path)
    for login in ("novakjan", "svobodova"):
        (tmp_path / "submissions" / login).mkdir(parents=True)
        (tmp_path / "submissions" / login / "player.py").write_bytes(BASIS)
    job = load_config(config).jobs["hw"]
    assert job.deadline is not None and job.late is not None and job.late.max_days == 3
    body, _files, notes = bundled_job(job, 256)
    assert "deadline" not in body and "late" not in body
    assert any("Gradescope applies the assignment's own due date" in n for n in notes)


def test_a_plain_folder_of_student_zips_imports_by_login_email_or_name(tmp_path: Path) -> None:
    from harness.intake.importer import import_download

    folder = tmp_path / "zips"
    folder.mkdir()
    for stem in ("novakjan", "sarka", "Petr Dvořák", "ghost"):
        with zipfile.ZipFile(folder / f"{stem}.zip", "w") as z:
            add(z, "player.py", BASIS, (2026, 11, 1, 0, 0, 0))
            add(z, "__MACOSX/._player.py", b"junk", (2026, 11, 1, 0, 0, 0))
    stamp = datetime(2026, 11, 17, 12, 0, tzinfo=timezone.utc).timestamp()
    for z in folder.iterdir():
        os.utime(z, (stamp, stamp))
    people = [Person("novakjan", "Novák, Jan"), Person("svobodova", "Svobodová, Šárka", email="sarka@uni.example"),
              Person("dvorak", "Dvořák, Petr")]
    report = import_download(folder, tmp_path / "subs", people, zone=timezone.utc)
    assert sorted(p.name for p in (tmp_path / "subs").iterdir()) == [".attempts", "dvorak", "novakjan", "svobodova"]
    assert report.unmapped == ["unmapped: ghost.zip: 'player.py': the zip 'ghost.zip' fits no student of the roster"]
    [attempt] = history(tmp_path / "subs", "svobodova")["attempts"]
    assert attempt["time"] == "2026-11-17T12:00:00+00:00" and "plain zip" in attempt["time_from"]


def test_a_file_where_a_students_folder_goes_is_left_alone_and_named(tmp_path: Path) -> None:
    from harness.intake.importer import import_download

    with zipfile.ZipFile(tmp_path / "d.zip", "w") as z:
        add(z, "novakjan_1_2_player.py", BASIS, (2026, 11, 17, 10, 0, 0))
        add(z, "svobodovasarka_3_4_player.py", BASIS, (2026, 11, 17, 10, 0, 0))
    (tmp_path / "subs").mkdir()
    (tmp_path / "subs" / "novakjan").write_text("notes of the instructor")
    people = [Person("novakjan", "Novák, Jan"), Person("svobodova", "Svobodová, Šárka")]
    report = import_download(tmp_path / "d.zip", tmp_path / "subs", people, zone=timezone.utc)
    assert (tmp_path / "subs" / "novakjan").read_text() == "notes of the instructor"
    assert [p for p in report.problems if p.startswith("novakjan: ") and "is a file" in p]
    assert (tmp_path / "subs" / "svobodova" / "player.py").read_bytes() == BASIS
