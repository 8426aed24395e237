"""The trust boundary: nothing a bot's process says decides a verdict the parent did not reach itself.

Each ``trust_*`` bot attacks the reply channel or the worker's own path from inside its process
(a replaced ``json.dumps``, a raised cap of the worker, a forged frame, a hook on its bot API
class, code on the worker's clock thread). Each plays PriemSpel against the seed's basic
strategy through real subprocesses, under bubblewrap where it works and in plain mode (a few
also without cgroups). Both verdicts are pinned (the legal opponent is always ``ok``), and
nothing of the bot survives.

What the parent accepts from a child: an answer (decoded under its own depth, node and size
caps: a failure is the bot's ``bad_answer``), or the report of a failure that charges the bot
(``exception``, ``forbidden``, ``timeout``, ``memory``, ``crash``, ``bad_answer``). A reply that
names any other verdict (``harness_error``, ``ok``, ``illegal_move``, a made-up name) or that does
not have the worker's shape is tampering: ``forbidden``.
"""

from __future__ import annotations

import random
import re
import textwrap
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import pytest

from harness.config import load_config
from harness.games import game_names, get_game
from harness.games.base import BadAnswer, WireObject
from harness.match import play_match
from harness.record import Verdict
from harness.sandbox import Limits
from harness.tournament.execute import LocalExecutor, run_job
from harness.tournament.formats import job_results
from harness.tournament.store import ResultsStore
from tests.hostile.conftest import HOSTILE, REPO, Arena

GAME = get_game("priemspel")
BASIS = (REPO / "reference_players/priemspel/basis.py").read_bytes()
SLOW = (HOSTILE.parent / "opponents" / "slow_basis.py").read_bytes()
LIMITS = Limits(init=2.0, move=2.0)  # these bots attack the channel, not the clock: a busy machine must not matter
V = Verdict
TAMPER = r": the bot tampered with the harness's reply channel$"
WHERE = r" \(player\.py line \d+ in \w+\)"


@dataclass(frozen=True)
class Case:
    """One trust bot's pinned outcome (the opponent's is always ``ok``)."""

    verdict: Verdict
    reason: str  # a regular expression the reason must match
    limits: dict[str, Any] = field(default_factory=dict)
    slow_opponent: bool = False  # play against a basis that sleeps 0.4 s per move
    not_in_stdout: str = ""  # what the bot prints if its code ran where it must not


CORPUS: dict[str, Case] = {
    # verdicts the child names
    "trust_claims_harness_error": Case(V.FORBIDDEN, r"^zet\(\): a reply that names the verdict 'harness_error'" + TAMPER),
    "trust_unknown_verdict": Case(V.FORBIDDEN, r"^zet\(\): a reply that names the verdict 'cosmic_ray'" + TAMPER),
    "trust_claims_illegal_move": Case(V.FORBIDDEN, r"^zet\(\): a reply that names the verdict 'illegal_move'" + TAMPER),
    "trust_claims_ok_verdict": Case(V.FORBIDDEN, r"^zet\(\): a reply that names the verdict 'ok'" + TAMPER),
    "trust_truthy_ok": Case(V.FORBIDDEN, r"^zet\(\): a reply whose 'ok' is not true or false" + TAMPER),
    "trust_forged_verdict_frame": Case(V.FORBIDDEN, r"^zet\(\): a reply that names the verdict 'harness_error'" + TAMPER),
    "trust_deep_seq": Case(V.FORBIDDEN, r"^zet\(\): a reply out of sequence \(seq a list, expected \d+\)" + TAMPER),
    "trust_deep_reason": Case(V.FORBIDDEN, r"^zet\(\): a reply whose reason is not text" + TAMPER),
    "trust_forged_info": Case(V.OK, r"^$"),  # the parent keeps a short name and nothing else
    # the parent's clocks, not the child's word
    # (a long grace: the worker's late reply, not the parent's own deadline, is what is judged; on a loaded
    # machine the clock thread's report, forged into "ok", can come late, and the bot's own 5 s answer is under 10 s.
    # With every core held by the suite and busy loops (load 16), no reply came within the parent's own deadline
    # once in a run: the forged "ok" never arrived, and the parent's deadline judged; the verdict is the same.)
    "trust_claims_ok_late": Case(V.TIMEOUT, r"^zet\(\) (took \d\.\d+ s of wall-clock time, over the 0\.5 s limit"
                                            r"( \(.* waiting for a CPU, not counted\))?|did not return within 0\.5 s; "
                                            r"killed after \d+\.\d+ s, having used \d+\.\d+ s of CPU time)$",
                                 limits={"move": 0.5, "grace": 10.0}),
    # answers past the parent's own caps
    "trust_deep_reply": Case(V.BAD_ANSWER, r"^zet\(\) returned answer nested deeper than 64 levels$"),
    "trust_deep_tuple_reply": Case(V.BAD_ANSWER, r"^zet\(\) returned answer nested deeper than 64 levels$"),
    "trust_very_deep_reply": Case(V.BAD_ANSWER, r"^zet\(\) returned an answer that cannot be decoded \(nested too deeply\)$"),
    # (encoding these takes the bot's process a while: a limit a loaded machine cannot break)
    "trust_wide_reply": Case(V.BAD_ANSWER, r"^zet\(\) returned answer too large \(more than 20000 values\)$",
                             limits={"move": 10.0}),
    "trust_huge_reply": Case(V.FORBIDDEN, r"^a reply frame of \d+ bytes, over the cap of \d+ bytes" + TAMPER,
                             limits={"move": 10.0}),
    "trust_big_int": Case(V.BAD_ANSWER, r"^zet\(\) returned answer contains an integer with more than 256 bits$"),
    "trust_nan_reply": Case(V.BAD_ANSWER, r"^zet\(\) returned an answer that cannot be decoded \(NaN is not a number JSON allows\)$"),
    # the worker's own path
    "trust_new_hook": Case(V.OK, r"^$", not_in_stdout="hook ran"),  # objects are built with object.__new__
    "trust_del_hook": Case(V.OK, r"^$", not_in_stdout="worker's thread"),  # the bot's objects die on its own thread
    # The two gc-callback bots are reported by the worker's clock thread, which must win the GIL
    # from a spinning bot thread for each of its steps: a loaded machine can stretch that to seconds.
    "trust_gc_read": Case(V.FORBIDDEN, r"^reading '/etc/hostname' \(outside the bot's own files\) is not allowed" + WHERE,
                          limits={"move": 0.3, "grace": 10.0}),
    "trust_gc_threads": Case(V.FORBIDDEN, r"^starting more than 6 threads is not allowed" + WHERE, limits={"move": 0.3, "grace": 10.0}),
    "trust_thread_chain": Case(V.FORBIDDEN, r"^starting more than 6 threads is not allowed" + WHERE),
    "trust_violation_between_calls": Case(V.FORBIDDEN, r"^reading '/etc/hostname' \(outside the bot's own files\) is not allowed"
                                          + WHERE, limits={"pause": False}, slow_opponent=True),
    # reasons name a real place
    "trust_nested_loop_timeout": Case(V.TIMEOUT, r"^zet\(\) did not return within 0\.5 s \(stuck at player\.py line \d+ in "
                                                 r"check_touch\)", limits={"move": 0.5, "grace": 3.0}),
}
MODES = {"auto": {}, "plain": {"isolation": "plain"}, "bare": {"isolation": "plain", "cgroups": False}}
# Also without cgroups (a laptop): the guard's thread cap is then the only one, and the CPU figure
# the worker reports is cross-checked with /proc only.
BARE = ("trust_gc_threads", "trust_thread_chain", "trust_new_hook", "trust_claims_harness_error", "trust_nan_reply",
        "trust_deep_reply")
CASES = [(name, mode) for name in sorted(CORPUS) for mode in MODES if mode != "bare" or name in BARE]


def play(arena: Arena, name: str, mode: str) -> Any:
    case = CORPUS[name]
    limits = replace(LIMITS, **{**MODES[mode], **case.limits})
    return play_match(GAME, [arena.source(name), SLOW if case.slow_opponent else BASIS], seed=1,
                      logins=["hostile", "basis"], limits=limits)


@pytest.mark.parametrize(("name", "mode"), CASES)
def test_trust_bot_gets_its_pinned_verdict(name: str, mode: str, arena: Arena, no_leftovers: None) -> None:
    case = CORPUS[name]
    record = play(arena, name, mode)
    me, other = record.players
    assert (me.verdict, other.verdict) == (case.verdict, V.OK), me.reason
    assert re.search(case.reason, me.reason), me.reason
    assert not record.harness_fault
    if case.not_in_stdout:
        assert case.not_in_stdout not in me.stdout, me.stdout
    if case.verdict is V.OK:
        assert record.end == "rules"
        assert len(me.bot_name) <= 200
    else:
        assert record.winner == 1 and record.end == "verdict"
    arena.assert_intact()


def test_a_timeout_never_says_line_none(arena: Arena, no_leftovers: None) -> None:
    """The nested loop's back edge has no line in 3.11: the reason names the loop's real line."""
    record = play(arena, "trust_nested_loop_timeout", "auto")
    reason = record.players[0].reason
    assert "None" not in reason
    line = int(re.search(r"line (\d+) in check_touch", reason).group(1))
    source = arena.source("trust_nested_loop_timeout").decode().splitlines()
    first = next(i for i, text in enumerate(source, 1) if text.startswith("def check_touch"))
    assert first < line <= first + 5, (line, source[line - 1])  # inside check_touch's loops


def test_a_line_less_instruction_falls_back_to_a_real_line() -> None:
    """The worker's place finder: an instruction without a line (``tb_lineno``/``f_lineno`` None)
    gets the line of the nearest instruction before it that has one, inside the same function."""
    from harness.sandbox.bot.worker import line_of

    namespace: dict[str, Any] = {}
    exec(compile(textwrap.dedent("""
        def spin(grid, n):
            while True:
                for r in range(n):
                    for c in range(n):
                        if grid[r][c] and r > c:
                            break
    """), "<spin>", "exec"), namespace)
    code = namespace["spin"].__code__
    lineless = [start for start, _end, line in code.co_lines() if line is None and start > 0]
    assert lineless, "Python 3.11 gives a loop's back edge no line: this interpreter does not"
    for offset in lineless:
        assert line_of(code, offset, None) in range(3, 8)  # a line of spin's body
    assert line_of(code, lineless[0], 42) == 42  # a line that is there is kept
    assert line_of(code, 0, None) == code.co_firstlineno


def _odd_answers() -> list[Any]:
    """Values a forged reply can decode into: every shape the wire carries, at odd sizes and types."""
    deep: Any = 1
    for _ in range(60):
        deep = [deep]
    plain = [None, True, False, 0, -1, 1, 2, 3, 10 ** 70, -10 ** 70, 1.5, -0.0, 1e308, "", "a", "\ud800", "x" * 10_000]
    shapes = [[], (), {}, deep, {1: 2}, {"a": 1}, [[1, 2], [3, 4]], ((1, 2), (3, 4)), [(1, 2)], (1, 1, 1, 3),
              (1, 2, "h"), [0, 0, 0, 0], [None, None], ("1", "2"), (True, False), [1.5, 2.5], [10 ** 70, 0]]
    objects = [WireObject(None, {}, "m.X"), [WireObject(None, {}, "m.X")]]
    for name in ("Obstacle", "Piece", "Board", "Spel"):
        objects += [WireObject(name, {}, f"m.{name}"),
                    WireObject(name, {"fromx": "1", "fromy": None, "tox": [1], "toy": 1e308, "color": 10 ** 70,
                                      "position": -1, "id": (1,)}, f"m.{name}"),
                    WireObject(name, {"fromx": 1, "fromy": 1, "tox": 1, "toy": 3}, f"m.{name}")]
    return [*plain, *shapes, *[[v] for v in plain[:8]], *[(v, v) for v in plain[:8]], *objects]


@pytest.mark.parametrize("game_name", game_names())
def test_no_decodable_answer_makes_a_game_raise(game_name: str) -> None:
    """An answer reaches the game's adapter, then its referee: odd ones are a verdict, never a fault.

    An exception there would be a harness_error for both players, pushed by the bot's bytes.
    """
    game = get_game(game_name)
    rules, rng = game.rules, random.Random(1)
    state = rules.initial(rules.parse_settings({}), random.Random(1))
    for _ in range(12):
        if rules.is_over(state):
            break
        seat = rules.to_move(state)
        for answer in _odd_answers():
            move = game.adapter.decode(state, seat, answer)
            if not isinstance(move, BadAnswer):
                reason = rules.check(state, move)
                assert reason is None or isinstance(reason, str)
        state = rules.apply(state, rng.choice(list(rules.legal_moves(state))))


def test_a_tampering_bot_is_disqualified_in_a_tournament(tmp_path: Path, no_leftovers: None) -> None:
    """A bot that claims harness_error is charged, disqualified, and the job completes without retries."""
    subs = tmp_path / "submissions"
    for login, source in [("forger", (HOSTILE / "trust_claims_harness_error.py").read_bytes()),
                          ("cat", BASIS), ("ben", (REPO / "reference_players/priemspel/strategie.py").read_bytes())]:
        (subs / login).mkdir(parents=True)
        (subs / login / "player.py").write_bytes(source)
    config = tmp_path / "tournaments.yaml"
    config.write_text(textwrap.dedent("""
        jobs:
          rr:
            game: priemspel
            format: round_robin
            submissions: submissions
            settings: [{N: 5}]
            games: 1
            workers: 2
            limits: {init: 5, move: 5, backstop: 4}  # the legal bots must stay ok on a busy machine
            awards: {policy: tiers, tiers: [{rank: 1, points: 3}]}
    """))
    job = load_config(config).resolve("rr")[0]
    summary = run_job(job, LocalExecutor(2))
    assert summary.faults == 0 and summary.played == summary.total
    with ResultsStore(job.results, lock=False) as store:
        records = [r for _, r in store.records()]
    assert records and not any(r.harness_fault for r in records)
    forged = [r for r in records if "forger" in [p.login for p in r.players]]
    assert forged and all(p.verdict is (V.FORBIDDEN if p.login == "forger" else V.OK)
                          for r in forged for p in r.players)
    results = job_results(job)
    assert results.complete
    rows = {row.login: row for row in results.rows}
    assert rows["forger"].disqualified and not rows["cat"].disqualified and not rows["ben"].disqualified
