"""Adding a game is checked: every game of the registry has what the harness around it needs.

A game is one folder under ``harness/games/``; what lives outside that folder is listed here, so
a game that lacks one of them fails a test naming the game and the missing piece:

* reference players under ``reference_players/<game>/`` (the opponents of ``harness check``);
* a grading job, in the shipped ``harness/jobs/grading.yaml`` and in the project's
  ``tournaments.yaml`` (``<game>-grading``);
* its test folder ``tests/games/<game>/`` with at least one test module;
* for each bot API module students import by name, a top-level shim in ``harness/studentapi/``
  that re-exports the game's module, listed in ``pyproject.toml``'s ``py-modules`` (see
  :func:`test_the_studentapi_shims_are_the_games_modules` for why they are checked, not generated).
"""

from __future__ import annotations

import ast
import tomllib

import pytest

from harness.config import load_config
from harness.games import game_names, get_game
from tests.conftest import REPO

SHIMS = REPO / "harness" / "studentapi"


@pytest.fixture(params=game_names())
def game(request: pytest.FixtureRequest) -> str:
    return request.param


def test_every_game_ships_reference_players(game: str) -> None:
    players = get_game(game).reference_players
    assert players, f"{game}: no reference players in reference_players/{game}/"


@pytest.mark.parametrize("jobs", ["harness/jobs/grading.yaml", "tournaments.yaml"])
def test_every_game_has_a_grading_job(game: str, jobs: str) -> None:
    config = load_config(REPO / jobs)
    assert config.grading_job(game) is not None, f"{game}: no grading job ({game}-grading) in {jobs}"
    assert f"{game}-grading" not in config.problems, config.problems.get(f"{game}-grading")


def test_every_game_has_its_test_folder(game: str) -> None:
    folder = REPO / "tests" / "games" / game
    assert folder.is_dir() and any(folder.glob("test_*.py")), f"{game}: no tests in tests/games/{game}/"


def shim_targets() -> dict[str, str]:
    """Each shim of harness/studentapi/ -> the module it star-imports."""
    targets = {}
    for path in sorted(SHIMS.glob("*.py")):
        stars = [n.module for n in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
                 if isinstance(n, ast.ImportFrom) and any(a.name == "*" for a in n.names)]
        assert len(stars) == 1, f"{path}: a shim star-imports exactly one game module"
        targets[path.stem] = stars[0] or ""
    return targets


def test_the_studentapi_shims_are_the_games_modules() -> None:
    """The shims are checked against the games rather than generated at build time: setuptools
    reads ``py-modules`` and ``package-dir`` from pyproject.toml as static data, and generating
    modules would need a custom build step (a setup.py command class) that an editable install
    and a build from the sdist each run differently. A test that fails naming the missing shim
    keeps them in step instead."""
    wanted = {module: f"harness.games.{name}.botapi.{module}"
              for name in game_names() for module in get_game(name).interface.student_imports}
    assert shim_targets() == wanted
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    assert sorted(project["tool"]["setuptools"]["py-modules"]) == sorted(wanted)


def test_a_game_names_only_bot_api_modules_it_ships(game: str) -> None:
    spec = get_game(game)
    assert set(spec.interface.student_imports) <= set(spec.botapi_modules), \
        f"{game}: student_imports names a module not in its botapi/ folder"
