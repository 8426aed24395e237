"""``tournaments.yaml``: named jobs, validated into typed settings with one-line errors.

Every mistake is reported as ``FILE: jobs.NAME.KEY: problem`` so an instructor can fix it
without reading a traceback. Paths in the file are relative to the file's own folder; a path
``reference_players/<game>/<bot>.py`` that is not there is the installed harness's own.

Jobs are validated one by one: a mistake in one job (a submissions folder that does not exist
yet, say) makes that job (and the groups that contain it) unusable, not the whole file. Only a
file that cannot be read as a whole is refused outright. ``harness validate`` lists everything.

A job::

    jobs:
      streky-grading:
        description: ...            # shown on the job's report
        game: streky
        format: gauntlet          # gauntlet | round_robin | adaptive | shuffled | battery (sembasic: Quoridor's)
        submissions: submissions/streky     # a folder of <login>/ folders, or a list of globs
        roster: students.csv      # optional: every login of the course (a row for each)
        reference: [strong]       # reference bots taking part (a bare name: the game's own)
        opponent: brute           # gauntlet only
        settings: [{rows: 19, cols: 23}]  # one or more raw game settings (a mapping or a list)
        games: 10                 # seeds per pairing and settings (gauntlet: per submission)
        seed: 1                   # first seed
        tournament: false         # what bots see in `tournament` (Štreky)
        bot_packages: [numpy]     # installed packages the bots may import (besides the game's)
        limits: {init: 1.0, move: 1.0, memory_mb: 1024, policy: cpu, backstop: 1.5}
        workers: auto             # parallel games (auto: one per core)
        awards: {policy: pass_fail, points: 5}
        analysis: seats           # round robin: first- vs second-player wins per pairing and size
        tables: 200               # round robin of 3+ seats: a seeded sample of tables per seed
        confidence: 0.95          # adaptive: stop once every award tier is settled at this confidence
        budget: 35%               # adaptive: at most this many games (or this share of the round robin)
        public: false             # true: `harness report` leaves out every bot's output
        results: results/streky-grading    # where the store lives

A job may instead list other jobs to run one after another: ``demo: {jobs: [a, b]}``.
"""

from __future__ import annotations

import glob
import os
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import yaml

from harness.games import UnknownGame, game_names, get_game
from harness.games.base import GameSpec, SettingsError, is_bare_name
from harness.roster import RosterError, read_roster
from harness.sandbox.limits import Limits
from harness.sandbox.packages import PackageError, approve
from harness.submission import MAIN, ZIP

FORMATS = ("gauntlet", "round_robin", "adaptive", "shuffled", "battery", "sembasic")
# Formats that run the game's grading battery instead of games: the generic name, and the names
# of the batteries games declare (``sembasic`` is Quoridor's).
BATTERY_FORMATS = ("battery", "sembasic")
POLICIES = ("pass_fail", "tiers", "none")
ANALYSES = ("seats",)


class ConfigError(ValueError):
    """A problem in tournaments.yaml; the message is one line naming the file and key path."""


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
    format: str
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

    @property
    def spec(self) -> GameSpec:
        return get_game(self.game)

    @property
    def is_battery(self) -> bool:
        """True when the job grades with the game's battery (``format: battery`` or ``sembasic``)."""
        return self.format in BATTERY_FORMATS


@dataclass(frozen=True)
class Config:
    """All jobs of a file; ``groups`` maps a group job to the jobs it runs; ``problems`` holds the
    one-line error of every job (or group) that could not be read."""

    path: Path
    jobs: dict[str, Job]
    groups: dict[str, tuple[str, ...]]
    problems: dict[str, str] = field(default_factory=dict)

    @property
    def names(self) -> list[str]:
        return sorted({*self.jobs, *self.groups, *self.problems})

    def members(self, name: str) -> tuple[str, ...]:
        """The jobs ``name`` runs: itself, or a group's members."""
        self._known(name)
        return self.groups.get(name, (name,))

    def _known(self, name: str) -> None:
        if name not in self.jobs and name not in self.groups and name not in self.problems:
            raise ConfigError(f"{self.path}: no job named {name!r} (jobs: {', '.join(self.names)})")

    def plan(self, name: str) -> tuple[list[Job], list[str]]:
        """The usable jobs ``harness run NAME`` runs, in order, and the errors of the others."""
        self._known(name)
        if name in self.problems:
            return [], [self.problems[name]]
        jobs, errors = [], []
        for member in self.members(name):
            if member in self.jobs:
                jobs.append(self.jobs[member])
            else:
                errors.append(self.problems.get(member, f"{self.path}: jobs.{name}.jobs: no job named {member!r}"))
        return jobs, errors

    def resolve(self, name: str) -> list[Job]:
        """The jobs of ``name``; :class:`ConfigError` (the first problem) if any cannot be used."""
        jobs, errors = self.plan(name)
        if errors:
            raise ConfigError(errors[0])
        return jobs

    def unrelated_problems(self, name: str) -> list[str]:
        """Problems of jobs that ``name`` does not run (warnings when it runs)."""
        mine = {name, *self.members(name)}
        return [p for n, p in sorted(self.problems.items()) if n not in mine]

    def grading_job(self, game: str) -> Job | None:
        """The job that grades ``game``: ``<game>-grading`` if there is one, else its first gauntlet."""
        named = self.jobs.get(f"{game}-grading")
        if named is not None and named.game == game:
            return named
        return next((j for j in self.jobs.values() if j.game == game and j.format == "gauntlet"), None)


class _Reader:
    """Reads one job's mapping, raising ConfigError with the full key path."""

    def __init__(self, path: Path, where: str, data: Mapping[str, Any]) -> None:
        self.path, self.where, self.data = path, where, data

    def fail(self, key: str, problem: str) -> ConfigError:
        return ConfigError(f"{self.path}: {self.where}.{key}: {problem}")

    def get(self, key: str, default: Any = ...) -> Any:
        if key not in self.data:
            if default is ...:
                raise ConfigError(f"{self.path}: {self.where}: missing key {key!r}")
            return default
        return self.data[key]

    def integer(self, key: str, default: Any = ..., minimum: int = 0) -> int:
        value = self.get(key, default)
        if type(value) is not int or value < minimum:
            raise self.fail(key, f"must be an integer >= {minimum}, got {value!r}")
        return value

    def number(self, key: str, value: Any, minimum: float = 0.0, inclusive: bool = False) -> float:
        if type(value) not in (int, float) or value < minimum or (value == minimum and not inclusive):
            raise self.fail(key, f"must be a number {'>=' if inclusive else '>'} {minimum:g}, got {value!r}")
        return float(value)

    def boolean(self, key: str, default: bool) -> bool:
        value = self.get(key, default)
        if type(value) is not bool:
            raise self.fail(key, f"must be true or false, got {value!r}")
        return value

    def choice(self, key: str, choices: tuple[str, ...], default: Any = ...) -> str:
        value = self.get(key, default)
        if value not in choices:
            raise self.fail(key, f"must be one of {', '.join(choices)}, got {value!r}")
        return str(value)

    def file(self, key: str, text: Any, game: GameSpec | None = None) -> Path:
        if not isinstance(text, str):
            raise self.fail(key, f"must be a path, got {text!r}")
        path = locate(self.path.parent, text)
        if not path.exists() and game is not None and is_bare_name(text):
            try:  # a bare name that is no path names the game's shipped reference player
                return game.reference_player(text)
            except LookupError as exc:
                raise self.fail(key, str(exc)) from None
        if not path.exists():
            raise self.fail(key, f"no such file: {text}")
        return path


def locate(base: Path, text: str) -> Path:
    """``text`` relative to ``base``; the installed harness's own reference players as a fallback."""
    path = (base / text).resolve()
    if not path.exists() and Path(text).parts[:1] == ("reference_players",):
        import reference_players

        shipped = Path(reference_players.__file__).resolve().parent.joinpath(*Path(text).parts[1:])
        if shipped.exists():
            return shipped
    return path


KNOWN_KEYS = {"game", "format", "submissions", "reference", "opponent", "settings", "games", "seed",
              "tournament", "limits", "workers", "awards", "results", "retries", "description", "roster",
              "bot_packages", "analysis", "public", "tables", "confidence", "budget"}


def load_config(path: str | os.PathLike[str]) -> Config:
    """Read a tournaments.yaml; :class:`ConfigError` (one line) if the file as a whole is unusable.

    A problem of one job is kept in ``Config.problems`` under its name (and a group with a
    member that is not a job under the group's); the other jobs stay usable.
    """
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read ({exc.strerror})") from None
    except UnicodeDecodeError:
        raise ConfigError(f"{path}: not UTF-8 text") from None
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        at = f" at line {mark.line + 1}, column {mark.column + 1}" if mark is not None else ""
        raise ConfigError(f"{path}: not valid YAML{at}: {getattr(exc, 'problem', None) or exc}") from None
    if not isinstance(data, dict) or not isinstance(data.get("jobs"), dict) or not data["jobs"]:
        raise ConfigError(f"{path}: expected a mapping with a non-empty 'jobs' mapping at the top")
    unknown_top = set(data) - {"jobs", "defaults"}
    if unknown_top:
        raise ConfigError(f"{path}: unknown top-level key {sorted(unknown_top)[0]!r} (known: jobs, defaults)")
    defaults = data.get("defaults") or {}
    if not isinstance(defaults, dict):
        raise ConfigError(f"{path}: defaults: must be a mapping")
    jobs: dict[str, Job] = {}
    groups: dict[str, tuple[str, ...]] = {}
    problems: dict[str, str] = {}
    for name, body in data["jobs"].items():
        name = str(name)
        where = f"jobs.{name}"
        if not isinstance(body, dict):
            problems[name] = f"{path}: {where}: must be a mapping"
        elif "jobs" in body:
            members = body["jobs"]
            if not isinstance(members, list) or not members or not all(isinstance(m, str) for m in members):
                problems[name] = f"{path}: {where}.jobs: must be a non-empty list of job names"
            else:
                groups[name] = tuple(members)
        else:
            try:
                jobs[name] = _job(path, name, {**defaults, **body})
            except ConfigError as exc:
                problems[name] = str(exc)
    for name, members in groups.items():
        for member in members:
            if member not in jobs and member not in problems:
                problems[name] = f"{path}: jobs.{name}.jobs: no job named {member!r}"
            elif member in groups:
                problems[name] = f"{path}: jobs.{name}.jobs: {member!r} is a group (groups do not nest)"
    for name in problems:
        groups.pop(name, None)
    return Config(path=path.resolve(), jobs=jobs, groups=groups, problems=problems)


def _job(path: Path, name: str, body: dict[str, Any]) -> Job:
    r = _Reader(path, f"jobs.{name}", body)
    unknown = set(body) - KNOWN_KEYS
    if unknown:
        raise r.fail(sorted(unknown)[0], f"unknown key (known: {', '.join(sorted(KNOWN_KEYS))})")
    game_name = r.get("game")
    try:
        game = get_game(str(game_name).lower())
    except UnknownGame:
        raise r.fail("game", f"unknown game {game_name!r} (installed: {', '.join(game_names())})") from None
    fmt = r.choice("format", FORMATS)
    submissions = _submissions(r, r.get("submissions", []))
    reference_raw = r.get("reference", [])
    if not isinstance(reference_raw, list):
        raise r.fail("reference", "must be a list of bot files")
    reference = tuple(r.file(f"reference[{i}]", p, game) for i, p in enumerate(reference_raw))
    opponent = None
    if fmt == "gauntlet":
        opponent = r.file("opponent", r.get("opponent"), game)
    elif "opponent" in body:
        raise r.fail("opponent", "only a gauntlet has an opponent")
    if fmt in BATTERY_FORMATS:
        if game.battery is None:
            raise r.fail("format", f"{game.title} declares no grading battery for format {fmt}")
        if fmt != "battery" and fmt != game.battery.name:
            raise r.fail("format", f"{fmt} is not {game.title}'s grading battery (its battery: {game.battery.name})")
    needed = {"gauntlet": 0, "round_robin": game.players, "adaptive": game.players,
              "shuffled": game.players}.get(fmt, 0)
    if fmt == "adaptive" and game.players != 2:
        raise r.fail("format", f"adaptive schedules two-player games; {game.title} seats {game.players}")
    if len(submissions) + len(reference) < needed:
        raise r.fail("submissions", "too few bots for this format (found "
                     f"{len(submissions)} submissions and {len(reference)} reference players; "
                     f"{game.title} needs {needed})")
    raw_settings = r.get("settings", [{}])
    if isinstance(raw_settings, dict):
        raw_settings = [raw_settings]
    if not isinstance(raw_settings, list) or not raw_settings:
        raise r.fail("settings", "must be a mapping or a non-empty list of mappings")
    settings = []
    for i, raw in enumerate(raw_settings):
        if not isinstance(raw, dict):
            raise r.fail(f"settings[{i}]", "must be a mapping of game settings")
        try:
            settings.append(game.rules.parse_settings(dict(raw)))
        except SettingsError as exc:
            raise r.fail(f"settings[{i}]", str(exc)) from None
    workers_raw = r.get("workers", "auto")
    if workers_raw == "auto":
        workers = max(1, os.cpu_count() or 1)
    elif type(workers_raw) is int and workers_raw >= 1:
        workers = workers_raw
    else:
        raise r.fail("workers", f"must be 'auto' or a positive integer, got {workers_raw!r}")
    tournament = r.boolean("tournament", fmt in ("round_robin", "adaptive"))
    results_raw = r.get("results", f"results/{name}")
    if not isinstance(results_raw, str):
        raise r.fail("results", f"must be a folder path, got {results_raw!r}")
    description = r.get("description", "")
    if not isinstance(description, str):
        raise r.fail("description", f"must be text, got {description!r}")
    roster, roster_file = _roster(r)
    analysis = r.get("analysis", None)
    if analysis is not None and (analysis not in ANALYSES or fmt != "round_robin"):
        raise r.fail("analysis", f"must be one of {', '.join(ANALYSES)} (for a round_robin), got {analysis!r}")
    return Job(name=name, game=game.name, format=fmt, submissions=submissions, reference=reference,
               opponent=opponent, settings=tuple(settings), games=r.integer("games", 2, minimum=1),
               seed=r.integer("seed", 1), tournament=tournament, limits=_limits(r, game),
               workers=workers, awards=_awards(r, fmt), results=(path.parent / results_raw).resolve(),
               retries=r.integer("retries", 3), config_file=path.resolve(), description=description.strip(),
               roster=roster, roster_file=roster_file, analysis=analysis, public=r.boolean("public", False),
               tables=r.integer("tables", minimum=1) if "tables" in body else None,
               **_adaptive(r, fmt, body))


def _share(text: str) -> float | None:
    """``"35%"`` -> 0.35; ``None`` for anything else."""
    try:
        return float(text.strip().removesuffix("%")) / 100 if text.strip().endswith("%") else None
    except ValueError:
        return None


def _adaptive(r: _Reader, fmt: str, body: dict[str, Any]) -> dict[str, Any]:
    """An adaptive job's ``confidence`` (a fraction or a percentage) and ``budget`` (games or a share)."""
    for key in ("confidence", "budget"):
        if key in body and fmt != "adaptive":
            raise r.fail(key, "only an adaptive job has one")
    if fmt != "adaptive":
        return {}
    raw = body.get("confidence", 0.95)
    confidence = _share(raw) if isinstance(raw, str) else raw if type(raw) in (int, float) else None
    if confidence is None or not 0.5 <= confidence < 1:
        raise r.fail("confidence", f"must be a fraction in [0.5, 1) or a percentage such as 95%, got {raw!r}")
    raw = body.get("budget")
    budget: int | float | None = None
    if raw is not None:
        budget = _share(raw) if isinstance(raw, str) else raw if type(raw) in (int, float) else None
        if budget is None or budget <= 0 or (isinstance(budget, float) and budget > 1):
            raise r.fail("budget", f"must be a number of games or a share of the round robin such as 35%, got {raw!r}")
    return {"confidence": float(confidence), "budget": budget}


def login_of(path: Path) -> str:
    """The login a submission path stands for: the folder of a ``player.py``/``player.zip``, else its name."""
    if path.is_dir():
        return path.name
    return path.parent.name if path.name in (MAIN, ZIP) else path.stem


def _submissions(r: _Reader, raw: Any) -> tuple[SubmissionRef, ...]:
    """A folder of ``<login>/`` folders (each one submission, usable or not), or a list of globs."""
    patterns = [raw] if isinstance(raw, str) else raw
    if not isinstance(patterns, list) or not all(isinstance(p, str) for p in patterns):
        raise r.fail("submissions", "must be a folder or a list of glob patterns")
    found: set[Path] = set()
    for pattern in patterns:
        base = r.path.parent / pattern
        if base.is_dir():
            found.update(p.resolve() for p in base.iterdir()
                         if p.is_dir() and not p.name.startswith((".", "_")))
            continue
        if not glob.has_magic(pattern):
            raise r.fail("submissions", f"no such folder: {pattern}")
        matches = [Path(m).resolve() for m in glob.glob(str(base), recursive=True)]
        if not matches:
            raise r.fail("submissions", f"{pattern!r} matches nothing")
        found.update(m for m in matches if m.is_dir() or m.suffix.lower() in (".py", ".zip"))
    logins: dict[str, Path] = {}
    for p in sorted(found):
        login = login_of(p)
        if login in logins:
            raise r.fail("submissions", f"two submissions for login {login!r}: {logins[login]} and {p}")
        logins[login] = p
    return tuple(SubmissionRef(login, logins[login]) for login in sorted(logins))


def _roster(r: _Reader) -> tuple[tuple[str, ...] | None, Path | None]:
    """The logins of ``roster:`` and its file (see :mod:`harness.roster`: one login per line, or a
    CSV file with a ``login`` column and the LMS's identity columns)."""
    raw = r.get("roster", None)
    if raw is None:
        return None, None
    path = r.file("roster", raw)
    try:
        people = read_roster(path)
    except RosterError as exc:
        raise r.fail("roster", f"{raw} {exc}") from None
    return tuple(p.login for p in people), path


def _packages(r: _Reader, game: GameSpec) -> tuple[str, ...]:
    raw = r.get("bot_packages", [])
    if not isinstance(raw, list) or not all(isinstance(p, str) for p in raw):
        raise r.fail("bot_packages", f"must be a list of import names (e.g. [numpy]), got {raw!r}")
    for i, name in enumerate(raw):
        try:
            approve(name, game.forbidden_imports, game.title)
        except PackageError as exc:
            raise r.fail(f"bot_packages[{i}]", str(exc)) from None
    return tuple(sorted(set(raw)))


def _limits(r: _Reader, game: GameSpec) -> Limits:
    """The job's limits: the game's call limits, judged by CPU time unless the job says ``wall``.

    Jobs default to the ``cpu`` policy (with a wall-clock backstop of 1.5x): a daily tournament
    on a shared machine must not cost a bot its game because the machine was busy, and a bot
    that sleeps is still stopped soon after the limit. ``policy: wall`` is the course's literal
    rule, for a run on a quiet machine (the self-check verifies it is).
    """
    raw = r.get("limits", {})
    if not isinstance(raw, dict):
        raise r.fail("limits", "must be a mapping")
    known = {"init", "move", "load", "memory_mb", "policy", "backstop", "isolation"}
    unknown = set(raw) - known
    if unknown:
        raise r.fail(f"limits.{sorted(unknown)[0]}", f"unknown limit (known: {', '.join(sorted(known))})")
    limits = Limits.default(game, packages=_packages(r, game))
    values: dict[str, Any] = {}
    for key in ("init", "move", "load"):
        if key in raw:
            values[key] = r.number(f"limits.{key}", raw[key])
    if "memory_mb" in raw:
        values["memory_bytes"] = int(r.number("limits.memory_mb", raw["memory_mb"], minimum=16) * (1 << 20))
    if "backstop" in raw:
        values["backstop"] = r.number("limits.backstop", raw["backstop"], minimum=1, inclusive=True)
    for key, choices in (("policy", ("wall", "cpu")), ("isolation", ("auto", "bwrap", "plain"))):
        if key in raw:
            if raw[key] not in choices:
                raise r.fail(f"limits.{key}", f"must be {' or '.join(choices)}, got {raw[key]!r}")
            values[key] = raw[key]
    return replace(limits, **values)


def _awards(r: _Reader, fmt: str) -> Awards:
    raw = r.get("awards", {"policy": "none"})
    if not isinstance(raw, dict):
        raise r.fail("awards", "must be a mapping with a policy")
    sub = _Reader(r.path, f"{r.where}.awards", raw)
    policy = sub.choice("policy", POLICIES)
    if policy == "pass_fail":
        return Awards(policy, points=sub.number("points", sub.get("points")))
    if policy == "none":
        return Awards(policy)
    tiers_raw = sub.get("tiers")
    if not isinstance(tiers_raw, list) or not tiers_raw:
        raise sub.fail("tiers", "must be a non-empty list of {rank: N, points: P} or {top: F, points: P}")
    tiers = []
    for i, t in enumerate(tiers_raw):
        tr = _Reader(r.path, f"{r.where}.awards.tiers[{i}]", t if isinstance(t, dict) else {})
        if not isinstance(t, dict) or ("rank" in t) == ("top" in t):
            raise sub.fail(f"tiers[{i}]", "must have exactly one of rank or top, and points")
        points = tr.number("points", tr.get("points"), minimum=-1e9)
        if "rank" in t:
            tiers.append(Tier(points, rank=tr.integer("rank", minimum=1)))
        else:
            top = t["top"]
            if type(top) not in (int, float) or not 0 < top <= 1:
                raise tr.fail("top", f"must be a fraction in (0, 1], got {top!r}")
            tiers.append(Tier(points, top=float(top)))
    return Awards(policy, tiers=tuple(tiers))


__all__ = ["Awards", "Config", "ConfigError", "Job", "SubmissionRef", "Tier", "load_config", "locate", "login_of"]
