"""The parent's own budget: no reply and no source file a bot chooses costs the harness seconds or gigabytes.

Each ``budget_*`` bot attacks the parent's work rather than the sandbox: a reply whose value is a
dict of int keys that all hash to 0 (quadratic to build), sent forged or honestly, through an
answer the game uses or one it ignores (Quoridor's ``opponent_move``, Človeče's ``setattr``),
and a 4 MiB ``player.py`` that is one list literal (2 GB and 10 s to parse). Both (all) verdicts
are pinned, the legal opponents stay ``ok``, under bubblewrap where it works and in plain mode.
What each costs the parent is measured by ``bench/bench_parent_budget.py``, not timed here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from pathlib import Path

import pytest

from harness import door
from harness.games import get_game
from harness.match import play_match
from harness.record import Verdict
from harness.sandbox import Limits
from harness.submission import MAIN, MAX_FILE_BYTES, Submission
from tests.hostile.conftest import REPO, Arena

V = Verdict
LIMITS = Limits(init=3.0, move=3.0)  # the attacks are on the parent, not the clock: a busy machine must not matter
MODES = {"auto": {}, "plain": {"isolation": "plain"}}
PRIEM_BASIS = (REPO / "reference_players/priemspel/basis.py").read_bytes()
RUNNER = (REPO / "reference_players/quoridor/runner.py").read_bytes()
EAGER = (REPO / "reference_players/clovece/eager.py").read_bytes()
TAMPER = r": the bot tampered with the harness's reply channel$"


@dataclass(frozen=True)
class Case:
    """One budget bot's game and pinned outcome (every other seat is a reference player, ``ok``)."""

    game: str
    verdict: Verdict
    reason: str  # a regular expression the reason must match


BUDGET: dict[str, Case] = {
    "budget_forged_colliding_dict": Case("priemspel", V.BAD_ANSWER,
                                         r"^zet\(\) returned answer too large \(more than 20000 values\)$"),
    "budget_forged_colliding_parsed": Case("priemspel", V.BAD_ANSWER,
                                           r"^zet\(\) returned answer contains a dict of 20000 entries \(at most 256\)$"),
    "budget_colliding_keys": Case("priemspel", V.BAD_ANSWER,
                                  r"^zet\(\) returned answer contains a dict key that is not a str \(int\): "
                                  r"an answer's dict keys must be str$"),
    # opponent_move's answer is ignored: never decoded, so the bot plays its game out
    "budget_quoridor_ignored_answer": Case("quoridor", V.OK, r"^$"),
    # the forged setattr reply is not decoded; the worker's own reply then comes out of sequence
    "budget_clovece_forged_setattr": Case("clovece", V.FORBIDDEN,
                                          r"^get_move\(\): a reply out of sequence \(seq \d+, expected \d+\)" + TAMPER),
    "budget_one_literal": Case("priemspel", V.FORBIDDEN,
                               r"^player\.py: too large or complex to check: parsing it needs more than 1 GiB of memory "
                               r"\(a bot could not import it within its own limits either\)$"),
}
CASES = [(name, mode) for name in sorted(BUDGET) for mode in MODES]


def one_literal(arena: Arena) -> bytes:
    """budget_one_literal's source, its table filled up to the file cap."""
    text = arena.source("budget_one_literal")
    room = MAX_FILE_BYTES - len(text) + len(b"@TABLE@") - 16
    return text.replace(b"@TABLE@", b"0," * (room // 2))


def sources(arena: Arena, name: str) -> list[Submission]:
    """The bot's submission first, then the reference players of its game."""
    case = BUDGET[name]
    if name == "budget_one_literal":
        mine = Submission({MAIN: one_literal(arena)})
    elif case.game == "quoridor":
        mine = Submission({MAIN: arena.source(name), "runner.py": RUNNER})
    else:
        mine = Submission({MAIN: arena.source(name)})
    other = {"priemspel": PRIEM_BASIS, "quoridor": RUNNER, "clovece": EAGER}[case.game]
    game = get_game(case.game)
    return [mine, *[Submission({MAIN: other})] * (game.players - 1)]


@pytest.mark.parametrize(("name", "mode"), CASES)
def test_budget_bot_gets_its_pinned_verdict(name: str, mode: str, arena: Arena, no_leftovers: None) -> None:
    case = BUDGET[name]
    game = get_game(case.game)
    record = play_match(game, sources(arena, name), seed=1, limits=replace(LIMITS, **MODES[mode]),
                        logins=["hostile", *[f"ref{i}" for i in range(1, game.players)]])
    me, *others = record.players
    assert (me.verdict, *[p.verdict for p in others]) == (case.verdict, *[V.OK] * len(others)), \
        (me.reason, [p.reason for p in others])
    assert re.search(case.reason, me.reason), me.reason
    assert not record.harness_fault
    if case.verdict is V.OK:
        assert record.end == "rules" and record.plies > 2
    else:
        assert record.end == "verdict"
    arena.assert_intact()


def test_a_huge_source_is_parsed_once_in_a_child_never_in_the_parent(
        arena: Arena, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The 4 MiB literal: one capped child for two games (a fresh cache), none in a later run."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    door.forget()
    before = door.stats.children
    game = get_game("priemspel")
    counts = []
    for seed in (1, 2):
        record = play_match(game, sources(arena, "budget_one_literal"), seed=seed, limits=LIMITS)
        assert [p.verdict for p in record.players] == [V.FORBIDDEN, V.OK]
        counts.append(door.stats.children - before)
    assert counts == [2, 2]  # the bot's file and its opponent's, in the first game only
    door.forget()  # a later run of the harness: the disk cache answers
    record = play_match(game, sources(arena, "budget_one_literal"), seed=3, limits=LIMITS)
    assert [p.verdict for p in record.players] == [V.FORBIDDEN, V.OK] and door.stats.children == before + 2
