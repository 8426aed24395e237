"""``harness similarity``'s code channels against the rewrites of issue 33: the syntax-tree
channel's normalisations one by one and together, containment, shared solutions as groups, the
shipped players as sources, and fingerprints that are the same in every process.

The combined rewrites are made programmatically (:func:`tests.report.copier.rewrite`).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from harness.games import get_game
from harness.report.similarity import compare, given_code
from harness.report.similarity.ast_channel import canonical_units
from harness.report.similarity.code import fingerprint
from tests.conftest import REPO
from tests.report.copier import rewrite, splice
from tests.report.test_similarity import INDEPENDENT, OWN, REFERENCES, harness


def units(text: str) -> list[tuple[str, ...]]:
    return sorted(u.tokens for u in canonical_units(text))


ORIGINAL = '''
class Player:
    def __init__(self, name):
        self.name = name

    def count(self, board, row, col):
        found = 0
        for dr in (-1, 0, 1):
            for dc in (-1, 0, 1):
                if board[row + dr][col + dc] == '-':
                    found += 1
        return found

    def move(self, board):
        best, most = None, -1
        for row in range(len(board)):
            n = self.count(board, row, 0)
            if n > most:
                most = n
                best = (row, 0)
            else:
                most = most - 1
        return best
'''

# Each rewrite of the issue alone, by hand: the canonical form is the original's.
REWRITES = {
    "flipped comparison": ("if n > most:", "if most < n:"),
    "augmented assignment": ("found += 1", "found = found + 1"),
    "for as while": ("        for row in range(len(board)):\n            n = self.count(board, row, 0)\n",
                     "        row = 0\n        while row < len(board):\n            n = self.count(board, row, 0)\n"
                     "            row += 1\n"),
    "negated if/else": ("            if n > most:\n                most = n\n                best = (row, 0)\n"
                        "            else:\n                most = most - 1\n",
                        "            if not n > most:\n                most = most - 1\n            else:\n"
                        "                most = n\n                best = (row, 0)\n"),
    "statements reordered": ("                most = n\n                best = (row, 0)\n",
                             "                best = (row, 0)\n                most = n\n"),
    "dead code": ("        return found\n", "        return found\n        found = 0\n"),
    "if False": ("        found = 0\n", "        found = 0\n        if False:\n            print('never')\n"),
    "unused parameter": ("    def count(self, board, row, col):", "    def count(self, board, row, col, verbose):"),
}


@pytest.mark.parametrize("kind", sorted(REWRITES))
def test_each_rewrite_alone_leaves_the_canonical_tree_as_it_was(kind: str) -> None:
    old, new = REWRITES[kind]
    assert old in ORIGINAL
    changed = ORIGINAL.replace(old, new)
    if kind == "for as while":  # the loop body's last statement is the step: move it to the end
        changed = changed.replace("            row += 1\n", "").replace(
            "                most = most - 1\n", "                most = most - 1\n            row += 1\n")
    if kind == "unused parameter":
        changed = changed.replace("self.count(board, row, 0)", "self.count(board, row, 0, True)")
    assert changed != ORIGINAL
    assert units(changed) == units(ORIGINAL), kind


def test_a_method_moved_out_of_its_class_reads_the_same() -> None:
    moved = ORIGINAL.replace("    def count(self, board, row, col):", "    def unused_marker(self):\n        pass\n\n"
                                                                        "    def _gone(self):\n        pass\n\n"
                                                                        "def count(player, board, row, col):")
    # count is now a module function taking the object; its body is indented one level less
    head, body = moved.split("def count(player, board, row, col):\n")
    body_lines, rest = body.split("\n    def move", 1)
    moved = head.replace("    def unused_marker(self):\n        pass\n\n    def _gone(self):\n        pass\n\n", "") \
        + "    def move" + rest.replace("self.count(board, row, 0)", "count(self, board, row, 0)") \
        + "\n\ndef count(player, board, row, col):\n" + "\n".join(line[4:] for line in body_lines.splitlines()) + "\n"
    assert "class Player" in moved and "\ndef count(player" in moved and "count(self, board" in moved
    assert units(moved) == units(ORIGINAL)


def test_every_rewrite_at_once_is_flagged_where_the_tokens_alone_miss_it() -> None:
    """The test's own bots and the reference players of every game, each with a copy made by
    every rewrite at once: each copy flagged (by the tree channel), no other pair."""
    sources, given = {}, set()
    for name in REFERENCES:
        given |= given_code(get_game(name.split("/")[0]))
        sources[name] = [("player.py", (REPO / "reference_players" / name).read_bytes())]
    for name in INDEPENDENT:
        sources[name] = [("player.py", (OWN / f"{name}.py").read_bytes())]
    for name in list(sources):
        sources[name + "#copy"] = [("player.py", rewrite(sources[name][0][1].decode(), salt=f"s{len(name)}{name[0]}").encode())]
    result = compare(sources, given)
    flagged = {(p.a, p.b) for p in result.suspicious}
    assert flagged == {(n, n + "#copy") for n in REFERENCES + INDEPENDENT}
    copies = [p for p in result.pairs if p.suspicious]
    assert all(p.tree >= 0.6 for p in copies)
    assert sum(p.tokens < 0.6 for p in copies) >= 5  # what the token channel alone would have missed
    assert max(p.tree for p in result.pairs if not p.suspicious) < 0.35


def test_a_partial_copy_and_a_merge_count_by_containment() -> None:
    """A bot merged from two classmates' (greedy's helper and move, the first 30 % of strong's
    definitions) is flagged with both; a copy of 45 % of a bot whose rest is another's code is
    flagged with each. Containment: the share of the smaller found in the other."""
    greedy, fewest, centre = ((OWN / f"{n}.py").read_text() for n in ("greedy", "fewest", "centre"))
    strong = (REPO / "reference_players/blokovanie/strong.py").read_text()
    waller = (REPO / "reference_players/quoridor/waller.py").read_text()
    sources = {"greedy": greedy, "fewest": fewest, "centre": centre, "strong": strong, "waller": waller,
               "merge": rewrite(splice([(greedy, 1.0), (strong, 0.3)]), salt="m"),
               "partial": rewrite(splice([(waller, 0.45), (centre, 1.0)]), salt="p")}
    result = compare({n: [("player.py", t.encode())] for n, t in sources.items()}, given_code(get_game("blokovanie")))
    flagged = {(p.a, p.b) for p in result.suspicious}
    assert flagged == {("greedy", "merge"), ("merge", "strong"), ("partial", "waller"), ("centre", "partial")}
    pairs = {(p.a, p.b): p for p in result.pairs}
    assert 0.35 < pairs["merge", "strong"].tree < 0.9 and pairs["partial", "waller"].tree < 0.9  # partial, not whole


def test_fingerprints_are_the_same_in_every_process() -> None:
    """A worker or a child process (another PYTHONHASHSEED) fingerprints as the parent does."""
    source = (REPO / "reference_players/blokovanie/strong.py").read_bytes()
    here = fingerprint([("player.py", source)])
    script = ("import sys, json; from harness.report.similarity.code import fingerprint; "
              "p = fingerprint([('player.py', sys.stdin.buffer.read())]); "
              "print(json.dumps([sorted(p.where), sorted(p.tree)]))")
    for seed in ("1", "2"):
        done = subprocess.run([sys.executable, "-c", script], input=source, capture_output=True, timeout=120,
                              env={**os.environ, "PYTHONHASHSEED": seed, "PYTHONPATH": str(REPO)})
        assert done.returncode == 0, done.stderr
        assert json.loads(done.stdout) == [sorted(here.where), sorted(here.tree)]
    assert len(here.tree) > 100


def _job(root: Path, subs: dict[str, str], extra: str = "") -> None:
    for login, text in subs.items():
        (root / "subs" / login).mkdir(parents=True)
        (root / "subs" / login / "player.py").write_text(text)
    (root / "tournaments.yaml").write_text(
        "jobs:\n  rr:\n    game: blokovanie\n    format: round_robin\n    submissions: subs\n"
        "    reference: [reference_players/blokovanie/random.py]\n" + extra)


def test_a_solution_shared_by_seven_is_flagged_as_one_group(tmp_path: Path) -> None:
    """7 disguised copies of one bot among 20 students: every one of the 21 pairs flagged, one
    group of 7 reported (the idiom rule once made them all 0.00)."""
    subs = {f"indep_{n.replace('/', '_')}": (REPO / "reference_players" / n).read_text() for n in REFERENCES}
    subs |= {n: (OWN / f"{n}.py").read_text() for n in INDEPENDENT + ["mimic"]}
    filler = REPO / "bench/similarity_population/filler"
    subs["own_a"] = (filler / "own_a.py").read_text()
    subs |= {f"clique{i}": rewrite((filler / "own_b.py").read_text(), salt=f"s{i}") for i in range(7)}
    assert len(subs) == 20
    _job(tmp_path, subs)
    done = harness("similarity", "rr", "--format", "json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    rows = [r for r in json.loads(done.stdout) if not r["reference"]]
    clique = {(f"clique{i}", f"clique{j}") for i in range(7) for j in range(i + 1, 7)}
    flagged = {(r["a"], r["b"]) for r in rows if r["suspicious"]}
    assert flagged == clique
    assert {r["group"] for r in rows if (r["a"], r["b"]) in clique} == {1}
    assert "note: rr: group 1: 7 students share about" in done.stderr
    table = harness("similarity", "rr", cwd=tmp_path).stdout
    assert "group 1: 7 students share about" in table and " g1" in table


def test_a_copied_reference_player_is_a_suspicious_row_naming_it(tmp_path: Path) -> None:
    strong = (REPO / "reference_players/blokovanie/strong.py").read_text()
    _job(tmp_path, {"copier": strong.replace('"""BLOKOVANIE reference player "strong"', '"""My own bot'),
                    "greedy": (OWN / "greedy.py").read_text(), "scan": (OWN / "scan.py").read_text()})
    done = harness("similarity", "rr", "--format", "json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    rows = json.loads(done.stdout)
    copied = [r for r in rows if r["suspicious"]]
    assert len(copied) == 1 and copied[0]["a"] == "copier" and copied[0]["reference"] == "strong"
    assert copied[0]["b"] == "reference/strong" and copied[0]["code"] >= 0.95 and copied[0]["flagged_by"] == ["code"]
    assert "copier: copy of reference player `strong`, 1.00" in done.stderr
    table = harness("similarity", "rr", cwd=tmp_path).stdout
    assert "copier: copy of reference player `strong`" in table
    # The random player's seven lines are in every bot that lists the free cells: no copy of it.
    assert not any(r["suspicious"] for r in rows if r["reference"] == "random")


def test_long_logins_that_differ_at_the_end_stay_apart_in_80_columns(tmp_path: Path) -> None:
    greedy = (OWN / "greedy.py").read_text()
    logins = [f"student_of_the_winter_term_2026_{n}" for n in ("aa", "ab", "ba")]
    _job(tmp_path, {login: rewrite(greedy, salt=login[-2:]) for login in logins})
    out = harness("similarity", "rr", cwd=tmp_path).stdout.splitlines()
    assert all(len(row) <= 80 for row in out)
    rows = [row for row in out if row[:3].strip().isdigit()]
    pairs = [tuple(row.split()[1:3]) for row in rows[:3]]
    assert len(set(pairs)) == 3 and all(a[-2:] != b[-2:] for a, b in pairs)
    assert {a[-2:] for a, _ in pairs} | {b[-2:] for _, b in pairs} == {"aa", "ab", "ba"}
    # ordered by the score the table shows
    scores = [float(row.split()[3]) for row in rows]
    assert scores == sorted(scores, reverse=True)


def test_a_pair_page_shows_bidi_controls_in_code_escaped(tmp_path: Path) -> None:
    greedy = (OWN / "greedy.py").read_text()
    trojan = greedy.replace("        best = None\n", "        best = None  # \u202e}esle{ \u2066\n")
    _job(tmp_path, {"a": trojan, "b": rewrite(greedy, salt="b")})
    done = harness("similarity", "rr", "--out", "site", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    pages = list((tmp_path / "site/pairs").glob("*.html"))
    assert len(pages) == 1
    html = pages[0].read_text()
    assert "\u202e" not in html and "\u2066" not in html and "\\u202e}esle{ \\u2066" in html


def test_fingerprints_many_hold_count_as_the_pairwise_loop_counts(monkeypatch: pytest.MonkeyPatch) -> None:
    """Shared code is evidence however many hold it; the matrix count of widely held
    fingerprints equals the pair-by-pair count."""
    from harness.report.similarity import code

    base = (OWN / "greedy.py").read_text()
    prints = {f"s{i}": fingerprint([("player.py", rewrite(base, salt=f"w{i}").encode())]) for i in range(24)}
    prints["other"] = fingerprint([("player.py", (OWN / "scan.py").read_bytes())])
    for channel in ("where", "tree"):
        monkeypatch.setattr(code, "WIDE", 10**9)
        loop = code.compare_all(prints, set(), channel=channel)
        monkeypatch.setattr(code, "WIDE", 2)
        matrix = code.compare_all(prints, set(), channel=channel)
        assert loop == matrix and len(loop) >= 24 * 23 // 2


def test_check_names_a_copy_of_a_shipped_player(tmp_path: Path) -> None:
    """``harness check`` on a copy of the shipped ``max_block`` (its docstring changed) says so,
    in its text and in ``--json``'s notes; on a bot of its own it says nothing of the kind."""
    copied = (REPO / "reference_players/blokovanie/max_block.py").read_text().replace(
        'BLOKOVANIE reference player "max_block"', "My own Blokovanie bot")
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "player.py").write_text(copied)
    done = harness("check", "blokovanie", "mine", "--games", "1", cwd=tmp_path)
    assert "note: copy of reference player `max_block`, 1.00 of its own code" in done.stdout, done.stdout
    report = json.loads(harness("check", "blokovanie", "mine", "--games", "1", "--json", cwd=tmp_path).stdout)
    assert any("copy of reference player `max_block`" in n for n in report["notes"])
    (tmp_path / "own").mkdir()
    (tmp_path / "own" / "player.py").write_text((OWN / "fewest.py").read_text())
    done = harness("check", "blokovanie", "own", "--games", "1", cwd=tmp_path)
    assert "copy of reference player" not in done.stdout and "Static checks" in done.stdout


def test_a_file_built_to_break_the_parser_costs_a_note_not_a_crash() -> None:
    """A student's file is the adversary: a chain too deep for the parser, nesting the writer
    would recurse into, lambdas stacked past the recursion limit. Each gets its token
    fingerprints and a note; nothing raises."""
    deep = ("x = " + "+".join(["a"] * 29000) + "\n").encode()
    lambdas = ("f = " + "lambda: " * 500 + "0\n").encode()
    for data in (deep, lambdas):
        prints = fingerprint([("player.py", data)])
        assert not prints.parsed and "no syntax-tree fingerprints" in prints.notes[0] and not prints.tree
        assert prints.where  # the token channel still speaks for it


def test_the_held_out_benchmark_meets_the_issues_bar_on_one_draw() -> None:
    """``bench/bench_similarity_quality.py``'s first draw (20 independent bots, 12 disguised
    copies): at least 12 of the 13 true pairs flagged, at most 1 of the 483 others."""
    sys.path.insert(0, str(REPO / "bench"))
    try:
        from bench_similarity_quality import harness_scores, population
    finally:
        sys.path.remove(str(REPO / "bench"))
    bots, true, _how = population(1)
    scores, _cut = harness_scores(bots)
    assert len(scores) == 496 and len(true) == 13
    assert sum(1 for k in true if scores[k][1]) >= 12
    assert sum(1 for k, (_, flag) in scores.items() if flag and k not in true) <= 1
