"""The students' base.py: the course's constructor and attributes, drawing without Pillow."""

from __future__ import annotations

import ast
import importlib
import subprocess
import sys
import xml.etree.ElementTree as ET
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


def test_base_is_ascii_and_imports_only_the_standard_library() -> None:
    source = BASE.read_bytes()
    assert all(b < 128 for b in source)
    tops = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            tops |= {a.name.partition(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            tops.add((node.module or "").partition(".")[0])
    assert tops - {"PIL"} <= set(sys.stdlib_module_names)


def test_constructor_sets_the_course_attributes(base: ModuleType) -> None:
    from base import BasePlayer  # type: ignore[import-not-found]  # the students' way

    p = BasePlayer("novak", 19, 23, [CARD])
    assert (p.userLogin, p.boardRows, p.boardCols, p.cardsAtHand) == ("novak", 19, 23, [CARD])
    assert p.cardsOnDesk == [] and p.tournament is False and isinstance(p.playerName, str)
    assert base.BasePlayer is BasePlayer
    with pytest.raises(NotImplementedError):
        p.play([])


def test_svg_drawing_is_well_formed(base: ModuleType) -> None:
    p = base.BasePlayer("x", 6, 8, [CARD])
    cards = [[1, 1, CARD], [1, 5, [[1, 2, 1], [2, 2, 2], [1, 2, 1]]]]
    root = ET.fromstring(p.svgCards(6, 8, cards, highlightCard=cards[1]))
    assert root.tag.endswith("svg")
    assert len(list(root.iter("{http://www.w3.org/2000/svg}circle"))) == 2


def test_draw_png_falls_back_to_svg_without_pillow(base: ModuleType, tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "PIL", None)  # "import PIL" now fails, as without Pillow
    p = base.BasePlayer("x", 6, 8, [CARD])
    written = p.drawCards(6, 8, [[0, 0, CARD]], str(tmp_path / "move-01.png"))
    assert written == str(tmp_path / "move-01.svg")
    ET.parse(written)
    named = p.drawCards(6, 8, [[0, 0, CARD]], str(tmp_path / "board.svg"))
    assert named == str(tmp_path / "board.svg") and Path(named).read_text().startswith("<svg")


def test_base_runs_as_a_script(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, str(BASE)], cwd=tmp_path, capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("wrote ") and Path(done.stdout.split()[1]).exists()
