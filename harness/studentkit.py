"""``harness kit JOB|GROUP --out DIR``: the folder a course hands its students.

The kit holds the harness (the games, their bot APIs, ``check``), the course's check jobs and
the reference players the course chose, as a project of its own: in it, ``python3 -m venv .venv
&& .venv/bin/pip install .`` installs the ``harness`` command, and ``harness check GAME BOT``
plays exactly the grader's job (its settings, seeds, opponent, limits, approved packages and
points), from any folder: the kit's jobs are its installed harness's shipped grading jobs.

What goes in:

* the check jobs: the named job or the group's members that ``check`` plays (a ``gauntlet``,
  against one opponent); the others (tournaments, analyses, a battery such as SemBasic, which
  ``check`` runs anyway for its game) are left out with a line saying so. A job keeps every key
  except those about the class (``submissions``, ``roster``, ``results``, ``similarity``,
  ``waive``: a student's waiver is personal) and ``reference`` (not played by ``check``);
* the reference players: the job's or group's ``kit: {players: [...]}``, else :data:`WEAK`, of
  the kit's games only. A check job's opponent must be among them: if the course chose players
  and left out an opponent, or a job plays a strong player the default does not hand out, the
  kit is refused with one line (hand the player out, or kit a job without it): nothing leaves
  that the course did not choose, and the kit's ``check`` never differs from the grader's. An
  opponent that is the course's own file (not a shipped reference player) is copied in;
* nothing else: no submissions, no roster, no results, no tests.
"""

from __future__ import annotations

import importlib
import json
import shutil
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Any

import yaml

from harness.config import Config, Job
from harness.games import get_game
from harness.keys import ConfigError
from harness.tournament.formats import format_named

# The players a kit holds when the course names none: the random players, the seeds' own
# strategies (printed in the assignment texts: PriemSpel's two, Blokovanie's three, Človeče's
# four), the course's Brute (Štreky's grading opponent, described in its assignment) and
# Quoridor's runner (the shortest path, no walls). Left out: the harness's strong players,
# Štreky `strong` (Brute plus lookahead), Quoridor `waller` (beats runner 240 of 240) and
# Blokovanie `strong` (exact Sprague-Grundy play): a student could hand one in as their own.
WEAK: dict[str, tuple[str, ...]] = {
    "streky": ("random", "brute"),
    "quoridor": ("random_legal", "runner"),
    "priemspel": ("basis", "strategie"),
    "blokovanie": ("first_free", "random", "max_block"),
    "clovece": ("random", "safe", "mean", "eager"),
}
LEFT_OUT_KEYS = ("submissions", "roster", "results", "similarity", "waive", "kit", "reference")
STUDENT_API = ("base", "obstacle", "clovece")  # the top-level shims of pyproject's py-modules
KIT_HEADER = "# The course's check jobs"  # how a kit's jobs file starts (check names its source by it)
IGNORE = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info", "build", "dist")


class KitError(ValueError):
    """The kit cannot be built (one line)."""


@dataclass
class KitPlan:
    """What a kit will hold: the check jobs (as written), the players per game, and what was left out."""

    name: str
    jobs: dict[str, dict[str, Any]] = field(default_factory=dict)  # job name -> its mapping in the kit
    players: dict[str, dict[str, Path]] = field(default_factory=dict)  # game -> name -> file
    notes: list[str] = field(default_factory=list)


def raw_job(job: Job) -> dict[str, Any]:
    """The job's mapping as its jobs file writes it, with the file's ``defaults`` applied."""
    data = yaml.safe_load(job.config_file.read_text(encoding="utf-8"))
    return {**(data.get("defaults") or {}), **data["jobs"][job.name]}


def _is_shipped(opponent: Path, shipped: Path | None, reference_dir: Path) -> bool:
    """True if ``opponent`` is the shipped reference player ``shipped``: the installed file itself,
    or a copy of it with the same name (a jobs file naming ``reference_players/<game>/x.py`` in a
    checkout, while the installed harness's players live in its site-packages)."""
    if shipped is None:
        return False
    if opponent.parent == reference_dir.resolve():
        return True
    try:
        return opponent.is_file() and opponent.read_bytes() == Path(shipped).read_bytes()
    except OSError:
        return False


def chosen_players(config: Config, name: str, members: list[Job]) -> dict[str, list[str]] | None:
    """The players the course chose (game -> names): the key of ``name``, else its members' keys
    together; None if there is no ``kit:`` key at all (the default, :data:`WEAK`)."""
    keys = [config.kits[name]] if name in config.kits else [config.kits[j.name] for j in members
                                                             if j.name in config.kits]
    if not keys:
        return None
    out: dict[str, list[str]] = {}
    for key in keys:
        for game, player in key.players:
            out.setdefault(game, [])
            if player not in out[game]:
                out[game].append(player)
    return out


def plan_kit(config: Config, name: str) -> KitPlan:
    """What ``harness kit NAME`` would write; :class:`KitError` if it cannot honour the course's choice."""
    try:
        members = config.resolve(name)
    except ConfigError as exc:
        raise KitError(str(exc)) from None
    plan = KitPlan(name)
    checked = []
    for job in members:
        kind = format_named(job.format)
        if kind.grading and job.opponent is not None:
            checked.append(job)
        else:
            battery = kind is format_named("battery")  # its battery runs in every check of the game anyway
            plan.notes.append(f"{job.name}: left out ({job.format}: "
                              + (f"check runs it in every check of {job.game})" if battery else
                                 "not what `harness check` plays)"))
    if not checked:
        raise KitError(f"{name}: no job that `harness check` plays (a gauntlet against an opponent) to put in a kit")
    chosen = chosen_players(config, name, members)
    games = list(dict.fromkeys(j.game for j in checked))
    for game_name in games:
        game = get_game(game_name)
        shipped = game.reference_players
        if chosen is not None:
            names = chosen.get(game_name, [])
        else:
            names = [n for n in WEAK.get(game_name, ()) if n in shipped]
        plan.players[game_name] = {n: shipped[n] for n in names}
    for job in checked:
        assert job.opponent is not None
        game = get_game(job.game)
        opponent = job.opponent.resolve()
        body = {k: v for k, v in raw_job(job).items() if k not in LEFT_OUT_KEYS}
        own = plan.players[job.game]
        if _is_shipped(opponent, game.reference_players.get(opponent.stem), game.reference_dir):
            if opponent.stem not in own:
                how = ("the course's kit: {players: [...]} leaves it out" if chosen is not None else
                       "a strong player, not handed out unless the course names it in kit: {players: [...]}")
                raise KitError(f"{job.name} plays against {opponent.stem} ({how}): hand it out, or kit a job "
                               f"without it (the kit's check must play what the grader plays)")
        elif opponent.suffix == ".py" and opponent.is_file():
            clash = own.get(opponent.stem)
            if clash is not None and clash.resolve() != opponent:
                raise KitError(f"{job.name}: its opponent {opponent} has the name of {job.game}'s reference player "
                               f"{opponent.stem}: rename it")
            own[opponent.stem] = opponent
            plan.notes.append(f"{job.name}: its opponent {opponent.name}, the course's own file, goes in as the "
                              f"reference player {opponent.stem}")
        else:
            raise KitError(f"{job.name}: its opponent {opponent} is not a .py file: a kit ships single-file players")
        body["opponent"] = opponent.stem
        plan.jobs[job.name] = body
    left = sorted(f"{g}/{n}" for g in games for n in get_game(g).reference_players if n not in plan.players[g])
    if left:
        plan.notes.append(f"reference players not in the kit: {', '.join(left)}")
    return plan


def jobs_text(plan: KitPlan, source: Path) -> str:
    """The kit's jobs file: the course's check jobs, what ``harness check`` plays."""
    head = (f"{KIT_HEADER}, written by `harness kit {plan.name}` from {source.name}.\n"
            "# `harness check GAME BOT` plays GAME's job (GAME-grading, else its first); --job NAME picks one.\n"
            "# These are the grader's jobs without the class (no submissions, roster or results).\n\n")
    return head + yaml.safe_dump({"jobs": plan.jobs}, sort_keys=False, allow_unicode=True, width=100)


def _requirements() -> list[str]:
    """The harness's own dependencies (not its extras), from its installed metadata."""
    try:
        requires = metadata.requires("bot-harness") or []
    except metadata.PackageNotFoundError:
        raise KitError("the harness is not installed as a distribution (pip install it first)") from None
    return [r for r in requires if "extra ==" not in r]


def _version() -> str:
    from harness import __version__

    return __version__


PYPROJECT = """\
[build-system]
requires = ["setuptools>=68", "wheel"]
build-backend = "setuptools.build_meta"

[project]
name = "bot-harness"
version = "{version}"
description = "The course's kit: harness check, the games, their bot APIs and the course's check jobs"
readme = "README.md"
requires-python = ">=3.11"
dependencies = [
{dependencies}
]

[project.scripts]
harness = "harness.cli:main"

[tool.setuptools]
py-modules = ["base", "obstacle", "clovece"]
include-package-data = false
package-dir = {{ "" = "harness/studentapi", "harness" = "harness", "reference_players" = "reference_players" }}

[tool.setuptools.packages.find]
where = ["."]
include = ["harness*", "reference_players*"]
exclude = ["harness.studentapi*"]

[tool.setuptools.package-data]
"*" = ["*.py", "*.txt", "*.json", "*.html", "*.j2", "*.css", "*.js", "*.yaml"]
"""


def readme_text(plan: KitPlan) -> str:
    """The kit's README: the two commands, the jobs, the players."""
    rows = []
    for name, body in plan.jobs.items():
        rows.append(f"- `{name}` ({body['game']}): {' '.join(str(body.get('description', '')).split())}".rstrip(": "))
    players = [f"- {game}: {', '.join(names) or 'none'}" for game, names in
               ((g, list(p)) for g, p in plan.players.items())]
    game = next(iter(plan.jobs.values()))["game"]
    batteries = [get_game(g) for g in plan.players if get_game(g).battery is not None]
    for g in batteries:
        battery = g.battery
        assert battery is not None
        rows.append(f"- and in every `harness check {g.name}`: {battery.title}, all {battery.points} of its points "
                    f"needed (`harness basic {g.name} player.py` runs it alone)")
    return f"""# The course's kit: check your bot before you submit it

```sh
python3 -m venv .venv && .venv/bin/pip install .
.venv/bin/harness check {game} path/to/player.py
```

The first command (Python 3.11 or newer; on Debian and Ubuntu also the `python3-venv` package)
installs the `harness` command into `.venv` in this folder; it needs PyPI for the harness's
libraries and nothing else. The second plays what the grader plays for your bot: the course's
job for the game, its settings, seeds, opponent, time and memory limits and points, and says
PASS (exit code 0) only if the grader would accept the bot. `harness check --help` lists its
options (`--against NAME` practises against a reference player, `--games N` plays a sample).
`source .venv/bin/activate` puts `harness` on your shell's PATH.

The course's check jobs (in `tournaments.yaml`, and installed as the harness's own, so `check`
plays them from any folder):

{chr(10).join(rows)}

The reference players in this kit (`harness play GAME NAME NAME` plays one game):

{chr(10).join(players)}

Your bot imports its game's modules as in the course (`import base` for Štreky, `from obstacle
import *` for Quoridor, `from clovece import BasePlayer` for Človeče); after the install they work
in your own scripts too. Do not copy them next to your `player.py`: the harness gives your bot
its own copies.
"""


def _copy_harness(dest: Path, jobs: str) -> None:
    """The harness package (its bot-API shims in ``harness/studentapi``), its grading jobs replaced."""
    import harness

    source = Path(harness.__file__).resolve().parent
    shutil.copytree(source, dest / "harness", ignore=IGNORE)
    api = dest / "harness" / "studentapi"
    api.mkdir(exist_ok=True)
    for name in STUDENT_API:  # an installed (non-editable) harness has them as top-level modules
        if not (api / f"{name}.py").exists():
            module = importlib.import_module(name)
            shutil.copy2(str(module.__file__), api / f"{name}.py")
    (dest / "harness" / "jobs" / "grading.yaml").write_text(jobs, encoding="utf-8")


def write_kit(plan: KitPlan, source: Path, out: Path) -> list[Path]:
    """Write the kit into ``out`` (a new or empty folder); returns the reference players written."""
    if out.exists() and any(out.iterdir()):
        raise KitError(f"--out {out}: the folder is not empty (a kit goes into a new or empty folder)")
    deps = "\n".join(f"    {json.dumps(r)}," for r in _requirements())  # a JSON string is a TOML string
    try:
        out.mkdir(parents=True, exist_ok=True)
        jobs = jobs_text(plan, source)
        _copy_harness(out, jobs)
        (out / "tournaments.yaml").write_text(jobs, encoding="utf-8")
        players = out / "reference_players"
        players.mkdir()
        import reference_players

        shutil.copy2(Path(reference_players.__file__), players / "__init__.py")
        written = []
        for game, files in plan.players.items():
            (players / game).mkdir()
            for name, path in files.items():
                shutil.copy2(path, players / game / f"{name}.py")
                written.append(players / game / f"{name}.py")
        (out / "pyproject.toml").write_text(PYPROJECT.format(version=_version(), dependencies=deps), encoding="utf-8")
        (out / "README.md").write_text(readme_text(plan), encoding="utf-8")
    except OSError as exc:
        raise KitError(f"--out {out}: cannot write the kit ({exc.strerror or exc})") from None
    return written


__all__ = ["KIT_HEADER", "KitError", "KitPlan", "WEAK", "plan_kit", "write_kit"]
