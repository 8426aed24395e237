"""The seed's example game (Human vs. Computer on 5x6), replayed move by move.

The seed prints the board after every move. Its boards are kept here verbatim, one string per
printed line. Seven of its printed rows are five dashes on a board of six columns (every
all-free row of the first two boards): a row of six ``-`` lost one in the text's conversion
(the same boards print six characters in every other row, and the game is "Set number of
columns: 6"). :func:`printed` restores exactly those rows, and checks that nothing else differs.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from harness.games.blokovanie import GAME
from harness.games.blokovanie.human import announce, ask, narrate
from harness.games.blokovanie.render import text
from harness.games.blokovanie.rules import RULES, State
from harness.inprocess import play
from harness.record import Verdict

# The seed's boards, verbatim: before the game, then after each of the five moves.
SEED_BOARDS = [
    ["-----", "-----", "-----", "-----", "-----"],
    ["XXX---", "XXX---", "XXX---", "-----", "-----"],
    ["XXX---", "XXX---", "XXX---", "----XX", "----XX"],
    ["XXXXXX", "XXXXXX", "XXXXXX", "----XX", "----XX"],
    ["XXXXXX", "XXXXXX", "XXXXXX", "XX--XX", "XX--XX"],
    ["XXXXXX", "XXXXXX", "XXXXXX", "XXXXXX", "XXXXXX"],
]
# Human (seat 0) then Computer (seat 1), alternately, as the seed's dialogue has them.
SEED_MOVES = [(1, 1), (4, 5), (1, 4), (4, 0), (4, 2)]
SEED_NARRATION = {1: "Computer chose row 4 and column 5.", 3: "Computer chose row 4 and column 0."}
SEED_LAST_LINE = "Computer cannot choose free field. Human won."
COLS = 6
SHORT_ROWS = 7  # the printed rows that lost a dash


def printed(seed_board: list[str], ours: list[str]) -> int:
    """Compare ``ours`` with the seed's printed board character by character; return how many of
    the seed's rows were the known short all-free row (equal to ours but for one missing dash)."""
    assert len(seed_board) == len(ours)
    short = 0
    for seed_row, row in zip(seed_board, ours):
        if seed_row == row:
            continue
        assert set(seed_row) == {"-"} and len(seed_row) == COLS - 1 and row == "-" * COLS, (seed_row, row)
        short += 1
    return short


def test_every_board_of_the_seed_game_move_by_move() -> None:
    state = RULES.initial(RULES.parse_settings({"rows": 5, "cols": 6}), random.Random(0))
    short = printed(SEED_BOARDS[0], state.lines())
    for n, move in enumerate(SEED_MOVES):
        assert RULES.to_move(state) == n % 2
        assert RULES.check(state, move) is None
        state = RULES.apply(state, move)
        short += printed(SEED_BOARDS[n + 1], state.lines())
        assert text(state) == "\n".join(state.lines())  # what the harness prints
        assert RULES.is_over(state) == (n == len(SEED_MOVES) - 1)
    assert short == SHORT_ROWS
    assert RULES.winner(state) == 0 and RULES.scores(state) == (1.0, 0.0)


def scripted(moves: list[tuple[int, int]], seen: list[list[str]]) -> type:
    """A bot class that plays ``moves`` in turn and records the boards it is given."""

    class Scripted:
        def __init__(self, name: str) -> None:
            self.name = name
            self.moves: Iterator[tuple[int, int]] = iter(moves)

        def move(self, board: list[str]) -> tuple[int, int]:
            seen.append(list(board))
            return next(self.moves)

    return Scripted


def test_the_seed_game_through_the_bot_interface() -> None:
    human_saw: list[list[str]] = []
    computer_saw: list[list[str]] = []
    result = play(GAME, [scripted(SEED_MOVES[0::2], human_saw), scripted(SEED_MOVES[1::2], computer_saw)],
                  {"rows": 5, "cols": 6}, logins=["Human", "Computer"])
    assert result.verdicts == [Verdict.OK, Verdict.OK] and result.winner == 0
    assert result.moves == SEED_MOVES
    # Each player is given the board as the seed printed it just before its move.
    assert sum(printed(seed, ours) for seed, ours in zip(SEED_BOARDS[0::2], human_saw)) == 5
    assert sum(printed(seed, ours) for seed, ours in zip(SEED_BOARDS[1::2], computer_saw)) == 2
    assert len(human_saw) == 3 and len(computer_saw) == 2


def test_the_seed_dialogue_line_by_line() -> None:
    """The seed's transcript from the first board on, built from the game's human interface and
    its text board the way the harness drives them: board, the person's prompts (echoed with
    the typed answer), board, the computer's line, board, ..., the last line."""
    names = ["Human", "Computer"]
    out: list[str] = []
    typed = iter(["1", "1", "1", "4", "4", "2"])

    def read(prompt: str) -> str:
        line = next(typed)
        out.append(prompt + line)
        return line

    state = RULES.initial(RULES.parse_settings({}), random.Random(0))
    out.extend(text(state).splitlines())
    for n, move in enumerate(SEED_MOVES):
        if n % 2 == 0:
            assert ask(state, 0, read) == move
        else:
            out.append(narrate(state, move, names[1]))
        state = RULES.apply(state, move)
        out.extend(text(state).splitlines())
    out.append(announce(state, names))

    seed: list[str] = list(SEED_BOARDS[0])
    for n, move in enumerate(SEED_MOVES):
        if n % 2 == 0:
            seed += [f"Choose row: {move[0]}", f"Choose column: {move[1]}"]
        else:
            seed.append(SEED_NARRATION[n])
        seed += SEED_BOARDS[n + 1]
    seed.append(SEED_LAST_LINE)
    assert len(out) == len(seed)
    short = 0
    for ours, theirs in zip(out, seed):
        if ours != theirs:
            short += printed([theirs], [ours])
    assert short == SHORT_ROWS


def test_the_last_board_leaves_the_computer_without_a_free_field() -> None:
    state = State.from_lines(SEED_BOARDS[4], turn=0, ply=4)
    assert RULES.legal_moves(state) == [(3, 2), (3, 3), (4, 2), (4, 3)]
    end = RULES.apply(state, (4, 2))
    assert RULES.legal_moves(end) == [] and RULES.to_move(end) == 1
    assert announce(end, ["Human", "Computer"]) == SEED_LAST_LINE
