"""Re-judging for real: ``harness run JOB --rejudge LOGIN`` on real games and a real SQLite store.

A stored verdict that is wrong for a reason outside the bot (here: a stored record rewritten to
``crash``, as a machine that killed a reference player would leave it) is reused by every
ordinary run; re-judging plays exactly that login's games again, keeps the replaced records
with who re-judged them and when, and the leaderboard reads the new ones.
"""

from __future__ import annotations

import csv
import io
import json
import re
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

from harness.config import load_config
from harness.record import GameRecord, Verdict
from harness.tournament.formats import make_tasks
from harness.tournament.schedule import load_entrants
from harness.tournament.store import SCHEMA_VERSION, ResultsStore
from tests.conftest import REPO

BASIS = REPO / "reference_players/priemspel/basis.py"
STRATEGIE = REPO / "reference_players/priemspel/strategie.py"


def make_jobs(tmp_path: Path) -> Path:
    """A gauntlet (3 students x 2 settings x 2 games against basis) and a round robin, in a group."""
    subs = tmp_path / "submissions"
    for login, source in [("ann", STRATEGIE), ("ben", BASIS), ("cat", STRATEGIE)]:
        (subs / login).mkdir(parents=True)
        (subs / login / "player.py").write_bytes(source.read_bytes())
    config = tmp_path / "tournaments.yaml"
    config.write_text(f"""
jobs:
  g:
    game: priemspel
    format: gauntlet
    submissions: submissions
    opponent: {BASIS}
    settings: [{{N: 5}}, {{N: 7}}]
    games: 2
    workers: 2
    awards: {{policy: pass_fail, points: 1}}
  rr:
    game: priemspel
    format: round_robin
    submissions: submissions
    settings: [{{N: 5}}]
    games: 1
    workers: 2
    awards: {{policy: tiers, tiers: [{{rank: 1, points: 3}}]}}
  both:
    jobs: [g, rr]
""")
    return config


def harness(config: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "harness", *args, "--config", str(config)],
                          cwd=REPO, capture_output=True, text=True, timeout=300)


def run(config: Path, job: str, *extra: str) -> subprocess.CompletedProcess[str]:
    return harness(config, "run", job, "--quiet", "--no-self-check", *extra)


def spoil(results: Path, key: str, login: str) -> None:
    """Rewrite one stored game as if ``login`` had crashed in it (a verdict wrong for a reason outside the bot)."""
    with ResultsStore(results) as store:
        (_, record), = store.records([key])
        for p in record.players:
            if p.login == login:
                p.verdict, p.reason = Verdict.CRASH, "killed by SIGKILL during import"
        store.put(key, record.game, record)


def verdicts(results: Path) -> dict[str, list[tuple[str, str]]]:
    with ResultsStore(results, lock=False) as store:
        return {key: [(p.login, p.verdict.value) for p in r.players] for key, r in store.records()}


def own_keys(config: Path, job_name: str, login: str) -> list[str]:
    """The login's games in the job's schedule order (the numbers students see)."""
    job = load_config(config).resolve(job_name)[0]
    return [t.key for t in make_tasks(job, load_entrants(job)) if any(e.login == login for e in t.entrants)]


def test_rejudge_replays_exactly_that_login_s_games_and_keeps_the_old_records(tmp_path: Path) -> None:
    config = make_jobs(tmp_path)
    first = run(config, "g")
    assert first.returncode == 0, first.stderr
    assert "g: 12 games, 0 reused, 12 played" in first.stderr
    results = tmp_path / "results" / "g"
    bens = own_keys(config, "g", "ben")
    assert len(bens) == 4
    spoil(results, bens[1], "ben")
    again = run(config, "g")  # an ordinary run reuses the wrong verdict
    assert "12 games, 12 reused, 0 played" in again.stderr
    board = json.loads(harness(config, "leaderboard", "g", "--format", "json").stdout)
    assert {r["login"]: r["disqualified"] for r in board["rows"]}["ben"] is True
    before = verdicts(results)

    rejudged = run(config, "g", "--rejudge", "ben", "--by", "teacher")
    assert rejudged.returncode == 0, rejudged.stderr
    assert "12 games, 8 reused, 4 played" in rejudged.stderr
    assert "re-judged 4 records of ben by teacher" in rejudged.stderr
    after = verdicts(results)
    assert set(after) == set(before)
    assert all(after[k] == before[k] for k in before if k not in bens)  # nobody else's game changed
    assert all(v == "ok" for k in bens for _, v in after[k])  # the crash was the machine's, not ben's
    board = json.loads(harness(config, "leaderboard", "g", "--format", "json").stdout)
    assert {r["login"]: r["disqualified"] for r in board["rows"]}["ben"] is False
    assert "crash" not in harness(config, "export", "g", "--format", "feedback").stdout

    with ResultsStore(results, lock=False) as store:
        history = store.replaced()
    assert sorted(h["key"] for h in history) == sorted(bens)
    assert {(h["login"], h["by"], h["kind"]) for h in history} == {("ben", "teacher", "game")}
    assert all(h["at"] >= h["stored"] for h in history)
    spoilt = next(h for h in history if h["key"] == bens[1])
    assert GameRecord.from_json(spoilt["record"]).players[1].verdict is Verdict.CRASH  # the old record, as stored

    status = harness(config, "status", "g")
    assert status.returncode == 0, status.stderr
    said = " ".join(status.stdout.split())  # wrapped to COLUMNS
    assert "4 played, 8 reused of 12" in said and "re-judged 4 records of ben by teacher" in said

    plain = run(config, "g")  # nothing re-judged: the store is reused whole
    assert "12 games, 12 reused, 0 played" in plain.stderr


def test_rejudge_one_game_by_the_number_students_see(tmp_path: Path) -> None:
    config = make_jobs(tmp_path)
    assert run(config, "g").returncode == 0
    results = tmp_path / "results" / "g"
    cats = own_keys(config, "g", "cat")
    spoil(results, cats[2], "cat")
    feedback = harness(config, "export", "g", "--format", "feedback")
    assert "First error: game 3 (seed" in json.loads(feedback.stdout)["cat"]  # the number the student reads

    one = run(config, "g", "--rejudge", "cat", "--rejudge-game", "3")
    assert one.returncode == 0, one.stderr
    assert "12 games, 11 reused, 1 played" in one.stderr and "re-judged game 3 of cat by " in one.stderr
    assert all(v == "ok" for _, v in verdicts(results)[cats[2]])
    with ResultsStore(results, lock=False) as store:
        assert [h["key"] for h in store.replaced()] == [cats[2]]
    # The report numbers cat's games as her feedback does, though game 3 is now stored last.
    page = (results / "site" / "bots" / "cat.html").read_text()
    rows = re.findall(r'<td class="num">(\d+)</td>.*?games/([0-9a-f]+)\.html', page, re.S)
    assert [key for _, key in sorted(rows, key=lambda r: int(r[0]))] == cats

    for extra, message in [(["--rejudge", "cat", "--rejudge-game", "5"], "cat has 4 games in this job (numbered 1-4)"),
                           (["--rejudge", "zed"], "no games of zed in this job"),
                           (["--rejudge-game", "2"], "--rejudge-game N: name whose game N with --rejudge LOGIN")]:
        bad = run(config, "g", *extra)
        assert bad.returncode == 2 and message in bad.stderr and "Traceback" not in bad.stderr, bad.stderr
        assert len(bad.stderr.strip().splitlines()) == 1
    with ResultsStore(results, lock=False) as store:
        assert len(store.replaced()) == 1 and store.count() == 12  # a refused request took nothing out


def test_rejudge_in_a_group_run(tmp_path: Path) -> None:
    config = make_jobs(tmp_path)
    assert run(config, "both").returncode == 0
    # ann in the round robin: 2 opponents x 2 seatings of 6 games; in the gauntlet 4 of 12
    group = run(config, "both", "--rejudge", "ann")
    assert group.returncode == 0, group.stderr
    assert "g: 12 games, 8 reused, 4 played" in group.stderr
    assert "rr: 6 games, 2 reused, 4 played" in group.stderr
    nobody = run(config, "both", "--rejudge", "zed")  # in no job of the group: said, and nothing replayed
    assert nobody.returncode == 1 and "--rejudge zed: no games of zed in any job of both" in nobody.stderr
    assert "g: 12 games, 12 reused, 0 played" in nobody.stderr


def test_a_store_of_the_previous_schema_is_upgraded_and_reused_whole(tmp_path: Path) -> None:
    config = make_jobs(tmp_path)
    assert run(config, "g").returncode == 0
    db = tmp_path / "results" / "g" / "results.sqlite"
    with sqlite3.connect(db) as con:  # as the previous version wrote it: no replaced table, schema 2
        con.execute("DROP TABLE replaced")
        con.execute("UPDATE meta SET value = '2' WHERE key = 'schema_version'")
    again = run(config, "g")
    assert again.returncode == 0 and "12 games, 12 reused, 0 played" in again.stderr
    with sqlite3.connect(db) as con:
        assert con.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone() == (str(SCHEMA_VERSION),)
        assert con.execute("SELECT COUNT(*) FROM replaced").fetchone() == (0,)
    assert run(config, "g", "--rejudge", "ann").returncode == 0


def test_rejudge_grades_a_submission_of_a_battery_job_again(tmp_path: Path) -> None:
    shutil.copytree(REPO / "submissions/quoridor/no_crossing", tmp_path / "subs" / "no_crossing")
    shutil.copytree(REPO / "submissions/quoridor/ok_compact", tmp_path / "subs" / "ok_compact")
    config = tmp_path / "tournaments.yaml"
    config.write_text("jobs:\n  basic:\n    game: quoridor\n    format: sembasic\n    submissions: subs\n")
    assert run(config, "basic").returncode == 0
    again = run(config, "basic", "--rejudge", "no_crossing", "--by", "teacher")
    assert again.returncode == 0, again.stderr
    assert "basic: 2 gradings, 1 reused, 1 played" in again.stderr
    with ResultsStore(tmp_path / "results" / "basic", lock=False) as store:
        (old,) = store.replaced()
        assert (old["kind"], old["login"], old["by"]) == ("grade", "no_crossing", "teacher")
        assert old["record"]["points"] == 1 and len(store.grades()) == 2


def labelled(results: Path, key: str, login: str, number: int) -> str:
    """How ``login`` reads its game ``number`` (stored under ``key``): ``game 3 (seed 1, seat 0) against basis``."""
    with ResultsStore(results, lock=False) as store:
        (_, record), = store.records([key])
    seat = [p.login for p in record.players].index(login)
    others = [p.login for p in record.players if p.login != login]
    return f"game {number} (seed {record.seed}, seat {seat}) against {', '.join(others)}"


def test_a_rejudged_game_is_named_in_the_feedback_every_export_the_report_and_status(tmp_path: Path) -> None:
    """Issue 34's "done when": a re-judged game is named in the student's feedback and in every export,
    with who, when and why; nothing is added where no re-judging happened."""
    config = make_jobs(tmp_path)
    assert run(config, "g").returncode == 0
    results = tmp_path / "results" / "g"
    plain = {fmt: harness(config, "export", "g", "--format", fmt).stdout
             for fmt in ("csv", "canvas", "moodle", "gradescope", "feedback")}
    plain_boards = {fmt: harness(config, "leaderboard", "g", "--format", fmt).stdout for fmt in ("csv", "json")}
    assert not any("rejudged" in t or "Re-judged" in t or "Notes" in t for t in [*plain.values(), *plain_boards.values()])
    cats = own_keys(config, "g", "cat")
    spoil(results, cats[2], "cat")
    done = run(config, "g", "--rejudge", "cat", "--rejudge-game", "3", "--by", "teacher",
               "--why", "the grading machine ran out of memory")
    assert done.returncode == 0, done.stderr
    game3 = labelled(results, cats[2], "cat", 3)
    why = "by teacher (why: the grading machine ran out of memory)"

    feedback = json.loads(harness(config, "export", "g", "--format", "feedback").stdout)
    assert re.search(r"Re-judged \d{4}-\d\d-\d\d \d\d:\d\d UTC " + re.escape(why) + ": " + re.escape(game3), feedback["cat"])
    assert "Re-judged" not in feedback["ann"], "a re-judging of cat's game concerns cat alone"
    gradescope = json.loads(harness(config, "export", "g", "--format", "gradescope").stdout)
    assert game3 in gradescope["cat"]["tests"][0]["output"] and "Re-judged" not in json.dumps(gradescope["ann"])
    gradebook = list(csv.DictReader(io.StringIO(harness(config, "export", "g", "--format", "csv").stdout)))
    by_login = {r["login"]: r for r in gradebook}
    assert why in by_login["cat"]["rejudged"] and game3 in by_login["cat"]["rejudged"] and by_login["ann"]["rejudged"] == ""
    for fmt in ("canvas", "moodle"):
        text = harness(config, "export", "g", "--format", fmt).stdout
        rows = list(csv.reader(io.StringIO(text)))
        assert sum(game3 in c for r in rows for c in r) == 1, (fmt, text)
    canvas = harness(config, "export", "g", "--format", "canvas")
    assert canvas.stdout.splitlines()[0].startswith("Student,ID,SIS User ID,SIS Login ID,Section,Notes,g")
    assert "Gradebook > View > Notes" in canvas.stderr
    board = list(csv.DictReader(io.StringIO(harness(config, "leaderboard", "g", "--format", "csv").stdout)))
    assert game3 in {r["login"]: r for r in board}["cat"]["rejudged"]
    data = json.loads(harness(config, "leaderboard", "g", "--format", "json").stdout)
    assert [(r["login"], r["by"], r["game"], r["why"]) for r in data["rejudgings"]] == \
        [("cat", "teacher", 3, "the grading machine ran out of memory")]
    assert game3 in {r["login"]: r for r in data["rows"]}["cat"]["rejudged"]
    text = harness(config, "leaderboard", "g", "--format", "text").stdout
    assert "(game 3 of cat re-judged " in text

    page = (results / "site" / "bots" / "cat.html").read_text()
    assert 'id="rejudged"' in page and game3 in page and "the grading machine ran out of memory" in page
    marked = [row for row in re.findall(r"<tr>(.*?)</tr>", page, re.S) if ">re-judged</span>" in row]
    assert len(marked) == 1 and f"games/{cats[2]}.html" in marked[0]  # its row in the games list, marked
    assert 'id="rejudged"' not in (results / "site" / "bots" / "ann.html").read_text()

    # A second re-judging, of the reference player: each student's own games, under their own numbers.
    again = run(config, "g", "--rejudge", "basis", "--by", "assistant", "--why", "a new harness")
    assert again.returncode == 0, again.stderr
    anns = own_keys(config, "g", "ann")
    feedback = json.loads(harness(config, "export", "g", "--format", "feedback").stdout)
    assert all(labelled(results, k, "ann", n) in feedback["ann"] for n, k in enumerate(anns, start=1))
    assert feedback["cat"].count("Re-judged") == 2
    status = harness(config, "status", "g")
    said = " ".join(status.stdout.split())
    assert status.returncode == 0
    assert "re-judged: game 3 of cat re-judged" in said and "re-judged: 12 records of basis re-judged" in said, said


def test_status_of_one_student_shows_every_verdict_whole_across_the_group(tmp_path: Path) -> None:
    config = make_jobs(tmp_path)
    assert run(config, "g").returncode == 0
    results = tmp_path / "results" / "g"
    cats = own_keys(config, "g", "cat")
    long_reason = "wall overlaps " + "and this reason goes on " * 12 + "to its very end"
    for key in (cats[0], cats[3]):
        with ResultsStore(results) as store:
            (_, record), = store.records([key])
            for p in record.players:
                if p.login == "cat":
                    p.verdict, p.reason = Verdict.ILLEGAL_MOVE, long_reason
            store.put(key, record.game, record)
    env_cols = {"COLUMNS": "80"}
    done = subprocess.run([sys.executable, "-m", "harness", "status", "both", "cat", "--config", str(config)],
                          cwd=REPO, capture_output=True, text=True, timeout=300, env={**__import__("os").environ, **env_cols})
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert all(len(x) <= 80 for x in lines), lines
    said = " ".join(done.stdout.split())
    assert "rr: never run (no results yet)" in said  # a job of the group never run is shown as such
    assert said.count(long_reason) >= 2  # each verdict whole, not "illegal_move: wall..."
    assert labelled(results, cats[3], "cat", 4) in said
    unknown = harness(config, "status", "g", "zed")
    assert unknown.returncode == 2 and "zed: no such login in g" in unknown.stderr


def test_status_of_a_group_with_a_job_never_run_and_an_error_mended_later(tmp_path: Path) -> None:
    """Issue 34: `status GROUP` exited 2 and showed nothing when one job had never run; and a run
    interrupted once stayed the "last error" after later complete runs."""
    config = make_jobs(tmp_path)
    results = tmp_path / "results" / "g"
    results.mkdir(parents=True)
    with ResultsStore(results) as store:  # a run that was interrupted (as Ctrl-C leaves it in the history)
        store.end_run(store.start_run("g", {"games": 12}), "interrupted", {"games": 12, "error": "interrupted"})
    status = harness(config, "status", "both")
    assert status.returncode == 0, status.stderr
    assert "last error:" in status.stdout and ": interrupted" in status.stdout
    assert "rr (priemspel, round_robin)\n  last run: never (no results yet: harness run rr)" in status.stdout
    assert run(config, "g").returncode == 0
    status = harness(config, "status", "both")
    assert status.returncode == 0 and "g (priemspel, gauntlet)" in status.stdout
    assert "  last error: none" in status.stdout and "interrupted" not in status.stdout.split("last run:")[1].split("\n")[0]
