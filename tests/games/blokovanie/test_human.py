"""A person in a Blokovanie seat: the seed's prompts and lines, driven with a scripted ``read``.

:func:`drive` plays the harness's part as ``HumanInterface`` describes it: input the game cannot
read (``ValueError``) is told to the person and asked again, and so is a move the referee
refuses.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from harness.games.blokovanie.human import COLUMN_PROMPT, HUMAN, ROW_PROMPT, announce, ask, narrate
from harness.games.blokovanie.rules import RULES, Move, State

START = RULES.initial(RULES.parse_settings({}), random.Random(0))
AFTER_1_1 = RULES.apply(START, (1, 1))


class Script:
    """A ``read`` that answers from a list and records the prompts it was given."""

    def __init__(self, lines: list[str]) -> None:
        self.lines = list(lines)
        self.prompts: list[str] = []

    def __call__(self, prompt: str) -> str:
        self.prompts.append(prompt)
        return self.lines.pop(0)


def drive(state: State, read: Callable[[str], str], told: list[str]) -> Move:
    """Ask until the person gives a move the referee accepts (what the harness does)."""
    while True:
        try:
            move = HUMAN.ask(state, RULES.to_move(state), read)
        except ValueError as exc:
            told.append(str(exc))
            continue
        reason = RULES.check(state, move)
        if reason is None:
            return move
        told.append(reason)


def test_the_prompts_are_the_seeds() -> None:
    read = Script(["1", "1"])
    assert ask(START, 0, read) == (1, 1)
    assert read.prompts == ["Choose row: ", "Choose column: "] == [ROW_PROMPT, COLUMN_PROMPT]


@pytest.mark.parametrize(("lines", "move"), [
    (["4", "5"], (4, 5)),
    ([" 4 ", "\t5\n"], (4, 5)),  # spaces and the line's end are not part of the number
    (["+3", "0"], (3, 0)),
    (["-1", "0"], (-1, 0)),  # a number: the referee judges it
    (["007", "2"], (7, 2)),
])
def test_numbers_are_read(lines: list[str], move: Move) -> None:
    assert ask(START, 0, Script(lines)) == move


@pytest.mark.parametrize(("lines", "reason", "prompts"), [
    (["x"], "the row must be a whole number, got 'x'", 1),
    ([""], "the row must be a whole number, got nothing", 1),
    (["   "], "the row must be a whole number, got nothing", 1),
    (["1.0"], "the row must be a whole number, got '1.0'", 1),
    (["1 1"], "the row must be a whole number, got '1 1'", 1),
    (["4_0"], "the row must be a whole number, got '4_0'", 1),  # int() would take it as 40
    (["\u0664"], "the row must be a whole number, got '\u0664'", 1),  # int() would take it as 4
    (["1", "one"], "the column must be a whole number, got 'one'", 2),
    (["1", "x" * 30], "the column must be a whole number, got '" + "x" * 20 + "...'", 2),
])
def test_unreadable_input_is_refused_with_a_reason(lines: list[str], reason: str, prompts: int) -> None:
    read = Script(lines)
    with pytest.raises(ValueError) as info:
        ask(START, 0, read)
    assert str(info.value) == reason
    assert len(read.prompts) == prompts  # refused at once: a bad row is not followed by the column


def test_refused_input_and_refused_moves_are_asked_again() -> None:
    read = Script(["a", "1", "b", "9", "0", "1", "1", "4", "4"])
    told: list[str] = []
    assert drive(AFTER_1_1, read, told) == (4, 4)
    assert told == ["the row must be a whole number, got 'a'",
                    "the column must be a whole number, got 'b'",
                    "row 9 is off the 5x6 board (rows 0..4)",
                    "cell (1, 1) is already blocked"]
    assert read.prompts == [ROW_PROMPT, ROW_PROMPT, COLUMN_PROMPT] + [ROW_PROMPT, COLUMN_PROMPT] * 3


@pytest.mark.parametrize(("move", "name", "line"), [
    ((4, 5), "Computer", "Computer chose row 4 and column 5."),
    ((0, 3), "Computer", "Computer chose row 0 and column 3."),  # the seed's "Príklad výpisu"
    ((4, 0), "Computer 2", "Computer 2 chose row 4 and column 0."),
])
def test_narration_is_the_seeds_line(move: Move, name: str, line: str) -> None:
    assert narrate(AFTER_1_1, move, name) == line


def test_the_announcement_names_who_cannot_move_and_who_won() -> None:
    end = State.from_lines(["XXXXXX"] * 5, turn=1, ply=5)
    assert announce(end, ["Human", "Computer"]) == "Computer cannot choose free field. Human won."
    end0 = State.from_lines(["XXX"] * 3, turn=0, ply=2)
    assert announce(end0, ["Human", "Computer"]) == "Human cannot choose free field. Computer won."
    assert announce(AFTER_1_1, ["Human", "Computer"]) == "The game was stopped with 21 free fields left."
    one = State.from_lines(["X-X"], turn=0)
    assert announce(one, ["A", "B"]) == "The game was stopped with 1 free field left."


def test_the_interface_is_the_games() -> None:
    assert HUMAN.ask is ask and HUMAN.narrate is narrate and HUMAN.announce is announce
