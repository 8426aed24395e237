"""The job model: one validated job of ``tournaments.yaml``, as running and publishing use it.

:mod:`harness.config` reads the YAML into these; a :class:`Job` carries its game's
:class:`~harness.games.base.GameSpec` (looked up once) and names its format, whose module under
:mod:`harness.tournament.formats` says how the job is scheduled, ranked and described.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from collections.abc import Mapping
from typing import Any

from harness.games import get_game
from harness.games.base import GameSpec
from harness.sandbox.limits import Limits
from harness.submission import MAIN, ZIP
from harness.tournament.lateness import LatePolicy
from harness.tournament.clusterconf import ClusterSettings


@dataclass(frozen=True)
class Tier:
    """Points for players ranked at most ``rank``, or within the top ``top`` fraction."""

    points: float
    rank: int | None = None
    top: float | None = None


@dataclass(frozen=True)
class Awards:
    """How standings become points: ``pass_fail`` (gauntlets), ``tiers`` (by rank), ``none``."""

    policy: str = "none"
    points: float = 0.0  # pass_fail: points for a run without any error
    tiers: tuple[Tier, ...] = ()
    style: StyleDeduction | None = None  # points off for PEP 8 findings (``style:``), if the job sets it


@dataclass(frozen=True)
class StyleDeduction:
    """``awards: {style: {per_finding: P, cap: C}}``: P points off per PEP 8 finding, at most C."""

    per_finding: float
    cap: float


@dataclass(frozen=True)
class SimilaritySettings:
    """A job's ``similarity:`` keys: given code that is no evidence, and earlier years to compare with."""

    exclude: tuple[Path, ...] = ()  # files or folders of code every student was given
    archive: Path | None = None  # a folder of earlier submissions, one folder (or file) per login


@dataclass(frozen=True)
class SubmissionRef:
    """Where one student's submission is: a folder, a ``player.py``-style file or a ``.zip``."""

    login: str
    path: Path


@dataclass(frozen=True)
class Job:
    """One validated job of tournaments.yaml."""

    name: str
    game: str
    format: str  # a name of harness.tournament.formats (or the name of a game's battery)
    submissions: tuple[SubmissionRef, ...]  # one per login, sorted by login
    reference: tuple[Path, ...]
    opponent: Path | None
    settings: tuple[dict[str, Any], ...]  # normalised by the game
    games: int
    seed: int
    tournament: bool
    limits: Limits
    workers: int
    awards: Awards
    results: Path
    retries: int = 3
    config_file: Path = field(default=Path("tournaments.yaml"))
    description: str = ""
    roster: tuple[str, ...] | None = None  # every login of the course, if the job has a roster
    roster_file: Path | None = None  # the roster's file: the students' LMS identities (harness.roster)
    analysis: str | None = None
    public: bool = False
    tables: int | None = None  # round robin of more than two seats: sample this many tables per seed
    confidence: float = 0.95  # adaptive: the confidence at which a bot's award tier counts as settled
    budget: int | float | None = None  # adaptive: most games (int) or share of the round robin (float)
    similarity: SimilaritySettings = field(default_factory=SimilaritySettings)
    waive: Mapping[str, tuple[str, ...]] = field(default_factory=dict)  # login -> code rules not charged
    deadline: datetime | None = None  # ``deadline:`` (aware); attempts after it are charged (lateness.py)
    late: LatePolicy | None = None  # ``late: {per_day, max}``; None with a deadline: the deadline closes
    interpreter: str = ""  # the interpreter its bots run on ("": the harness's rule, harness.sandbox.interpreter)
    cluster: ClusterSettings = field(default_factory=ClusterSettings)  # the ``cluster:`` block

    @property
    def spec(self) -> GameSpec:
        """The job's game (the registry's: a job pickled to a worker carries only its name)."""
        return get_game(self.game)


def login_of(path: Path) -> str:
    """The login a submission path stands for: the folder of a ``player.py``/``player.zip``, else its name."""
    if path.is_dir():
        return path.name
    return path.parent.name if path.name in (MAIN, ZIP) else path.stem


__all__ = ["Awards", "Job", "SubmissionRef", "Tier", "login_of"]
