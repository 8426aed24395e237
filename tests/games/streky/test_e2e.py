"""Štreky end to end: real bot processes through the sandbox and the match runner.

* the reference players play full games with verdict ``ok`` (also through ``harness play``);
* RULES.md's rule cases, played by small scripted bots, score and fail exactly as the referee
  says in-process;
* each sample submission under ``submissions/streky/`` gets its pinned verdict and reason.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from typing import Any

import pytest

from harness.games import get_game
from harness.games.streky.cards import COURSE, as_lists
from harness.match import play_match
from harness.record import Verdict
from tests.conftest import REPO

GAME = get_game("streky")
REF = REPO / "reference_players" / "streky"
RANDOM = (REF / "random.py").read_bytes()
BRUTE = (REF / "brute.py").read_bytes()
STRONG = (REF / "strong.py").read_bytes()


def test_greedy_and_brute_play_the_default_game(no_leftovers: None) -> None:
    record = play_match(GAME, [BRUTE, RANDOM], seed=1, logins=["brute", "random"])
    assert [p.verdict for p in record.players] == [Verdict.OK, Verdict.OK]
    assert record.end == "rules" and record.plies == 16  # 7 cards each, then two passes
    assert record.moves[-1].answer is None and record.moves[-2].answer is None
    assert [p.bot_name for p in record.players] == ["brute", "random"]
    assert all(p.max_wall < 1.0 for p in record.players)


def test_harness_play_cli_reports_both_ok() -> None:
    done = subprocess.run([sys.executable, "-m", "harness", "play", "streky", str(REF / "brute.py"),
                           str(REF / "random.py"), "--seed", "1", "--json"],
                          cwd=REPO, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    record = json.loads(done.stdout)
    assert [p["verdict"] for p in record["players"]] == ["ok", "ok"]
    assert record["requested"] == {"rows": 19, "cols": 23, "cards": "course", "seed": None}
    # what was played: the course's seven cards, spelled out
    assert record["settings"] == {"rows": 19, "cols": 23, "cards": [as_lists(m) for m in COURSE], "seed": None}


def test_strong_and_greedy_play_the_tournament_setting_in_time(no_leftovers: None) -> None:
    record = play_match(GAME, [STRONG, BRUTE], settings={"cards": "tournament"}, seed=3, tournament=True)
    assert [p.verdict for p in record.players] == [Verdict.OK, Verdict.OK]
    assert record.plies >= 48 and max(p.max_wall for p in record.players) < 0.9  # limit: 1 s


# ---- rule cases through scripted bots -------------------------------------------------------
SCRIPTED = '''
import base

SCRIPT = {script!r}


def rotate(m):
    return [[m[r][len(m[0]) - 1 - c] for r in range(len(m))] for c in range(len(m[0]))]


class Player(base.BasePlayer):
    """Answers SCRIPT in order, then any legal placement (first found), else []."""

    def __init__(self, login, boardRows, boardCols, cardsAtHand):
        super().__init__(login, boardRows, boardCols, cardsAtHand)
        self.playerName = "scripted"
        self.taken = set()
        self.left = [c for c in cardsAtHand]
        self.n = 0

    def mark(self, answer):
        row, col, m = answer
        for r in range(len(m)):
            for c in range(len(m[0])):
                self.taken.add((row + r, col + c))

    def use(self, m):
        for i, card in enumerate(self.left):
            for _ in range(4):
                if card == m:
                    del self.left[i]
                    return
                card = rotate(card)

    def ok(self, row, col, m):
        cells = [(row + r, col + c) for r in range(len(m)) for c in range(len(m[0]))]
        if row < 0 or col < 0 or row + len(m) > self.boardRows or col + len(m[0]) > self.boardCols:
            return False
        if any(cell in self.taken for cell in cells):
            return False
        if not self.taken:
            return True
        return any((r + dr, c + dc) in self.taken for r, c in cells
                   for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)))

    def play(self, newCardOnDesk):
        if newCardOnDesk:
            self.mark(newCardOnDesk)
        if self.n < len(SCRIPT):
            answer = SCRIPT[self.n]
            self.n += 1
            if type(answer) is list and len(answer) == 3:
                self.mark(answer)
                self.use(answer[2])
            return answer
        for card in self.left:
            m = card
            for _ in range(4):
                for row in range(self.boardRows):
                    for col in range(self.boardCols):
                        if self.ok(row, col, m):
                            self.use(m)
                            self.mark([row, col, m])
                            return [row, col, m]
                m = rotate(m)
        return []
'''


def scripted(*answers: Any) -> bytes:
    return SCRIPTED.format(script=list(answers)).encode()


K = [[0, 1, 4, 0], [1, 1, 4, 4], [4, 4, 1, 1], [0, 4, 1, 0]]
K_TURNED = [[0, 4, 1, 0], [4, 4, 1, 1], [1, 1, 4, 4], [0, 1, 4, 0]]
T = [[1, 2, 1, 3, 4], [2, 2, 1, 3, 3], [3, 2, 1, 3, 2]]

# (rows, cols, cards, first player's script, second player's script, second move's points)
SCORING = [
    pytest.param(3, 3, [[[1, 1, 1]], [[1, 1]]], [[0, 0, [[1, 1, 1]]]], [[1, 0, [[1, 1]]]], 5, id="3x3 row"),
    pytest.param(3, 3, [[[1, 0, 1]], [[1, 1, 1]]], [[0, 0, [[1, 0, 1]]]], [[1, 0, [[1, 1, 1]]]], 5, id="3x3 merge"),
    pytest.param(3, 3, [[[1, 1, 1]], [[1, 2, 1]]], [[0, 0, [[1, 1, 1]]]], [[1, 0, [[1, 2, 1]]]], 5, id="3x3 once"),
    pytest.param(3, 3, [[[1, 2]], [[2, 1]]], [[0, 0, [[1, 2]]]], [[1, 0, [[2, 1]]]], 0, id="3x3 diagonal"),
    pytest.param(3, 3, [[[1, 0]], [[1]]], [[0, 0, [[1, 0]]]], [[0, 2, [[1]]]], 0, id="3x3 colour 0"),
    pytest.param(5, 5, [[[1]], [[1]]], [[2, 2, [[1]]]], [[2, 3, [[1]]]], 2, id="5x5 edge"),
    pytest.param(8, 12, [K], [[1, 3, K]], [[1, 7, K_TURNED]], 12, id="8x12 seed move 2"),
    pytest.param(10, 10, [T], [[0, 0, T]], [[3, 0, T]], 22, id="10x10 T below T"),
]


@pytest.mark.parametrize(("rows", "cols", "cards", "first", "second", "points"), SCORING)
def test_rule_cases_score_end_to_end(rows: int, cols: int, cards: list[Any], first: list[Any],
                                     second: list[Any], points: int, no_leftovers: None) -> None:
    record = play_match(GAME, [scripted(*first), scripted(*second)],
                        settings={"rows": rows, "cols": cols, "cards": cards}, seed=0)
    assert [p.verdict for p in record.players] == [Verdict.OK, Verdict.OK], [p.reason for p in record.players]
    assert record.moves[0].answer == first[0] and record.moves[1].answer == second[0]
    assert record.moves[1].score == (0.0, float(points))


C = [[1, 2, 0], [1, 1, 3]]
B = [[4, 1], [0, 2]]
SIX = {"rows": 7, "cols": 8, "cards": [C, C, B]}

# (the second player's answers after the first player's [2, 2, C], verdict, reason pattern)
FAILURES = [
    pytest.param([[0, 1, [[4, 1], [0, 2]]]], Verdict.OK, "", id="legal reference case"),
    pytest.param([[2, 4, B]], Verdict.ILLEGAL_MOVE, r"overlaps the card placed at ply 1 at cell \(2, 4\) "
                 r"\(a colour-0 cell", id="overlap on colour 0"),
    pytest.param([[4, 5, B]], Verdict.ILLEGAL_MOVE, r"only at a corner \(cell \(3, 4\)\)", id="corner only"),
    pytest.param([[5, 0, B]], Verdict.ILLEGAL_MOVE, "does not touch any placed card", id="no contact"),
    pytest.param([[6, 0, C]], Verdict.ILLEGAL_MOVE, r"does not fit on the 7x8 board", id="off the board"),
    pytest.param([[0, 2, [[1, 4], [2, 0]]]], Verdict.ILLEGAL_MOVE, "is a mirror image of your card #2", id="mirror"),
    pytest.param([[0, 2, B], [2, 5, B]], Verdict.ILLEGAL_MOVE, r"already played 1 time \(dealt 1 time\)",
                 id="card reused"),
    pytest.param([[]], Verdict.ILLEGAL_MOVE, r"passed \(\[\]\) although a legal placement exists", id="pass"),
    pytest.param([(0, 2, B)], Verdict.BAD_ANSWER, r"returned a tuple \(0, 2, \[\[4, 1\], \[0, 2\]\]\)", id="tuple"),
    pytest.param([[0.0, 2, B]], Verdict.BAD_ANSWER, r"row must be an int, got 0\.0 \(float\)", id="float row"),
    pytest.param([[0, True, B]], Verdict.BAD_ANSWER, r"col must be an int, got True \(bool\)", id="bool col"),
    pytest.param([[0, 2, [(4, 1), (0, 2)]]], Verdict.BAD_ANSWER, r"row 0 must be a list, got \(4, 1\)",
                 id="tuple rows"),
    pytest.param([None], Verdict.BAD_ANSWER, r"play\(\) returned None", id="None"),
]


@pytest.mark.parametrize(("answers", "verdict", "pattern"), FAILURES)
def test_rule_violations_end_to_end(answers: list[Any], verdict: Verdict, pattern: str, no_leftovers: None) -> None:
    first = scripted([2, 2, C], [4, 2, C])  # its second answer is legal after each first answer below
    record = play_match(GAME, [first, scripted(*answers)], settings=SIX, seed=0, logins=["first", "second"])
    me = record.players[1]
    assert record.players[0].verdict is Verdict.OK, record.players[0].reason
    assert me.verdict is verdict, me.reason
    assert re.search(pattern, me.reason), me.reason
    if verdict is not Verdict.OK:
        assert record.winner == 0 and record.end == "verdict"
        assert not record.moves[-1].accepted


# ---- the sample submissions ------------------------------------------------------------------
SUBMISSIONS: dict[str, tuple[Verdict, str]] = {
    "correct_student": (Verdict.OK, ""),
    "overlap": (Verdict.ILLEGAL_MOVE, r"overlaps the card placed at ply \d+ at cell"),
    "corner_touch": (Verdict.ILLEGAL_MOVE, r"only at a corner .*: it must share an edge"),
    "reused_card": (Verdict.ILLEGAL_MOVE, r"which you have already played 1 time \(dealt 1 time\)"),
    "mirrored_card": (Verdict.ILLEGAL_MOVE, r"is a mirror image of your card #1 .*not a rotation"),
    "early_pass": (Verdict.ILLEGAL_MOVE, r"passed \(\[\]\) although a legal placement exists"),
    "tuple_answer": (Verdict.BAD_ANSWER, r"returned a tuple .*not a tuple"),
    "non_ascii": (Verdict.FORBIDDEN, r"player\.py line \d+ column \d+: non-ASCII character"),
}


def test_every_sample_submission_is_pinned() -> None:
    found = {p.parent.name for p in (REPO / "submissions" / "streky").glob("*/player.py")}
    assert found == set(SUBMISSIONS)


@pytest.mark.parametrize(("login", "seat"), [(login, seat) for login in sorted(SUBMISSIONS) for seat in (0, 1)])
def test_sample_submission_gets_its_verdict(login: str, seat: int, no_leftovers: None) -> None:
    verdict, pattern = SUBMISSIONS[login]
    source = (REPO / "submissions" / "streky" / login / "player.py").read_bytes()
    sources = [source, RANDOM] if seat == 0 else [RANDOM, source]
    logins = [login, "random"] if seat == 0 else ["random", login]
    record = play_match(GAME, sources, seed=seat + 1, logins=logins)
    me, other = record.players[seat], record.players[1 - seat]
    assert (me.verdict, other.verdict) == (verdict, Verdict.OK), me.reason
    assert re.search(pattern, me.reason), me.reason
