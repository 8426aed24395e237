"""What a worker does with one game: play it, or say why the harness could not.

Kept apart from the executors (:mod:`harness.tournament.execute`) so that the formats
(:mod:`harness.tournament.formats`) name their work without importing the runner.
"""

from __future__ import annotations

import os
import socket
from collections.abc import Callable
from typing import Any

from harness.games import get_game
from harness.match import play_match
from harness.record import GameRecord, PlayerRecord, Verdict
from harness.sandbox import interpreter
from harness.sandbox.limits import Limits
from harness.tournament.schedule import Task

Work = Callable[[Any], dict[str, Any]]  # a task -> its result as JSON (picklable, small)


def play_task(task: Task) -> dict[str, Any]:
    """Play one task (in a worker) and return its GameRecord as JSON."""
    try:  # the job's interpreter, on this machine (a cluster's worker may lack it: no bot is charged)
        interpreter.use(task.interpreter or None)
    except interpreter.InterpreterError as exc:
        return fault_record(task, f"cannot run the bots on the job's interpreter here: {exc}").to_json()
    game = get_game(task.game)
    record = play_match(game, [e.submission for e in task.entrants], settings=task.settings, seed=task.seed,
                        logins=[e.login for e in task.entrants], limits=Limits(**task.limits),
                        tournament=task.tournament)
    record.host = f"{socket.gethostname()}:{os.getpid()}"
    return record.to_json()


def fault_record(task: Task, reason: str) -> GameRecord:
    """The record of a game the harness failed to play (charged to no one)."""
    players = [PlayerRecord(e.login, e.sha256, Verdict.HARNESS_ERROR, reason) for e in task.entrants]
    return GameRecord(game=task.game, settings=task.settings, seed=task.seed, players=players,
                      end="harness error")


__all__ = ["Work", "fault_record", "play_task"]
