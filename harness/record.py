"""Verdicts and the record of one game: the data every other part of the harness consumes."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from enum import Enum
from typing import Any


class Verdict(str, Enum):
    """The closed set of outcomes for one player in one game.

    Every verdict except ``OK`` is charged to the bot, except ``HARNESS_ERROR``, which is the
    harness's own fault and is never counted against a bot.
    """

    OK = "ok"
    ILLEGAL_MOVE = "illegal_move"  # the referee rejected a decoded move (reason: the referee's)
    BAD_ANSWER = "bad_answer"  # the answer could not be decoded into a move (wrong type/shape)
    EXCEPTION = "exception"  # the bot raised (reason: exception and where)
    TIMEOUT = "timeout"  # a call exceeded its limit (reason: which call, how long, where)
    CRASH = "crash"  # the bot's process ended (exit code or signal, sys.exit)
    MEMORY = "memory"  # the bot exceeded its memory cap
    FORBIDDEN = "forbidden"  # import policy, non-ASCII source, process creation, escape attempt
    HARNESS_ERROR = "harness_error"  # the harness failed; never charged to a bot

    @property
    def charged(self) -> bool:
        """True if this verdict counts against the bot."""
        return self not in (Verdict.OK, Verdict.HARNESS_ERROR)


@dataclass
class PlayerRecord:
    """One player's part of a game: who, what code, and the verdict."""

    login: str
    sha256: str
    verdict: Verdict = Verdict.OK
    reason: str = ""
    bot_name: str = ""  # what the bot calls itself (Štreky's playerName, Quoridor's version)
    stdout: str = ""
    stderr: str = ""
    cpu: float = 0.0  # CPU seconds of all its calls
    max_wall: float = 0.0  # its slowest call, seconds
    traceback: str = ""
    # What caused a ``harness_error`` that is not the harness's own failure: ``"host_oom"``, the
    # kernel's OOM killer killed this bot's process under its own memory cap (its own cgroup's
    # evidence). A game replayed once for a bot's process is not replayed again for it.
    cause: str = ""
    # The interpreter that ran this bot, as the machine that played the game saw it (the judge's
    # clock): ``path``, ``version``, ``implementation``, ``build`` and the isolation ``tier``; ``{}``
    # for a person at the terminal and in records made before the field.
    interpreter: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["verdict"] = self.verdict.value
        for name in ("cause", "interpreter"):  # only when set: older records and their exports are unchanged
            if not data[name]:
                del data[name]
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> PlayerRecord:
        return cls(**{**data, "verdict": Verdict(data["verdict"])})


def interpreter_text(info: dict[str, Any], host: str = "") -> str:
    """A player's ``interpreter`` for people: ``/usr/bin/python3.11 (CPython 3.11.2; GCC 12.2.0, -O2,
    shared), bubblewrap tier``, and ``on HOST`` if given ("" for a record without one)."""
    if not info:
        return ""
    impl = str(info.get("implementation", ""))
    name = {"cpython": "CPython", "pypy": "PyPy"}.get(impl, impl)
    text = f"{info.get('path', '?')} ({name} {info.get('version', '')}; {info.get('build', '')})"
    if info.get("tier"):
        text += f", {info['tier']} tier"
    return text + (f", on {host}" if host else "")


@dataclass
class MoveRecord:
    """One accepted (or the one rejected, last) answer of a player, with its timing."""

    player: int
    answer: Any  # the decoded move as JSON (the game's move_to_json), or the raw answer if rejected
    wall: float
    cpu: float | None
    score: tuple[float, ...] = ()  # every player's score after the move
    accepted: bool = True
    # The bot's own part of ``wall``: less the time it waited for a CPU others held (what the wall
    # clocks judge; see harness.sandbox.bot.deadline). None where it is all of ``wall`` (and in older records).
    own: float | None = None

    def to_json(self) -> dict[str, Any]:
        data = {"player": self.player, "answer": self.answer, "wall": round(self.wall, 6),
                "cpu": None if self.cpu is None else round(self.cpu, 6),
                "score": list(self.score), "accepted": self.accepted}
        if self.own is not None and round(self.own, 6) != data["wall"]:  # a quiet machine's records are unchanged
            data["own"] = round(self.own, 6)
        return data

    @property
    def own_time(self) -> float:
        """The seconds of this answer that were the bot's own (its wall-clock time where nothing waited)."""
        return self.wall if self.own is None else self.own

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> MoveRecord:
        return cls(data["player"], data["answer"], data["wall"], data["cpu"],
                   tuple(data.get("score", ())), data.get("accepted", True), data.get("own"))


@dataclass
class GameRecord:
    """Everything about one game: enough to rank it, replay it, and audit it.

    ``settings`` are what was played: for a game with a random or hidden setup, the resolved
    ones (e.g. Štreky's board and dealt cards; see :func:`harness.games.base.resolved_settings`),
    so the record alone rebuilds the start. ``requested`` are the settings the job or the command
    asked for (e.g. ``cards: random``); records from before resolved settings have only those,
    and there both are the same.
    """

    game: str
    settings: dict[str, Any]
    seed: int
    players: list[PlayerRecord]
    winner: int | None = None
    scores: tuple[float, ...] = ()
    places: tuple[int, ...] = ()  # each seat's finishing place, 1 = first (ties share); () if unknown
    plies: int = 0
    moves: list[MoveRecord] = field(default_factory=list)
    end: str = ""  # why it ended: "rules", "verdict", "ply cap", "harness error"
    transcript: list[str] = field(default_factory=list)  # the game's own notation, if it has one
    limits: dict[str, Any] = field(default_factory=dict)
    harness_version: str = ""
    started: float = 0.0  # Unix time
    duration: float = 0.0  # seconds
    host: str = ""  # the machine and process that played it ("host:pid"), for audits of a cluster run
    requested: dict[str, Any] | None = None  # the settings asked for; None: the same as ``settings``
    # The earlier attempts of this game that ended in a harness_error caused by a bot's process
    # (``cause`` set) and were replayed: ``{"login", "cause", "reason"}`` each, oldest first.
    replays: list[dict[str, Any]] = field(default_factory=list)

    def __post_init__(self) -> None:
        if self.requested is None:
            self.requested = self.settings

    @property
    def harness_fault(self) -> bool:
        """True if the harness failed in this game (it is then retried, never charged)."""
        return any(p.verdict is Verdict.HARNESS_ERROR for p in self.players)

    @property
    def machine(self) -> str:
        """The host name of the machine that played it ("" if unknown)."""
        return self.host.rsplit(":", 1)[0] if self.host else ""

    @property
    def order(self) -> list[str]:
        """The logins in finishing order, best first (seat order among equal places)."""
        if len(self.places) != len(self.players):
            return []
        return [self.players[i].login for i in sorted(range(len(self.players)), key=lambda i: self.places[i])]

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, "settings": self.settings, "seed": self.seed,
                "players": [p.to_json() for p in self.players], "winner": self.winner,
                "scores": list(self.scores), "places": list(self.places), "order": self.order,
                "plies": self.plies,
                "moves": [m.to_json() for m in self.moves], "end": self.end,
                "transcript": self.transcript, "limits": self.limits,
                "harness_version": self.harness_version, "started": self.started,
                "duration": round(self.duration, 6), "host": self.host, "requested": self.requested,
                **({"replays": self.replays} if self.replays else {})}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GameRecord:
        return cls(game=data["game"], settings=data["settings"], seed=data["seed"],
                   players=[PlayerRecord.from_json(p) for p in data["players"]],
                   winner=data["winner"], scores=tuple(data["scores"]),
                   places=tuple(data.get("places", ())), plies=data["plies"],
                   moves=[MoveRecord.from_json(m) for m in data["moves"]], end=data.get("end", ""),
                   transcript=list(data.get("transcript", [])), limits=data.get("limits", {}),
                   harness_version=data.get("harness_version", ""),
                   started=data.get("started", 0.0), duration=data.get("duration", 0.0),
                   host=data.get("host", ""), requested=data.get("requested"),
                replays=list(data.get("replays", [])))
