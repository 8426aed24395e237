"""``tournaments.yaml``: named jobs, validated into typed settings with one-line errors.

Every mistake is reported as ``FILE: jobs.NAME.KEY: problem`` so an instructor can fix it
without reading a traceback. Paths in the file are relative to the file's own folder.

A job::

    jobs:
      streky-grading:
        game: streky
        format: gauntlet          # gauntlet (each submission vs `opponent`) or round_robin
        submissions: submissions/streky     # a folder of <login>/player.py, or a list of globs
        reference: [reference_players/streky/greedy.py]   # reference bots taking part
        opponent: reference_players/streky/brute.py       # gauntlet only
        settings: [{rows: 19, cols: 23}]  # one or more raw game settings (a mapping or a list)
        games: 10                 # seeds per pairing and settings (gauntlet: per submission)
        seed: 1                   # first seed
        tournament: false         # what bots see in `tournament` (Štreky)
        limits: {init: 1.0, move: 1.0, memory_mb: 1024, policy: cpu, backstop: 3}
        workers: auto             # parallel games (auto: one per core)
        awards: {policy: pass_fail, points: 5}
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
from harness.games.base import SettingsError
from harness.sandbox.process import Limits

FORMATS = ("gauntlet", "round_robin")
POLICIES = ("pass_fail", "tiers", "none")


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
class Job:
    """One validated job of tournaments.yaml."""

    name: str
    game: str
    format: str
    submissions: tuple[Path, ...]  # each a player.py; the login is its folder's name
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


@dataclass(frozen=True)
class Config:
    """All jobs of a file; ``groups`` maps a group job to the jobs it runs."""

    path: Path
    jobs: dict[str, Job]
    groups: dict[str, tuple[str, ...]]

    def resolve(self, name: str) -> list[Job]:
        """The jobs that ``harness run NAME`` runs, in order."""
        if name in self.jobs:
            return [self.jobs[name]]
        if name in self.groups:
            return [self.jobs[n] for n in self.groups[name]]
        known = ", ".join(sorted([*self.jobs, *self.groups]))
        raise ConfigError(f"{self.path}: no job named {name!r} (jobs: {known})")


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

    def number(self, key: str, value: Any, minimum: float = 0.0) -> float:
        if type(value) not in (int, float) or value <= minimum:
            raise self.fail(key, f"must be a number > {minimum:g}, got {value!r}")
        return float(value)

    def choice(self, key: str, choices: tuple[str, ...], default: Any = ...) -> str:
        value = self.get(key, default)
        if value not in choices:
            raise self.fail(key, f"must be one of {', '.join(choices)}, got {value!r}")
        return str(value)

    def file(self, key: str, text: Any) -> Path:
        if not isinstance(text, str):
            raise self.fail(key, f"must be a path, got {text!r}")
        path = (self.path.parent / text).resolve()
        if not path.is_file():
            raise self.fail(key, f"no such file: {text}")
        return path


KNOWN_KEYS = {"game", "format", "submissions", "reference", "opponent", "settings", "games", "seed",
              "tournament", "limits", "workers", "awards", "results", "retries", "description"}


def load_config(path: str | os.PathLike[str]) -> Config:
    """Read and validate a tournaments.yaml; raises :class:`ConfigError` (one line) on any problem."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read ({exc.strerror})") from None
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
    for name, body in data["jobs"].items():
        where = f"jobs.{name}"
        if not isinstance(body, dict):
            raise ConfigError(f"{path}: {where}: must be a mapping")
        if "jobs" in body:
            members = body["jobs"]
            if not isinstance(members, list) or not members or not all(isinstance(m, str) for m in members):
                raise ConfigError(f"{path}: {where}.jobs: must be a non-empty list of job names")
            groups[str(name)] = tuple(members)
            continue
        jobs[str(name)] = _job(path, str(name), {**defaults, **body})
    for name, members in groups.items():
        for member in members:
            if member not in jobs:
                raise ConfigError(f"{path}: jobs.{name}.jobs: no job named {member!r}")
    return Config(path=path.resolve(), jobs=jobs, groups=groups)


def _job(path: Path, name: str, body: dict[str, Any]) -> Job:
    r = _Reader(path, f"jobs.{name}", body)
    unknown = set(body) - KNOWN_KEYS
    if unknown:
        raise r.fail(sorted(unknown)[0], f"unknown key (known: {', '.join(sorted(KNOWN_KEYS))})")
    game_name = r.get("game")
    try:
        game = get_game(str(game_name))
    except UnknownGame:
        raise r.fail("game", f"unknown game {game_name!r} (installed: {', '.join(game_names())})") from None
    fmt = r.choice("format", FORMATS)
    submissions = _submissions(r, r.get("submissions", []))
    reference_raw = r.get("reference", [])
    if not isinstance(reference_raw, list):
        raise r.fail("reference", "must be a list of bot files")
    reference = tuple(r.file(f"reference[{i}]", p) for i, p in enumerate(reference_raw))
    opponent = None
    if fmt == "gauntlet":
        opponent = r.file("opponent", r.get("opponent"))
    elif "opponent" in body:
        raise r.fail("opponent", "only a gauntlet has an opponent")
    if len(submissions) + len(reference) < (1 if fmt == "gauntlet" else 2):
        raise r.fail("submissions", "too few bots for this format (found "
                     f"{len(submissions)} submissions and {len(reference)} reference players)")
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
    tournament = r.get("tournament", fmt == "round_robin")
    if type(tournament) is not bool:
        raise r.fail("tournament", f"must be true or false, got {tournament!r}")
    results_raw = r.get("results", f"results/{name}")
    if not isinstance(results_raw, str):
        raise r.fail("results", f"must be a folder path, got {results_raw!r}")
    return Job(name=name, game=game.name, format=fmt, submissions=submissions, reference=reference,
               opponent=opponent, settings=tuple(settings), games=r.integer("games", 2, minimum=1),
               seed=r.integer("seed", 1), tournament=tournament, limits=_limits(r, game),
               workers=workers, awards=_awards(r), results=(path.parent / results_raw).resolve(),
               retries=r.integer("retries", 3), config_file=path.resolve())


def _submissions(r: _Reader, raw: Any) -> tuple[Path, ...]:
    """A folder of ``<login>/player.py`` or a list of globs, as sorted player files."""
    patterns = [raw] if isinstance(raw, str) else raw
    if not isinstance(patterns, list) or not all(isinstance(p, str) for p in patterns):
        raise r.fail("submissions", "must be a folder or a list of glob patterns")
    found: set[Path] = set()
    for pattern in patterns:
        base = r.path.parent / pattern
        if base.is_dir():
            found.update(p.resolve() for p in base.glob("*/player.py"))
            continue
        matches = [Path(m).resolve() for m in glob.glob(str(base), recursive=True)]
        if not matches:
            raise r.fail("submissions", f"{pattern!r} matches nothing")
        found.update(m for m in matches if m.is_file())
    logins: dict[str, Path] = {}
    for p in sorted(found):
        login = p.parent.name if p.name == "player.py" else p.stem
        if login in logins:
            raise r.fail("submissions", f"two submissions for login {login!r}: {logins[login]} and {p}")
        logins[login] = p
    return tuple(sorted(found))


def _limits(r: _Reader, game: Any) -> Limits:
    """The job's limits: the game's call limits, judged by CPU time unless the job says ``wall``.

    Jobs default to the ``cpu`` policy (with a wall-clock backstop): a daily tournament on a
    shared machine must not cost a bot its game because the machine was busy. ``policy: wall``
    is the course's literal rule, for a run on a quiet machine (the self-check verifies it is).
    """
    raw = r.get("limits", {})
    if not isinstance(raw, dict):
        raise r.fail("limits", "must be a mapping")
    known = {"init", "move", "load", "memory_mb", "policy", "backstop", "isolation"}
    unknown = set(raw) - known
    if unknown:
        raise r.fail(f"limits.{sorted(unknown)[0]}", f"unknown limit (known: {', '.join(sorted(known))})")
    limits = replace(Limits().with_game(game), policy="cpu")
    values: dict[str, Any] = {}
    for key in ("init", "move", "load"):
        if key in raw:
            values[key] = r.number(f"limits.{key}", raw[key])
    if "memory_mb" in raw:
        values["memory_bytes"] = int(r.number("limits.memory_mb", raw["memory_mb"], minimum=16) * (1 << 20))
    if "backstop" in raw:
        values["backstop"] = r.number("limits.backstop", raw["backstop"], minimum=1)
    for key, choices in (("policy", ("wall", "cpu")), ("isolation", ("auto", "bwrap", "plain"))):
        if key in raw:
            if raw[key] not in choices:
                raise r.fail(f"limits.{key}", f"must be {' or '.join(choices)}, got {raw[key]!r}")
            values[key] = raw[key]
    return replace(limits, **values)


def _awards(r: _Reader) -> Awards:
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
