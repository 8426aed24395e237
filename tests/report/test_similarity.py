"""``harness similarity``: disguised copies are flagged, independent bots are not, by code and by play.

The copies are made programmatically (:mod:`tests.report.copier`): every identifier the file
defines renamed, every group of definitions reversed, comments and docstrings stripped, an unused
function added. The behaviour test plays a real round robin through the sandbox and the CLI.
"""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import astuple
from pathlib import Path

import pytest

from harness.games import get_game
from harness.report.similarity import compare, given_code, job_similarity, job_sources
from harness.report.similarity.code import fingerprint
from harness.config import load_config
from tests.conftest import REPO
from tests.report.copier import disguise

HERE = Path(__file__).resolve().parent
OWN = HERE / "similarity_bots"
INDEPENDENT = ["scan", "greedy", "fewest", "centre"]  # Blokovanie bots written separately for this test
# One reference player per game or per family: the Štreky and Quoridor players share one board
# core (a player must be a single file), and PriemSpel's basis, Človeče's mean and Blokovanie's
# random are a few lines of what strategie, eager and max_block do, so those pairs are not
# independent. Človeče's random and Blokovanie's first_free are left out: fewer own fingerprints
# than CODE_MIN_SHARED (ten lines), so a copy of them cannot be told from writing them again
# (their behaviour can: see the round robin below).
REFERENCES = ["streky/strong.py", "quoridor/waller.py", "blokovanie/strong.py", "blokovanie/max_block.py",
              "priemspel/strategie.py", "clovece/eager.py", "clovece/safe.py"]


def harness(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "harness", *args], cwd=cwd, capture_output=True, text=True,
                          env={"PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin"}, timeout=900)


def test_disguise_really_changes_every_name_order_and_comment() -> None:
    original = (OWN / "greedy.py").read_text()
    copy = disguise(original)
    assert "neighbours" not in copy and "most" not in copy and "#" not in copy
    assert "unused_helper_for_nothing" in copy
    assert copy.index("def move") < copy.index("def q")  # the methods' order is reversed
    assert fingerprint([("a.py", original.encode())]).where.keys() != fingerprint([("b.py", copy.encode())]).where.keys()


def test_own_bots_copies_are_flagged_by_code_and_independent_bots_are_not() -> None:
    sources = {name: [("player.py", (OWN / f"{name}.py").read_bytes())] for name in INDEPENDENT + ["mimic"]}
    for name in INDEPENDENT:
        sources[f"{name}_copy"] = [("player.py", disguise((OWN / f"{name}.py").read_text(), salt=name[0]).encode())]
    result = compare(sources, given_code(get_game("blokovanie")))
    flagged = {(p.a, p.b) for p in result.pairs if p.suspicious}
    assert flagged == {tuple(sorted((n, f"{n}_copy"))) for n in INDEPENDENT}
    for p in result.pairs:
        if p.suspicious:
            assert p.code >= 0.85, p


def test_reference_players_copies_are_flagged_by_code_and_the_others_are_not() -> None:
    sources, given = {}, set()
    for name in REFERENCES:
        path = REPO / "reference_players" / name
        # The reference players are what is compared here, so they are not given code.
        given |= given_code(get_game(name.split("/")[0]), references=False)
        sources[name] = [("player.py", path.read_bytes())]
        sources[name + "#copy"] = [("player.py", disguise(path.read_text(), salt=name.split("/")[1][:4]).encode())]
    result = compare(sources, given)
    flagged = {(p.a, p.b) for p in result.pairs if p.suspicious}
    assert flagged == {(n, n + "#copy") for n in REFERENCES}
    assert max(p.code for p in result.pairs if not p.suspicious) < 0.4


def test_a_file_that_does_not_tokenise_has_no_fingerprints_and_a_note() -> None:
    prints = fingerprint([("player.py", b"def f(:\n    '''unterminated\n")])
    assert len(prints) == 0 and "does not tokenise" in prints.notes[0]
    big = fingerprint([("player.py", b"x = 1\n" * 100_000)])
    assert len(big) == 0 and "larger than" in big.notes[0]


def test_streky_samples_are_not_flagged_for_the_course_template() -> None:
    job = load_config(REPO / "tournaments.yaml").jobs["streky-tournament"]
    result = job_similarity(job)
    # 28 pairs of samples, and each of the 8 compared with the 3 shipped Štreky players.
    assert len([p for p in result.pairs if p.reference is None]) == 28 and len(result.pairs) == 28 + 8 * 3
    assert not result.suspicious and not result.groups
    # Not a vacuous pass: two of them alone share what any two share, the template's lines, and
    # without the template those flag them.
    sources, _, _ = job_sources(job)
    two = {name: sources[name] for name in ("correct_student", "overlap")}
    assert not compare(two, given_code(get_game("streky"))).suspicious
    bare = compare(two, given_code(get_game("streky"), template=False))
    assert bare.suspicious and bare.pairs[0].code > 0.8


@pytest.fixture(scope="module")
def round_robin(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A real Blokovanie round robin of the independent bots, their disguised copies and the mimic."""
    root = tmp_path_factory.mktemp("similar")
    for name in INDEPENDENT + ["mimic"]:
        (root / "subs" / name).mkdir(parents=True)
        (root / "subs" / name / "player.py").write_bytes((OWN / f"{name}.py").read_bytes())
    for name in ("scan", "greedy"):
        (root / "subs" / f"{name}_copy").mkdir()
        # each copier adds dead code of its own (one dead function in both would be code they share)
        (root / "subs" / f"{name}_copy" / "player.py").write_text(disguise((OWN / f"{name}.py").read_text(), salt=name[0]))
    (root / "tournaments.yaml").write_text(
        "jobs:\n  rr:\n    game: blokovanie\n    format: round_robin\n    submissions: subs\n"
        "    settings: [{rows: 5, cols: 6}, {rows: 7, cols: 7}, {rows: 6, cols: 9}]\n    games: 1\n    seed: 1\n"
        "    workers: 2\n")
    done = harness("run", "rr", "--quiet", cwd=root)
    assert done.returncode == 0, done.stderr
    return root


def test_round_robin_flags_copies_and_the_mimic_by_behaviour(round_robin: Path) -> None:
    done = harness("similarity", "rr", "--format", "json", cwd=round_robin)
    assert done.returncode == 0, done.stderr
    rows = json.loads(done.stdout)
    # Every submission is also compared with Blokovanie's 4 shipped players; none is a copy of one.
    assert {p["b"] for p in rows if p["reference"]} == {f"reference/{n}" for n in ("first_free", "max_block",
                                                                                   "random", "strong")}
    assert len(rows) == 21 + 7 * 4 and not any(p["suspicious"] for p in rows if p["reference"])
    pairs = {(p["a"], p["b"]): p for p in rows if not p["reference"]}
    assert len(pairs) == 21
    flagged = {k for k, p in pairs.items() if p["suspicious"]}
    assert flagged == {("greedy", "greedy_copy"), ("scan", "scan_copy"), ("greedy", "mimic"), ("greedy_copy", "mimic")}
    mimic = pairs[("greedy", "mimic")]
    assert mimic["flagged_by"] == ["behaviour"] and mimic["behaviour"] == 1.0 and mimic["positions"] >= 20
    assert mimic["code"] < 0.3
    assert pairs[("greedy", "greedy_copy")]["behaviour"] == 1.0
    for key, p in pairs.items():
        if key not in flagged and p["behaviour"] is not None:
            assert p["behaviour"] < 0.75, p


def test_the_streaming_index_counts_what_the_pairwise_walk_counts(round_robin: Path) -> None:
    """The position index (streamed from the store) against the first pairwise walk (every record
    held, every pair of games walked), on the real round robin: every pair's counts and examples."""
    from harness.report.similarity.behaviour import compare_games
    from harness.tournament.store import open_readonly
    from tests.report.behaviour_oracle import compare_games as walk

    job = load_config(round_robin / "tournaments.yaml").jobs["rr"]
    logins = [ref.login for ref in job.submissions]
    with open_readonly(job.results) as store:
        held = list(store.records())
        streamed = compare_games(store.records(), logins)
    assert held and all(record.moves for _, record in held)
    old = walk(held, logins)
    assert len(old) == 21 and sum(m.compared for m in old.values()) > 100
    assert {k: (m.compared, m.same, m.games) for k, m in streamed.items()} == \
        {k: (m.compared, m.same, m.games) for k, m in old.items()}
    # The oracle has its own Agreement class: compare the fields.
    assert {k: [astuple(g) for g in m.examples] for k, m in streamed.items() if m.same} == \
        {k: [astuple(g) for g in m.examples] for k, m in old.items() if m.same}


def test_the_table_fits_80_columns_and_csv_lists_every_pair(round_robin: Path) -> None:
    done = harness("similarity", "rr", cwd=round_robin)
    assert done.returncode == 0, done.stderr
    assert all(len(row) <= 80 for row in done.stdout.splitlines())
    assert "greedy" in done.stdout.splitlines()[2] and "suspicious" in done.stdout
    rows = harness("similarity", "rr", "--format", "csv", cwd=round_robin).stdout.splitlines()
    assert len(rows) == 1 + 21 + 7 * 4
    record = json.loads(harness("similarity", "rr", "--format", "json", cwd=round_robin).stdout)[0]
    assert rows[0].split(",") == list(record)  # the JSON's columns, in its order, flagged_by among them


def test_a_bad_similarity_key_is_one_line(tmp_path: Path) -> None:
    (tmp_path / "tournaments.yaml").write_text(
        "jobs:\n  rr:\n    game: blokovanie\n    format: round_robin\n"
        "    reference: [reference_players/blokovanie/random.py, reference_players/blokovanie/max_block.py]\n"
        "    similarity: {exclude: [nowhere/]}\n")
    done = harness("similarity", "rr", cwd=tmp_path)
    assert done.returncode == 2 and "similarity.exclude[0]: no such file or folder" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def test_the_pages_in_chromium_show_the_pairs_the_code_and_the_replays(round_robin: Path) -> None:
    """``--out`` into the report's ``similarity/`` folder: the report links it, a pair's page shows
    the matching code and the shared decisions, and its replay links open working replays."""
    from tests.report.test_browser import ARGS, CHROMIUM, _unavailable

    problem = _unavailable()
    if problem is not None:
        pytest.skip(problem)
    assert harness("report", "rr", "--out", "site", cwd=round_robin).returncode == 0
    done = harness("similarity", "rr", "--replay", "--out", "site/similarity", cwd=round_robin)
    assert done.returncode == 0, done.stderr
    assert harness("report", "rr", "--out", "site", cwd=round_robin).returncode == 0  # now with the link
    from playwright.sync_api import sync_playwright

    problems: list[str] = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: problems.append(str(e)))
        page.goto((round_robin / "site/index.html").resolve().as_uri())
        page.get_by_role("link", name="similar submissions").click()
        assert page.locator("#similar-pairs tbody tr").count() == 21 + 7 * 4  # with the shipped players
        assert page.locator("#similar-pairs tbody tr.dq").count() == 4
        page.locator("#similar-pairs a", has_text="mimic").first.click()
        assert page.locator("#behaviour-score").inner_text() == "1.00"
        assert float(page.locator("#code-score").inner_text()) < 0.3  # a rewrite from scratch: idioms at most
        assert page.locator("#replay-score").inner_text().startswith("1.00 of ")
        assert page.locator("#agreements tbody tr").count() >= 3
        page.goto((round_robin / "site/index.html").resolve().as_uri())
        page.get_by_role("link", name="similar submissions").click()
        page.locator("#similar-pairs a", has_text="scan_copy").first.click()
        assert page.locator("pre.listing .hit").count() >= 10  # matching lines highlighted on both sides
        # each replay link opens its game at the position (#ply), whichever pair wrote the replay
        ply = page.locator("#agreements tbody tr td").first.inner_text()
        assert page.locator("#agreements a").first.get_attribute("href").endswith(f".html#{ply}")
        page.locator("#agreements a").first.click()
        page.wait_for_selector("#board", timeout=30_000)
        assert page.locator("#slider").count() == 1
        browser.close()
    assert problems == []


def test_fingerprints_on_every_core_are_those_of_one_process() -> None:
    from harness.report.similarity import PARALLEL_FROM, fingerprint_all

    files = {f"s{i}": [("player.py", disguise((OWN / "greedy.py").read_text(), salt=f"x{i}").encode())]
             for i in range(PARALLEL_FROM + 2)}
    pooled = fingerprint_all(files)
    assert {n: p.where for n, p in pooled.items()} == {n: fingerprint(fs).where for n, fs in files.items()}


def test_an_archive_is_compared_with_this_year_and_excluded_code_is_no_evidence(tmp_path: Path) -> None:
    for name in ("scan", "greedy"):
        (tmp_path / "subs" / name).mkdir(parents=True)
        (tmp_path / "subs" / name / "player.py").write_bytes((OWN / f"{name}.py").read_bytes())
    for name in ("old_greedy", "old_greedy_twin"):
        (tmp_path / "old" / name).mkdir(parents=True)
        (tmp_path / "old" / name / "player.py").write_text(disguise((OWN / "greedy.py").read_text(), salt=name[-1]))
    (tmp_path / "handout.py").write_bytes((OWN / "scan.py").read_bytes())
    body = ("jobs:\n  rr:\n    game: blokovanie\n    format: round_robin\n    submissions: subs\n"
            "    reference: [reference_players/blokovanie/random.py]\n    similarity: {archive: old%s}\n")
    (tmp_path / "tournaments.yaml").write_text(body % "")
    pairs = {(p["a"], p["b"]): p for p in json.loads(harness("similarity", "rr", "--format", "json",
                                                             cwd=tmp_path).stdout) if not p["reference"]}
    assert set(pairs) == {("greedy", "scan"), ("archive/old_greedy", "greedy"), ("archive/old_greedy", "scan"),
                          ("archive/old_greedy_twin", "greedy"), ("archive/old_greedy_twin", "scan")}
    assert pairs[("archive/old_greedy", "greedy")]["suspicious"] and not pairs[("greedy", "scan")]["suspicious"]
    # scan.py handed out to everyone: a copy of it is no evidence any more.
    (tmp_path / "subs" / "scan2").mkdir()
    (tmp_path / "subs" / "scan2" / "player.py").write_text(disguise((OWN / "scan.py").read_text()))
    (tmp_path / "tournaments.yaml").write_text(body % ", exclude: [handout.py]")
    pairs = {(p["a"], p["b"]): p for p in json.loads(harness("similarity", "rr", "--format", "json",
                                                             cwd=tmp_path).stdout) if not p["reference"]}
    assert pairs[("scan", "scan2")]["code"] == 0 and not pairs[("scan", "scan2")]["suspicious"]


def test_forced_moves_are_no_evidence_and_the_walk_stops_at_the_first_difference() -> None:
    from harness.record import GameRecord, MoveRecord, PlayerRecord
    from harness.report.similarity.behaviour import compare_games

    settings = get_game("blokovanie").rules.parse_settings({"rows": 1, "cols": 3})

    def game(logins: list[str], moves: list[list[int]]) -> GameRecord:
        return GameRecord("blokovanie", settings, 0, [PlayerRecord(login, "sha") for login in logins],
                          moves=[MoveRecord(i % 2, m, 0.0, 0.0) for i, m in enumerate(moves)])

    # Seat 1 after (0, 0) has one free cell left: the same answer there says nothing.
    forced = compare_games([("k1", game(["x", "a"], [[0, 0], [0, 2]])), ("k2", game(["x", "b"], [[0, 0], [0, 2]]))],
                           ["a", "b"])
    assert forced == {}
    # Seat 0 with three cells free: a real choice, the same in both games.
    chose = compare_games([("k1", game(["a", "x"], [[0, 0], [0, 2]])), ("k2", game(["b", "x"], [[0, 0], [0, 2]]))],
                          ["a", "b"])
    assert (chose[("a", "b")].compared, chose[("a", "b")].same) == (1, 1)
    differ = compare_games([("k1", game(["a", "x"], [[0, 0], [0, 2]])), ("k2", game(["b", "x"], [[0, 2], [0, 0]]))],
                           ["a", "b"])
    assert (differ[("a", "b")].compared, differ[("a", "b")].same) == (1, 0) and differ[("a", "b")].score == 0


def test_replay_asks_each_bot_the_others_positions_in_the_sandbox(round_robin: Path) -> None:
    """``--replay`` on the real Blokovanie round robin: the from-scratch mimic makes greedy's move
    in every position greedy met and the other way round; independent bots do not."""
    done = harness("similarity", "rr", "--replay", "--format", "json", cwd=round_robin)
    assert done.returncode == 0, done.stderr
    pairs = {(p["a"], p["b"]): p for p in json.loads(done.stdout) if not p["reference"]}
    mimic = pairs[("greedy", "mimic")]
    assert mimic["replay"] == 1.0 and mimic["replayed_positions"] >= 60 and "replay" in mimic["flagged_by"]
    assert pairs[("scan", "scan_copy")]["replay"] == 1.0
    flagged = {k for k, p in pairs.items() if p["suspicious"]}
    assert flagged == {("greedy", "greedy_copy"), ("scan", "scan_copy"), ("greedy", "mimic"), ("greedy_copy", "mimic")}
    others = [p for k, p in pairs.items() if k not in flagged]
    assert len(others) == 17 and all(p["replayed_positions"] >= 60 and p["replay"] < 0.75 for p in others)
    assert any(p["replay"] > 0 for p in others)  # asked bots really answered: some moves coincide


def test_replay_of_a_bot_that_hangs_is_cut_by_its_limit_and_noted(round_robin: Path, tmp_path: Path) -> None:
    from harness.report.similarity.replay import ask, positions_met
    from harness.tournament.store import open_readonly

    job = load_config(round_robin / "tournaments.yaml").jobs["rr"]
    with open_readonly(job.results) as store:
        questions = positions_met(store.records(), job.spec, ["greedy"])["greedy"]
    assert len(questions) == 50
    (tmp_path / "subs" / "hang").mkdir(parents=True)
    # Answers three questions, then loops: a fatal timeout, after which it is asked nothing more.
    stuck = ("    def move(self, board):\n        self.asked = getattr(self, 'asked', 0) + 1\n"
             "        while self.asked > 3:\n            pass\n")
    (tmp_path / "subs" / "hang" / "player.py").write_text(
        (OWN / "greedy.py").read_text().replace("    def move(self, board):\n", stuck))
    (tmp_path / "tournaments.yaml").write_text(
        "jobs:\n  rr:\n    game: blokovanie\n    format: round_robin\n    submissions: subs\n"
        "    reference: [reference_players/blokovanie/random.py]\n    limits: {move: 0.5}\n")
    hang = load_config(tmp_path / "tournaments.yaml").jobs["rr"]
    answers, note = ask(hang.spec, hang, "hang", questions)
    assert answers[:3] == [q.answer for q in questions[:3]] and answers[3:] == [None] * 47
    assert "timeout" in note or "time" in note


def test_replay_is_refused_with_a_note_where_bots_keep_state(tmp_path: Path) -> None:
    job = load_config(REPO / "tournaments.yaml").jobs["streky-tournament"]
    from harness.report.similarity import job_replay

    result = job_similarity(job)
    job_replay(job, result, [])
    assert any("cannot be asked a position" in n for n in result.notes)
    assert all(p.replay is None for p in result.pairs)


def test_the_index_equals_the_walk_on_many_random_games_with_odd_cases() -> None:
    """Randomised games sharing prefixes: games that are prefixes of others, identical games, a
    login with two games in a group, refused last answers, harness faults; every pair's counts
    and examples as the pairwise walk has them."""
    import random

    from harness.record import GameRecord, MoveRecord, PlayerRecord, Verdict
    from harness.report.similarity.behaviour import compare_games
    from tests.report.behaviour_oracle import compare_games as walk

    rules = get_game("blokovanie").rules
    rng = random.Random(7)
    logins = [f"b{i}" for i in range(8)]
    records = []
    for n in range(400):
        settings = rules.parse_settings({"rows": rng.choice([2, 3]), "cols": rng.choice([3, 4])})
        login, seat = rng.choice(logins), rng.randrange(2)
        style = int(login[1:]) % 3
        state = rules.initial(settings, random.Random(0))
        moves = []
        while not rules.is_over(state) and not (moves and rng.random() < 0.05):
            cells = sorted(rules.legal_moves(state))
            if state.turn == seat:
                move = cells[0 if style == 0 else -1 if style == 1 else len(cells) // 2]
                if rng.random() < 0.2:
                    move = rng.choice(cells)
            else:
                move = cells[(state.blocked * 7) % len(cells)]
            moves.append(MoveRecord(state.turn, list(move), 0.0, 0.0))
            state = rules.apply(state, move)
        if moves and rng.random() < 0.1:  # a refused answer: the walk stops there
            moves[-1] = MoveRecord(moves[-1].player, [9, 9], 0.0, 0.0, accepted=False)
        players = [PlayerRecord(login, "sha"), PlayerRecord("opp", "sha")]
        if seat == 1:
            players.reverse()
        if rng.random() < 0.03:
            players[0].verdict = Verdict.HARNESS_ERROR
        records.append((f"k{n}", GameRecord("blokovanie", settings, rng.randrange(2), players, moves=moves)))
    new, old = compare_games(records, logins), walk(records, logins)
    assert len(old) >= 20 and any(m.games > 1 for m in old.values())
    assert {k: (m.compared, m.same, m.games) for k, m in new.items()} == \
        {k: (m.compared, m.same, m.games) for k, m in old.items()}
    assert {k: [astuple(g) for g in m.examples] for k, m in new.items() if m.same} == \
        {k: [astuple(g) for g in m.examples] for k, m in old.items() if m.same}
