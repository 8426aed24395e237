"""Which games a job plays: pure functions of the job and the entrants' sources.

A game is identified by its key: a hash of (game, settings, seed, the seated entrants' logins
and sha256, the tournament flag and the limits). The same key is never played twice; a daily run
replays exactly the games whose key is new, i.e. whose submissions changed.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass
from functools import cached_property
from itertools import combinations
from pathlib import Path
from typing import Any

from harness.config import Job
from harness.match import sha256


@dataclass(frozen=True)
class Entrant:
    """A bot taking part in a job."""

    login: str
    path: str
    source: bytes
    reference: bool = False  # a reference player: ranked, but never awarded points

    @cached_property  # asked for once per game of the schedule
    def sha256(self) -> str:
        return sha256(self.source)


@dataclass(frozen=True)
class Task:
    """One game to play; self-contained (sources included) so any worker can play it."""

    key: str
    job: str
    game: str
    settings: dict[str, Any]
    seed: int
    entrants: tuple[Entrant, ...]  # in seat order
    tournament: bool
    limits: dict[str, Any]
    settings_index: int = 0  # which of the job's settings sets the game uses


def load_entrants(job: Job) -> tuple[list[Entrant], Entrant | None]:
    """The job's entrants (submissions, then reference players) and the gauntlet opponent."""
    def entrant(path: Path, reference: bool) -> Entrant:
        login = path.parent.name if path.name == "player.py" else path.stem
        return Entrant(login, str(path), path.read_bytes(), reference)

    entrants = [entrant(p, False) for p in job.submissions] + [entrant(p, True) for p in job.reference]
    seen: dict[str, Entrant] = {}
    for e in entrants:
        if e.login in seen:
            raise ValueError(f"{job.config_file}: jobs.{job.name}: two bots are named {e.login!r} "
                             f"({seen[e.login].path} and {e.path})")
        seen[e.login] = e
    opponent = entrant(job.opponent, True) if job.opponent is not None else None
    return entrants, opponent


def game_key(game: str, settings: dict[str, Any], seed: int, seats: list[tuple[str, str]], tournament: bool,
             limits: dict[str, Any]) -> str:
    """The identity of a game (what resume and reuse compare): ``seats`` are (login, sha256).

    The login is part of it: two students who submit the same file still play their own games.
    """
    blob = json.dumps([game, settings, seed, seats, tournament, limits], sort_keys=True)
    return hashlib.sha256(blob.encode()).hexdigest()[:32]


def make_tasks(job: Job, entrants: list[Entrant], opponent: Entrant | None) -> list[Task]:
    """Every game of the job, in a deterministic order.

    * gauntlet: each non-reference entrant plays ``games`` seeded games per settings set
      against the opponent, alternating seats (the bot moves first in even games);
    * round robin: every pair plays ``games`` seeds per settings set in both seatings, the
      two seatings of a seed on the same start position.
    """
    limits = asdict(job.limits)
    tasks: list[Task] = []

    def add(seated: tuple[Entrant, ...], settings: dict[str, Any], seed: int, index: int) -> None:
        key = game_key(job.game, settings, seed, [(e.login, e.sha256) for e in seated], job.tournament, limits)
        tasks.append(Task(key, job.name, job.game, settings, seed, seated, job.tournament, limits, index))

    for rnd, settings in enumerate(job.settings):
        for k in range(job.games):
            seed = job.seed + rnd * 100_000 + k
            if job.format == "gauntlet":
                assert opponent is not None  # config validation guarantees it for gauntlets
                for e in entrants:
                    if not e.reference:
                        add((e, opponent) if k % 2 == 0 else (opponent, e), settings, seed, rnd)
            else:
                for a, b in combinations(entrants, 2):
                    add((a, b), settings, seed, rnd)
                    add((b, a), settings, seed, rnd)
    return tasks
