"""The students' base.py: the course's, importing Pillow at the top, its constructor and attributes, PNG drawing."""

from __future__ import annotations

import ast
import importlib
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

from harness.games import get_game

BOTAPI = get_game("streky").botapi_dir
assert BOTAPI is not None
BASE = BOTAPI / "base.py"
CARD = [[0, 1, 2, 0], [1, 1, 2, 2], [2, 2, 1, 1], [0, 2, 1, 0]]


@pytest.fixture
def base() -> Iterator[ModuleType]:
    sys.path.insert(0, str(BOTAPI))
    try:
        sys.modules.pop("base", None)
        yield importlib.import_module("base")
    finally:
        sys.path.remove(str(BOTAPI))
        sys.modules.pop("base", None)


def test_base_is_ascii_and_imports_pillow_at_the_top_as_the_course_s_does() -> None:
    source = BASE.read_bytes()
    assert all(b < 128 for b in source)
    tree = ast.parse(source)
    first = next(n for n in tree.body if isinstance(n, (ast.Import, ast.ImportFrom)))
    assert isinstance(first, ast.ImportFrom) and first.module == "PIL"
    assert [a.name for a in first.names] == ["Image", "ImageDraw"]
    tops = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            tops |= {a.name.partition(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            tops.add((node.module or "").partition(".")[0])
    assert tops == {"PIL"}


def test_constructor_sets_the_course_attributes(base: ModuleType) -> None:
    from base import BasePlayer  # type: ignore[import-not-found]  # the students' way

    p = BasePlayer("novak", 19, 23, [CARD])
    assert (p.userLogin, p.boardRows, p.boardCols, p.cardsAtHand) == ("novak", 19, 23, [CARD])
    assert p.cardsOnDesk == [] and p.tournament is False and p.playerName == "my great player"
    assert base.BasePlayer is BasePlayer
    assert p.play([]) is None  # the course's play() does nothing: a Player must define its own


def test_draw_cards_writes_the_course_s_png(base: ModuleType, tmp_path: Path) -> None:
    from PIL import Image

    p = base.BasePlayer("x", 6, 8, [CARD])
    cards = [[1, 1, CARD], [1, 5, [[1, 2, 1], [2, 2, 2], [1, 2, 1]]]]
    assert p.drawCards(6, 8, cards, str(tmp_path / "move-01.png")) is None  # as the course's
    with Image.open(tmp_path / "move-01.png") as img:
        assert img.format == "PNG" and img.size == (8 * 60, 6 * 60)
        assert img.getpixel((1 * 60 + 30 + 60, 1 * 60 + 30 + 60))[:3] == (0x63, 0x69, 0x40)  # colour 1, dark
        assert img.getpixel((7 * 60 + 30, 5 * 60 + 30))[:3] == (255, 255, 255)  # an empty cell
    p.drawCards(6, 8, cards, str(tmp_path / "small.png"), 10)
    with Image.open(tmp_path / "small.png") as img:
        assert img.size == (80, 60)


def test_base_runs_as_a_script(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, str(BASE)], cwd=tmp_path, capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("wrote ") and (tmp_path / done.stdout.split()[1]).exists()
