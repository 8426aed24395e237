"""Replays of recorded games: every position re-derived by the referee, drawn, and a viewer page.

A :class:`GameRecord` stores the moves, not the positions. :func:`replay_positions` replays the
moves through the game's referee exactly as :mod:`harness.match` played them (same settings,
same seeded ``random.Random``); :func:`replay_frames` draws each position with the game's
``render``; :func:`write_replay` writes one self-contained HTML page with the viewer.
"""

from __future__ import annotations

import json
import random
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from harness.games import UnknownGame, get_game
from harness.games.base import GameSpec
from harness.record import GameRecord, MoveRecord, Verdict, interpreter_text
from harness.report import delta
from harness.report.html import environment, script_json, write_page

MOVE_TEXT_CHARS = 300  # a move (or a rejected raw answer) is shown up to this many characters


@dataclass(frozen=True)
class Position:
    """One position of a replayed game.

    ``move`` is the answer that led here: an accepted move, or the rejected last answer (then
    the position is the one the bot failed to move from, and ``error`` says why). The start
    position has ``move=None``; so has a last position added only to show a verdict that came
    without an answer (an exception, a timeout, a crash).
    """

    ply: int  # accepted moves before this position
    state: Any
    move: MoveRecord | None = None
    highlight: Any = None  # ``move`` decoded for the renderer, None when not decodable
    error: str = ""


@dataclass
class Replay:
    """The positions of a game and, if the replay stopped early, why."""

    game: GameSpec | None
    positions: list[Position] = field(default_factory=list)
    problem: str = ""  # "" when every recorded move replayed


def verdict_lines(record: GameRecord) -> list[str]:
    """``"login: verdict: reason"`` for each player whose verdict is not ``ok``."""
    return [f"{p.login}: {p.verdict.value}{': ' + p.reason if p.reason else ''}"
            for p in record.players if p.verdict is not Verdict.OK]


def _decode(game: GameSpec, answer: Any) -> Any:
    try:
        return game.rules.move_from_json(answer)
    except Exception:  # noqa: BLE001 - a raw rejected answer need not be a move at all
        return None


def replay_positions(record: GameRecord, game: GameSpec | None = None) -> Replay:
    """Replay ``record`` through its game's referee (as :func:`harness.match.play_match` did).

    Never raises for a bad record: a game that is not installed, a move the referee no longer
    accepts, or a failing referee end the replay early with ``problem`` saying why.
    """
    if game is None:
        try:
            game = get_game(record.game)
        except UnknownGame as exc:
            return Replay(None, problem=str(exc))
    rules = game.rules
    replay = Replay(game)
    errors = "; ".join(verdict_lines(record))
    try:
        state = rules.initial(record.settings, random.Random(record.seed))
        replay.positions.append(Position(0, state))
        ply = 0
        for number, move in enumerate(record.moves, start=1):
            if not move.accepted:
                replay.positions.append(Position(ply, state, move, _decode(game, move.answer), errors))
                return replay
            decoded = rules.move_from_json(move.answer)
            reason = rules.check(state, decoded)
            if reason is not None:
                replay.problem = f"recorded move {number} is refused by the referee now: {reason}"
                return replay
            state = rules.apply(state, decoded)
            ply += 1
            replay.positions.append(Position(ply, state, move, decoded))
    except Exception as exc:  # noqa: BLE001 - a broken record or referee must not break a report
        replay.problem = f"the replay failed: {type(exc).__name__}: {exc}"
        return replay
    if errors:
        replay.positions.append(Position(ply, state, None, None, errors))
    return replay


@dataclass(frozen=True)
class Frame:
    """One step of the viewer: a drawn position and what led to it."""

    ply: int
    svg: str  # "" when the game has no renderer or drawing failed
    text: str  # the game's one-line description of the position, if it has one
    player: int | None  # who answered (None for the start and for a verdict-only frame)
    move: str  # the answer as JSON text ("" for none)
    accepted: bool
    wall: float | None
    cpu: float | None
    score: tuple[float, ...]
    error: str


class FrameRenderer:
    """Draws positions, remembering recent drawings: tournaments repeat many positions.

    States that cannot be hashed are simply drawn every time.
    """

    def __init__(self, size: int = 4096) -> None:
        self.size = size
        self._cache: OrderedDict[Any, str] = OrderedDict()
        self.drawn = 0  # drawings actually made (for benchmarks)

    def svg(self, game: GameSpec, state: Any, highlight: Any, highlight_key: str | None) -> str:
        """The game's SVG of ``state`` with ``highlight``; ``""`` if there is none or it fails."""
        if game.render is None:
            return ""
        try:
            key: Any = (game.name, state, highlight_key)
            hash(key)
        except TypeError:
            key = None
        if key is not None and key in self._cache:
            self._cache.move_to_end(key)
            return self._cache[key]
        self.drawn += 1
        try:
            drawing = _with_xmlns(game.render(state, highlight))
        except Exception:  # noqa: BLE001 - e.g. a highlight of a rejected move it cannot draw
            try:
                drawing = _with_xmlns(game.render(state, None)) if highlight is not None else ""
            except Exception:  # noqa: BLE001
                drawing = ""
        if key is not None:
            self._cache[key] = drawing
            if len(self._cache) > self.size:
                self._cache.popitem(last=False)
        return drawing


def _with_xmlns(svg: str) -> str:
    # An SVG shown through <img> must declare its namespace.
    if svg.lstrip().startswith("<svg") and "xmlns=" not in svg.split(">", 1)[0]:
        return svg.replace("<svg", '<svg xmlns="http://www.w3.org/2000/svg"', 1)
    return svg


def move_text(answer: Any) -> str:
    """An answer as short JSON text (a raw rejected answer may be anything JSON)."""
    text = json.dumps(answer, ensure_ascii=False, default=str)
    return text if len(text) <= MOVE_TEXT_CHARS else text[:MOVE_TEXT_CHARS] + "..."


def frames_of(record: GameRecord, replay: Replay, renderer: FrameRenderer | None = None) -> list[Frame]:
    """The viewer's frames for the positions of ``replay``."""
    renderer = renderer or FrameRenderer()
    game = replay.game
    if game is None:
        return []
    frames: list[Frame] = []
    for pos in replay.positions:
        mtext = "" if pos.move is None else move_text(pos.move.answer)
        if pos.move is None and pos.error and frames:
            svg = frames[-1].svg  # a verdict without an answer: the position has not changed
        else:
            svg = renderer.svg(game, pos.state, pos.highlight, mtext or None)
        text = ""
        if game.describe is not None:
            try:
                text = game.describe(pos.state, [p.login for p in record.players])
            except Exception:  # noqa: BLE001
                text = ""
        if pos.move is not None and pos.move.accepted and pos.move.score:
            score = tuple(pos.move.score)
        else:
            try:
                score = tuple(game.rules.scores(pos.state))
            except Exception:  # noqa: BLE001
                score = ()
        m = pos.move
        frames.append(Frame(pos.ply, svg, text, None if m is None else m.player, mtext,
                            m is None or m.accepted, None if m is None else m.wall,
                            None if m is None else m.cpu, score, pos.error))
    return frames


def replay_frames(record: GameRecord, renderer: FrameRenderer | None = None) -> list[Frame]:
    """Every position of the game, drawn: the start, one per move, and the error if any."""
    return frames_of(record, replay_positions(record), renderer)


def viewer_data(record: GameRecord, frames: Sequence[Frame], start: int = 0) -> dict[str, Any]:
    """The JSON the viewer script reads: each distinct SVG once (see :mod:`.delta`), frames pointing at them."""
    svgs: list[str] = []
    index: dict[str, int] = {}
    rows = []
    for f in frames:
        s = -1
        if f.svg:
            s = index.setdefault(f.svg, len(svgs))
            if s == len(svgs):
                svgs.append(f.svg)
        rows.append({"s": s, "ply": f.ply, "t": f.text, "p": f.player, "m": f.move, "ok": f.accepted,
                     "w": f.wall, "c": f.cpu, "sc": list(f.score), "e": f.error})
    return {"players": [p.login for p in record.players], "svgs": delta.encode(svgs), "frames": rows,
            "start": max(0, min(start, len(frames) - 1))}


def render_replay(record: GameRecord, *, nav: Sequence[tuple[str, str]] = (), start: int | None = None,
                  renderer: FrameRenderer | None = None, replay: Replay | None = None, public: bool = False) -> str:
    """The HTML of the viewer page of ``record`` (``nav``: (label, href) links in its header).

    ``start`` is the frame shown first (negative counts from the end); by default the last
    frame when a verdict ended the game (the error is what one wants to see), else the start.
    """
    replay = replay or replay_positions(record)
    frames = frames_of(record, replay, renderer)
    title = replay.game.title if replay.game is not None else record.game
    if start is None:
        start = -1 if verdict_lines(record) else 0
    data = viewer_data(record, frames, start if start >= 0 else len(frames) + start)
    return environment().get_template("replay.html.j2").render(
        scripts=["replay.js"], record=record, title=title, frames=frames, problem=replay.problem, nav=list(nav),
        data=script_json(data), verdicts=verdict_lines(record), outcome=outcome_text(record),
        settings=json.dumps(shown_settings(record, replay), sort_keys=True, ensure_ascii=False), public=public,
        played=played_text(record), judges=judges_of(record),
        cut_short=any(p.verdict.charged for p in record.players))


def judges_of(record: GameRecord) -> list[tuple[str, str]]:
    """Each interpreter that ran a bot of ``record`` (as text) and whose bots it ran ("" for all)."""
    ran: dict[str, list[str]] = {}
    for p in record.players:
        if p.interpreter:
            ran.setdefault(interpreter_text(p.interpreter), []).append(p.login)
    if len(ran) == 1 and sum(map(len, ran.values())) == len(record.players):
        return [(next(iter(ran)), "")]
    return [(text, ", ".join(logins)) for text, logins in ran.items()]


def shown_settings(record: GameRecord, replay: Replay) -> dict[str, Any]:
    """The game's settings as asked for (``record.requested``). In a record from before resolved
    settings, a setting left open (``null``, e.g. a random Štreky board's ``rows``) shows the
    value the start position actually has."""
    start = replay.positions[0].state if replay.positions else None
    return {key: getattr(start, key, None) if value is None and start is not None else value
            for key, value in (record.requested or record.settings).items()}


def played_text(record: GameRecord) -> str:
    """The resolved settings (what was played: e.g. the board and the dealt cards), one setting
    a line and a list's items one a line; ``""`` when they are the settings asked for."""
    if record.requested is None or record.settings == record.requested:
        return ""
    lines = []
    for key, value in sorted(record.settings.items()):
        if isinstance(value, list) and value and all(isinstance(v, list) for v in value):
            items = [json.dumps(v, separators=(",", ":")) for v in value]
            lines.append(f"{key}: {len(value)}\n" + "\n".join(f"  {i}: {item}" for i, item in enumerate(items)))
        else:
            lines.append(f"{key}: {json.dumps(value, ensure_ascii=False)}")
    return "\n".join(lines)


def outcome_text(record: GameRecord) -> str:
    """``"alice wins"``, ``"brute wins: non_ascii forbidden"`` (won by the other's verdict),
    ``"draw"``, a finishing order, or ``"no result (harness error)"``."""
    if record.harness_fault:
        return "no result (harness error)"
    charged = [p for p in record.players if p.verdict.charged]
    against = ", ".join(f"{p.login} {p.verdict.value}" for p in charged)
    if record.winner is None:
        return f"no winner: {against}" if charged else "draw"
    text = f"{record.players[record.winner].login} wins"
    if charged:
        return f"{text}: {against}"
    if len(record.players) > 2 and record.order:
        return f"{text}; order: {', '.join(record.order)}"
    return text


REPLAY_TEXT_MOVES = 400  # a text replay keeps this many last moves (the ones before the end matter)


def replay_text(record: GameRecord, seat: int | None = None) -> str:
    """The game move by move as text, for a place that can show no replay page (Gradescope's
    ``results.json``, whose container and report are deleted after grading): the seed and what
    was played, one line a move (ply, who, the answer, its CPU time, the scores), the rejected
    answer marked, and how it ended. ``seat``'s lines are marked ``>`` (the student's own)."""
    logins = [p.login for p in record.players]
    lines = [f"seed {record.seed}; seats: " + ", ".join(f"{i} {login}" for i, login in enumerate(logins))]
    played = played_text(record)
    if played:
        lines.append(played)
    moves = record.moves
    if len(moves) > REPLAY_TEXT_MOVES:
        lines.append(f"... {len(moves) - REPLAY_TEXT_MOVES} earlier moves not shown")
    first = max(0, len(moves) - REPLAY_TEXT_MOVES)
    ply = sum(1 for m in moves[:first] if m.accepted)
    for move in moves[first:]:
        who = logins[move.player] if 0 <= move.player < len(logins) else f"seat {move.player}"
        mark = ">" if move.player == seat else " "
        cpu = f"{move.cpu:.3f} s" if move.cpu is not None else f"{move.wall:.3f} s wall"
        score = f"; score {' : '.join(f'{x:g}' for x in move.score)}" if move.score else ""
        if move.accepted:
            ply += 1
            lines.append(f"{mark}{ply:4d}. {who}: {move_text(move.answer)} ({cpu}{score})")
        else:
            lines.append(f"{mark}   x  {who}: {move_text(move.answer)} ({cpu}): REJECTED")
    lines += [f"  {v}" for v in verdict_lines(record)]
    lines.append(f"  result: {outcome_text(record)}")
    return "\n".join(lines)


def write_replay(record: GameRecord, path: str | Path, *, start: int | None = None) -> Path:
    """Write the self-contained viewer page of one game to ``path``; returns the path.

    ``start`` is the frame shown first (see :func:`render_replay`).
    """
    path = Path(path)
    write_page(path, render_replay(record, start=start))
    return path
