"""The similarity report's code channel goes through the door: students' source is tokenised in
its capped child, never in the harness's process, once per content."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from harness import door
from harness.report.similarity import FINGERPRINT, fingerprint_all
from harness.report.similarity.code import fingerprint
from tests.conftest import REPO

BOTS = sorted((REPO / "tests/report/similarity_bots").glob("*.py"))


@pytest.fixture
def fresh(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    door.forget()


def test_fingerprints_from_the_door_are_those_of_the_function_and_a_second_run_starts_no_child(
        fresh: None) -> None:
    files = {p.stem: [("player.py", p.read_bytes())] for p in BOTS}
    before = door.stats.children
    prints = fingerprint_all(files)
    assert {n: p.where for n, p in prints.items()} == {n: fingerprint(fs).where for n, fs in files.items()}
    assert door.stats.children == before + 1  # one child for all of them
    door.forget()  # a later run: the disk cache answers
    assert {n: p.where for n, p in fingerprint_all(files).items()} == {n: p.where for n, p in prints.items()}
    assert door.stats.children == before + 1


def test_a_submission_past_the_door_s_caps_has_no_fingerprints_and_a_note(
        fresh: None, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(door.TASKS, FINGERPRINT.name, replace(FINGERPRINT, output=1024))
    small = [("player.py", b"x = 1\n")]
    prints = fingerprint_all({"big": [("player.py", BOTS[0].read_bytes())], "small": small})
    assert not prints["big"].where
    assert prints["big"].notes == ["the submission: too large or complex to fingerprint (output cap 1 KiB)"]
    assert prints["small"].notes == [] and prints["small"].where == fingerprint(small).where


def test_given_code_and_the_templates_draws_are_parsed_in_the_door_not_here(
        tmp_path: Path, fresh: None) -> None:
    """A job's ``exclude`` may be an archive of earlier students' bots: parsed in the door's child."""
    from harness import door
    from harness.games import get_game
    from harness.report.similarity import given_choices, given_code

    # The fixture's empty disk cache: an earlier run (or test) with the same content would answer
    # from the cache without a child, and the count below would prove nothing.
    archive = tmp_path / "archive"
    archive.mkdir()
    (archive / "old.py").write_text("def f(x):\n    y = x + 1\n    return y * 2\n")
    door.forget()
    before = door.stats.children
    given = given_code(get_game("blokovanie"), [archive])
    assert door.stats.children > before  # a child parsed them
    assert given  # and its k-grams came back
    door.forget()
    before = door.stats.children
    assert isinstance(given_choices(get_game("streky")), set)
    assert door.stats.children > before or not get_game("streky").submission.template_dir
