"""``harness check`` plays its games on a pool of processes: the results come in the job's order,
a progress hook hears of every game as it ends, and the Štreky grading job is the course's size."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from harness.pregrade import play_games
from harness.games import get_game
from harness.record import GameRecord, Verdict
from tests.check.test_check_cli import check
from tests.conftest import REPO

HERE = Path(__file__).resolve().parent
PRIEM = get_game("priemspel")
REFERENCES = [REPO / "reference_players/priemspel/basis.py", REPO / "reference_players/priemspel/strategie.py"]


def test_practice_games_run_on_the_pool_in_order_and_report_progress(no_leftovers: None) -> None:
    heard: list[tuple[int, int, GameRecord]] = []
    results = list(play_games(PRIEM, (HERE / "bots/good.py").read_bytes(), login="me", references=REFERENCES,
                              games=3, seed=5, settings={"start": 0, "N": 5}, workers=2,
                              on_game=lambda done, total, record: heard.append((done, total, record))))
    assert [r.number for r in results] == [1, 2, 3, 4, 5, 6]  # the order the games were listed in
    assert [r.opponent for r in results] == ["basis"] * 3 + ["strategie"] * 3
    assert [r.seat for r in results] == [0, 1, 0, 0, 1, 0]
    assert [r.record.seed for r in results] == [5, 5, 6, 5, 5, 6]
    assert all(r.verdict is Verdict.OK for r in results)
    for r in results:
        assert r.record.players[r.seat].login == "me" and r.record.players[1 - r.seat].login == r.opponent
    # the hook: once per game, as each ended, with the running count and the total
    assert [(done, total) for done, total, _ in heard] == [(n, 6) for n in range(1, 7)]
    assert {(r.record.seed, r.seat, r.opponent) for r in results} == {
        (rec.seed, next(i for i, p in enumerate(rec.players) if p.login == "me"),
         next(p.login for p in rec.players if p.login != "me")) for _, _, rec in heard}
    # played by the pool's worker processes, not by this one
    assert all(r.record.host and not r.record.host.endswith(f":{os.getpid()}") for r in results)


def test_a_failing_practice_game_is_reported_in_its_place(no_leftovers: None) -> None:
    results = list(play_games(PRIEM, (HERE / "bots/illegal_step.py").read_bytes(), login="me",
                              references=REFERENCES[:1], games=2, settings={"start": 0, "N": 5}, workers=2))
    assert [(r.number, r.seat) for r in results] == [(1, 0), (2, 1)]
    # seat 0 reaches square 3 and steps onto 6; from seat 1 it never stands on 3
    assert [r.verdict for r in results] == [Verdict.ILLEGAL_MOVE, Verdict.OK]
    assert results[0].reason == "square 6 (= 3 + 3) is not prime"


@pytest.mark.slow
def test_the_course_s_brute_passes_the_streky_grading_job_with_over_800_own_moves(tmp_path: Path) -> None:
    run = check("streky", str(REPO / "reference_players/streky/brute.py"), "--json", cwd=tmp_path)
    report = json.loads(run.stdout)
    assert run.returncode == 0 and report["passed"] is True, report["first_error"]
    assert report["job"]["name"] == "streky-grading" and report["job"]["games"] == len(report["games"]) == 64
    assert report["own_moves"] == sum(g["own_moves"] for g in report["games"]) >= 800
    assert all(g["verdict"] == "ok" for g in report["games"])


def test_a_game_the_harness_fails_is_retried_then_reported_once_in_its_place(no_leftovers: None) -> None:
    """A task the harness cannot play (here: a game that is not installed) is played again up to
    ``retries`` times and then reported once, as harness_error, between the games around it."""
    import dataclasses

    from harness.pregrade import play_grading
    from harness.sandbox.process import Limits
    from harness.submission import Submission
    from harness.tournament.schedule import Entrant, Task

    good = (HERE / "bots/good.py").read_bytes()
    ref = REFERENCES[0].read_bytes()
    seated = (Entrant("me", "", Submission.of(good)), Entrant("basis", "", Submission.of(ref)))
    limits = dataclasses.asdict(Limits().with_game(PRIEM))
    tasks = [Task(f"t{i}", "practice", "priemspel", {"start": 0, "N": 5}, i, seated, False, limits) for i in range(3)]
    tasks[1] = dataclasses.replace(tasks[1], game="no-such-game")
    heard: list[int] = []
    played = list(play_grading(tasks, 2, lambda done, total, record: heard.append(done), retries=2))
    assert [n for n, _, _ in played] == [1, 2, 3] and heard == [1, 2, 3]
    verdicts = [[p.verdict for p in record.players] for _, _, record in played]
    assert verdicts == [[Verdict.OK] * 2, [Verdict.HARNESS_ERROR] * 2, [Verdict.OK] * 2]
    assert "no-such-game" in played[1][2].players[0].reason
