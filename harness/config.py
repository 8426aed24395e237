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
        format: gauntlet          # a module of harness/tournament/formats: gauntlet | round_robin | adaptive
                                  #   | shuffled | battery (or a game's battery by name: Quoridor's sembasic)
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
        deadline: 2026-11-17T20:00:00+01:00   # attempts after it are charged (harness/tournament/lateness.py)
        late: {per_day: 1, max: 3 days}       # per started day late; no late: the deadline closes
        interpreter: /usr/bin/python3.11  # the Python its bots run on (default: the system's own of
                                  # the harness's version if it runs our bytecode, else the harness's)
        results: results/streky-grading    # where the store lives
        kit: {players: [random, brute]}    # the reference players `harness kit` hands out (also on a group)
        cluster: {speed_factor: 1.5, slurm: {jobs: 2, cores: 8}}  # Dask/Slurm (tournament/clusterconf.py)

A job may instead list other jobs to run one after another: ``demo: {jobs: [a, b]}``.
"""

from __future__ import annotations

import glob
import os
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import yaml

from harness.games import UnknownGame, game_names, get_game
from harness.games.base import GameSpec, SettingsError
from harness.keys import ConfigError, Reader, locate
from harness.kitkey import KitChoice, read_kit
from harness.roster import RosterError, read_roster
from harness.sandbox import interpreter
from harness.sandbox.limits import Limits
from harness.sandbox.checks.packages import PackageError, approve
from harness.tournament.lateness import read_deadline
from harness.tournament.formats import FORMATS, format_named, format_names
from harness.tournament.clusterconf import read_cluster
from harness.tournament.job import Awards, Job, SimilaritySettings, StyleDeduction, SubmissionRef, Tier, login_of

POLICIES = ("pass_fail", "tiers", "none")
ANALYSES = ("seats",)


@dataclass(frozen=True)
class Config:
    """All jobs of a file; ``groups`` maps a group job to the jobs it runs; ``problems`` holds the
    one-line error of every job (or group) that could not be read."""

    path: Path
    jobs: dict[str, Job]
    groups: dict[str, tuple[str, ...]]
    problems: dict[str, str] = field(default_factory=dict)
    # load_config(..., students=False): what was left out of each job (a missing submissions
    # folder or roster) because `check` needs neither; one line each.
    notes: dict[str, list[str]] = field(default_factory=dict)
    kits: dict[str, KitChoice] = field(default_factory=dict)  # a job's or group's `kit:` key (harness kit)

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
        return next((j for j in self.jobs.values() if j.game == game and format_named(j.format).grading), None)


KNOWN_KEYS = {"game", "format", "submissions", "reference", "opponent", "settings", "games", "seed",
              "tournament", "limits", "workers", "awards", "results", "retries", "description", "roster",
              "bot_packages", "analysis", "public", "tables", "confidence", "budget",
              "similarity", "waive", "deadline", "late", "kit", "interpreter", "cluster"}


def load_config(path: str | os.PathLike[str], *, students: bool = True) -> Config:
    """Read a tournaments.yaml; :class:`ConfigError` (one line) if the file as a whole is unusable.

    A problem of one job is kept in ``Config.problems`` under its name (and a group with a
    member that is not a job under the group's); the other jobs stay usable. ``students=False``
    (``harness check``, the student's copy of the course's file): a submissions folder or roster
    that is missing or unusable is left out, with a line in ``Config.notes``, not a problem.
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
    notes: dict[str, list[str]] = {}
    kits: dict[str, KitChoice] = {}
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
                left_out = None if students else notes.setdefault(name, [])
                jobs[name] = _job(path, name, {**defaults, **body}, left_out)
            except ConfigError as exc:
                problems[name] = str(exc)
    for name, members in groups.items():
        for member in members:
            if member not in jobs and member not in problems:
                problems[name] = f"{path}: jobs.{name}.jobs: no job named {member!r}"
            elif member in groups:
                problems[name] = f"{path}: jobs.{name}.jobs: {member!r} is a group (groups do not nest)"
    for name, body in data["jobs"].items():  # after the groups: a group's kit names its members' players
        name = str(name)
        if isinstance(body, dict) and "kit" in body and name not in problems:
            games = [jobs[m].game for m in groups.get(name, (name,)) if m in jobs]
            try:
                kits[name] = read_kit(path, name, body["kit"], games)
            except ConfigError as exc:
                problems[name] = str(exc)
                jobs.pop(name, None)
    for name in problems:
        groups.pop(name, None)
    return Config(path=path.resolve(), jobs=jobs, groups=groups, problems=problems,
                  notes={n: v for n, v in notes.items() if v}, kits=kits)


def _job(path: Path, name: str, body: dict[str, Any], left_out: list[str] | None = None) -> Job:
    r = Reader(path, f"jobs.{name}", body)
    unknown = set(body) - KNOWN_KEYS
    if unknown:
        raise r.fail(sorted(unknown)[0], f"unknown key (known: {', '.join(sorted(KNOWN_KEYS))})")
    game_name = r.get("game")
    try:
        game = get_game(str(game_name).lower())
    except UnknownGame:
        raise r.fail("game", f"unknown game {game_name!r} (installed: {', '.join(game_names())})") from None
    fmt = r.choice("format", format_names())
    kind = format_named(fmt)
    for other in FORMATS.values():  # a key of another format's (an opponent in a round robin, say)
        for key, problem in other.keys.items():
            if key in body and key not in kind.keys:
                raise r.fail(key, problem)
    try:
        submissions = _submissions(r, r.get("submissions", []))
    except ConfigError as exc:
        if left_out is None:
            raise
        submissions = ()
        left_out.append(f"{exc}: left out (check needs no submissions)")
    reference_raw = r.get("reference", [])
    if not isinstance(reference_raw, list):
        raise r.fail("reference", "must be a list of bot files")
    reference = tuple(r.file(f"reference[{i}]", p, game) for i, p in enumerate(reference_raw))
    own = kind.read(r, body, game)
    kind.check(r, game, fmt)
    needed = kind.bots_needed(game)
    if len(submissions) + len(reference) < needed and left_out is None:
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
    tournament = r.boolean("tournament", kind.tournament)
    results_raw = r.get("results", f"results/{name}")
    if not isinstance(results_raw, str):
        raise r.fail("results", f"must be a folder path, got {results_raw!r}")
    description = r.get("description", "")
    if not isinstance(description, str):
        raise r.fail("description", f"must be text, got {description!r}")
    try:
        roster, roster_file = _roster(r)
    except ConfigError as exc:
        if left_out is None:
            raise
        roster, roster_file = None, None
        left_out.append(f"{exc}: left out (check needs no roster)")
    deadline, late = read_deadline(r)
    analysis = r.get("analysis", None)
    if analysis is not None and analysis not in kind.analyses:
        raise r.fail("analysis", f"must be one of {', '.join(ANALYSES)} (for a round_robin), got {analysis!r}")
    return Job(name=name, game=game.name, format=fmt, submissions=submissions, reference=reference,
               opponent=own.pop("opponent", None), settings=tuple(settings), games=r.integer("games", 2, minimum=1),
               seed=r.integer("seed", 1), tournament=tournament, limits=_limits(r, game),
               workers=workers, awards=_awards(r), results=(path.parent / results_raw).resolve(),
               retries=r.integer("retries", 3), config_file=path.resolve(), description=description.strip(),
               roster=roster, roster_file=roster_file, analysis=analysis, public=r.boolean("public", False),
               tables=r.integer("tables", minimum=1) if "tables" in body else None,
               similarity=_similarity(r, path), waive=_waive(r, game), deadline=deadline, late=late,
               interpreter=_interpreter(r, path), cluster=read_cluster(r),
               **own)


def _interpreter(r: Reader, path: Path) -> str:
    """The job's ``interpreter:`` (its bots' Python, checked by running it), or "" for the harness's rule."""
    raw = r.get("interpreter", None)
    if raw is None:
        return ""
    if not isinstance(raw, str) or not raw.strip():
        raise r.fail("interpreter", f"must be the path of a Python {interpreter.VERSION} interpreter, got {raw!r}")
    found = path.parent / os.path.expanduser(raw)  # relative to the jobs file
    why = interpreter.check(str(found))
    if why is not None:
        raise r.fail("interpreter", why)
    return os.path.realpath(found)


def _submissions(r: Reader, raw: Any) -> tuple[SubmissionRef, ...]:
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


def _roster(r: Reader) -> tuple[tuple[str, ...] | None, Path | None]:
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


def _packages(r: Reader, game: GameSpec) -> tuple[str, ...]:
    raw = r.get("bot_packages", [])
    if not isinstance(raw, list) or not all(isinstance(p, str) for p in raw):
        raise r.fail("bot_packages", f"must be a list of import names (e.g. [numpy]), got {raw!r}")
    for i, name in enumerate(raw):
        try:
            approve(name, game.submission.forbidden_imports, game.title)
        except PackageError as exc:
            raise r.fail(f"bot_packages[{i}]", str(exc)) from None
    return tuple(sorted(set(raw)))


def _limits(r: Reader, game: GameSpec) -> Limits:
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


def _awards(r: Reader) -> Awards:
    raw = r.get("awards", {"policy": "none"})
    if not isinstance(raw, dict):
        raise r.fail("awards", "must be a mapping with a policy")
    sub = Reader(r.path, f"{r.where}.awards", raw)
    policy = sub.choice("policy", POLICIES)
    style = _style(sub)
    if policy == "pass_fail":
        return Awards(policy, points=sub.number("points", sub.get("points")), style=style)
    if policy == "none":
        return Awards(policy, style=style)
    tiers_raw = sub.get("tiers")
    if not isinstance(tiers_raw, list) or not tiers_raw:
        raise sub.fail("tiers", "must be a non-empty list of {rank: N, points: P} or {top: F, points: P}")
    tiers = []
    for i, t in enumerate(tiers_raw):
        tr = Reader(r.path, f"{r.where}.awards.tiers[{i}]", t if isinstance(t, dict) else {})
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
    return Awards(policy, tiers=tuple(tiers), style=style)


# ---- code rules and similarity (issue 29) -------------------------------------------------------
def _style(sub: Reader) -> StyleDeduction | None:
    """``style: {per_finding: P, cap: C}`` of a job's awards, if present."""
    if "style" not in sub.data:
        return None
    raw = sub.get("style")
    if not isinstance(raw, dict) or set(raw) - {"per_finding", "cap"} or "per_finding" not in raw:
        raise sub.fail("style", "must be a mapping {per_finding: P, cap: C} (points off per PEP 8 finding, at most C)")
    st = Reader(sub.path, f"{sub.where}.style", raw)
    per = st.number("per_finding", raw["per_finding"])
    return StyleDeduction(per, st.number("cap", raw.get("cap", float("inf"))) if "cap" in raw else float("inf"))


def _similarity(r: Reader, path: Path) -> SimilaritySettings:
    """``similarity: {exclude: [files or folders], archive: folder}``."""
    raw = r.get("similarity", {})
    if not isinstance(raw, dict) or set(raw) - {"exclude", "archive"}:
        raise r.fail("similarity", "must be a mapping with exclude (a list of files or folders) and/or archive "
                                   "(a folder of earlier submissions)")
    excludes = raw.get("exclude", [])
    if not isinstance(excludes, list) or not all(isinstance(e, str) for e in excludes):
        raise r.fail("similarity.exclude", "must be a list of files or folders")
    found = []
    for i, text in enumerate(excludes):
        where = locate(path.parent, text)
        if not where.exists():
            raise r.fail(f"similarity.exclude[{i}]", f"no such file or folder: {text}")
        found.append(where)
    archive = raw.get("archive")
    if archive is not None:
        if not isinstance(archive, str) or not locate(path.parent, archive).is_dir():
            raise r.fail("similarity.archive", f"must be a folder of earlier submissions, got {archive!r}")
        archive = locate(path.parent, archive)
    return SimilaritySettings(tuple(found), archive)


def _waive(r: Reader, game: GameSpec) -> dict[str, tuple[str, ...]]:
    """``waive: {login: [rule, ...]}``: code rules whose deduction does not apply to that student."""
    raw = r.get("waive", {})
    known = {c.name for c in game.submission.code_rules}
    if not isinstance(raw, dict):
        raise r.fail("waive", "must be a mapping of login to a list of code rules")
    out: dict[str, tuple[str, ...]] = {}
    for login, rules in raw.items():
        if not isinstance(rules, list) or not all(isinstance(x, str) and x in known for x in rules):
            raise r.fail(f"waive.{login}", f"must be a list of {game.title}'s code rules "
                                           f"({', '.join(sorted(known)) or 'it has none'})")
        out[str(login)] = tuple(rules)
    return out


# The job model lives in harness.tournament.job; it is named here too, where jobs come from.
__all__ = ["Awards", "Config", "ConfigError", "Job", "SimilaritySettings", "StyleDeduction", "SubmissionRef", "Tier", "load_config", "locate", "login_of"]
