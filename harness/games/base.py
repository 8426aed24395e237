"""The contract every game implements, and the small types shared by games and the harness.

A game is a package ``harness.games.<name>`` whose ``__init__`` exposes ``GAME``, a
:class:`GameSpec`. The spec ties together four parts that never know about processes:

* ``rules`` (:class:`Rules`): the pure referee. No I/O, no clock, no randomness except the
  ``random.Random`` handed to :meth:`Rules.initial`. The only authority on the rules.
* ``adapter`` (:class:`Adapter`): how a referee state becomes the method calls the students'
  interface prescribes, and how a bot's answer (already decoded from the wire into plain
  Python values, see :mod:`harness.sandbox.bot.wire`) becomes a referee move, or a
  :class:`BadAnswer`.
* ``botapi_dir``: the folder holding the exact modules students import (``base.py``,
  ``obstacle.py`` ...). It is put on the bot's ``sys.path`` in the sandbox.
* ``render``: a position as SVG.

The sandbox, the match runner and the tournament code only use this contract, so a new game is
added by adding its package; nothing else changes (the registry discovers packages).
"""

from __future__ import annotations

import importlib.util
import random
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any, Generic, Protocol, TypeVar

from harness.games.battery import Battery
from harness.games.calls import Call

S = TypeVar("S")  # a game's state type
M = TypeVar("M")  # a game's move type

JSON = Any  # a value that json.dumps accepts


class SettingsError(ValueError):
    """A game setting is missing, unknown or has a bad value; the message names the key."""


@dataclass(frozen=True)
class WireObject:
    """An instance of a class the game lets cross the process boundary (e.g. ``Obstacle``).

    ``cls`` is the wire name declared in :attr:`GameSpec.wire_classes`, or ``None`` when the
    bot returned an object of some other class (then ``type_name`` says which class, so the
    adapter can reject a look-alike class with a precise reason). ``fields`` holds the
    object's public attributes as decoded wire values.
    """

    cls: str | None
    fields: Mapping[str, Any] = field(default_factory=dict)
    type_name: str = ""


@dataclass(frozen=True)
class BadAnswer:
    """The bot's answer could not be decoded into a move (wrong type or shape)."""

    reason: str


@dataclass(frozen=True)
class PlayedMove(Generic[M]):
    """A move the referee accepted: who made it and what it was."""

    player: int
    move: M


class Rules(Protocol[S, M]):
    """The pure referee of a game. States are immutable (or never mutated after creation)."""

    def parse_settings(self, raw: Mapping[str, Any]) -> dict[str, Any]:
        """Validate raw settings (from YAML or ``--set``), fill defaults, return them normalised.

        Raises :class:`SettingsError` naming the key and the problem. The result must be
        JSON-serialisable: it is stored in the game record and keys the results store.
        """
        ...

    def initial(self, settings: Mapping[str, Any], rng: random.Random) -> S:
        """The start position for normalised ``settings``; ``rng`` draws any random setup."""
        ...

    def to_move(self, state: S) -> int:
        """Index of the player to move (only meaningful while not :meth:`is_over`)."""
        ...

    def legal_moves(self, state: S) -> Sequence[M]:
        """Every legal move of the player to move, in a deterministic order."""
        ...

    def check(self, state: S, move: M) -> str | None:
        """``None`` if ``move`` is legal for the player to move, else the exact reason it is not."""
        ...

    def apply(self, state: S, move: M) -> S:
        """The state after a move that :meth:`check` accepted."""
        ...

    def is_over(self, state: S) -> bool:
        """True when the game has ended by the rules."""
        ...

    def scores(self, state: S) -> tuple[float, ...]:
        """Each player's score (the game's own measure: points, or 1/0.5/0 for win/draw/loss)."""
        ...

    def winner(self, state: S) -> int | None:
        """Index of the winner of a finished game, or ``None`` (draw, or nobody won)."""
        ...

    # Optional: ``resolved_settings(settings, state) -> dict``, for a game with a random or
    # hidden setup (a drawn board and deal, random start columns): the settings that rebuild
    # exactly the start position ``state`` without any randomness, in the form
    # ``parse_settings`` accepts. A record stores them, so a game can be audited and replayed
    # from its record alone. Without it the settings are taken as they are. See
    # :func:`resolved_settings`.

    # Optional: ``ranking(state) -> tuple[int, ...]``, each seat's finishing place in a finished
    # game (1 = first, ties share a place). Without it the places follow ``scores`` (higher is
    # better). See :func:`places_of`.

    def move_to_json(self, move: M) -> JSON:
        """The move as JSON, the form recorded in ``GameRecord.moves[i].answer``."""
        ...

    def move_from_json(self, data: JSON) -> M:
        """Inverse of :meth:`move_to_json` (used to replay stored games)."""
        ...


class Adapter(Protocol[S, M]):
    """Translates between the referee and the students' bot interface."""

    def setup_calls(self, state: S, seat: int, login: str, tournament: bool) -> list[Call]:
        """The calls that create the bot for ``seat`` (constructor first), before any move."""
        ...

    def turn_calls(self, state: S, seat: int, history: Sequence[PlayedMove[M]]) -> list[Call]:
        """The calls for one turn of ``seat``; the last call's return value is the answer.

        ``history`` holds every accepted move so far, so the adapter can tell the bot what its
        opponent did (e.g. Štreky's ``play(newCardOnDesk)``, Quoridor's ``opponent_move``).
        """
        ...

    def decode(self, state: S, seat: int, answer: Any) -> M | BadAnswer:
        """The bot's answer (plain values and :class:`WireObject` s) as a move, or why not."""
        ...


@dataclass(frozen=True)
class HumanInterface(Generic[S, M]):
    """How a person at a terminal plays a seat (``harness play GAME human BOT``).

    ``ask(state, seat, read)`` asks for one move with ``read(prompt) -> line`` and returns it as
    a referee move; it raises ``ValueError(reason)`` for input it cannot read (the person is told
    the reason and asked again, as is a move the referee refuses). ``narrate(state, move,
    name)`` is the line that tells the person what another seat played; ``announce(state,
    names)`` the line at the end. A game without its own interface gets the generic one: the
    position drawn as text, the move typed in the game's record form (``move_from_json``).
    """

    ask: Callable[[S, int, Callable[[str], str]], M]
    narrate: Callable[[S, M, str], str] | None = None
    announce: Callable[[S, Sequence[str]], str] | None = None


@dataclass(frozen=True)
class CodeRule:
    """A rule of the seed about how a bot's code is written, checked without running it.

    ``name`` picks the checker (``pep8``: pycodestyle's defaults; ``encapsulation``: no direct
    access to another object's data attributes). ``quote`` is the seed's sentence. ``deduct``
    is the share of a grading job's points a breach costs (Človeče's 0.2), 0 when the seed names
    no amount (then only a job's ``awards: {style: ...}`` deducts). ``accessors`` maps the bot
    API's data attributes to the method to use instead (``position`` -> ``get_position()``).
    """

    name: str
    quote: str = ""
    deduct: float = 0.0
    accessors: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class SubmissionRules:
    """What a submission of a game may be and contain: the course's rules, checked before it plays.

    ``ascii_only``: the source must be ASCII (Štreky's rule). ``forbidden_imports``: modules a bot
    may never import, statically and at run time; a job can never approve one. ``packages``: the
    course's bot environment, installed packages (import names) every bot of this game may import
    besides the standard library and the bot API, e.g. ``("PIL",)`` for Štreky; a job adds more
    with ``bot_packages``, and ``forbidden_imports`` always wins. ``several_files``: false if a
    submission is ``player.py`` alone (Štreky §1.2): a module of the student's own that it imports
    is refused by the static checks, and nothing but player.py reaches the bot. ``one_file_rule``:
    the text's rule, quoted when a second module is refused. ``template_dir``: code every student
    was given besides the bot API (the course's starting player.py ...): ``harness similarity``
    never counts it as evidence of copying. ``code_rules``: the seed's rules about how the code is
    written (PEP 8, encapsulation), checked statically by ``harness check`` and in grading (see
    :mod:`harness.coderules`).
    """

    ascii_only: bool = False
    forbidden_imports: frozenset[str] = frozenset()
    packages: tuple[str, ...] = ()
    several_files: bool = True
    one_file_rule: str = ""
    template_dir: Path | None = None
    code_rules: tuple[CodeRule, ...] = ()


@dataclass(frozen=True)
class Interface:
    """How the course's manager talked to a bot, which the harness repeats.

    ``student_class``: the class a bot module defines and the harness constructs. ``required_methods``:
    the methods that class must have (checked before a bot plays, and by a battery).
    ``after_init``: attributes the harness sets on a bot right after its constructor, as the
    course's manager did: "tournament" (True in a tournament) and "timeout" (the move limit in
    seconds). ``student_imports``: the bot API modules students import by name (``base``,
    ``obstacle``): each has a top-level shim in harness/studentapi/ so ``import base`` works after
    ``pip install`` too. ``any_position``: true if a bot can be asked about any position in a
    fresh process, its constructor and turn calls depending on the position alone, never on calls
    before (Blokovanie's ``move(board)``); then ``harness similarity --replay`` asks one bot the
    positions another met. ``adopters``: bot API classes, as ``(module, class)``, that play a file
    written in another shape its seed asks for: when a file has no ``student_class``, the first
    adopter whose ``adopt(module)`` returns a class is constructed instead (PriemSpel's
    ``SeedSeat`` plays a seed-style ``Speler`` over the student's own ``PriemSpel``).
    """

    student_class: str = "Player"
    required_methods: tuple[str, ...] = ()
    after_init: tuple[str, ...] = ()
    student_imports: tuple[str, ...] = ()
    any_position: bool = False
    adopters: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class Conformance:
    """How the shared conformance suite (tests/test_conformance.py) plays a game: seeded random
    playouts cycling through ``settings``, each ending within ``max_plies``."""

    settings: Sequence[Mapping[str, Any]] = ({},)
    playouts: int = 1000
    max_plies: int = 10_000


@dataclass(frozen=True)
class GameSpec(Generic[S, M]):
    """Everything the harness needs to run one game. Exposed as ``GAME`` by each game package."""

    name: str
    title: str
    rules: Rules[S, M]
    adapter: Adapter[S, M]
    botapi_dir: Path | None = None
    # wire name -> (module importable from botapi_dir, class name), e.g.
    # {"Obstacle": ("obstacle", "Obstacle")}: objects of exactly these classes cross the wire.
    wire_classes: Mapping[str, tuple[str, str]] = field(default_factory=dict)
    render: Callable[[S, Any], str] | None = None  # (state, highlighted move or None) -> SVG
    # (state, highlighted move or None) -> a plain-text drawing for terminals (``harness check``)
    render_text: Callable[[S, Any], str] | None = None
    # Optional one-line text of a position, e.g. PriemSpel's "[*Emile,Zoe,0]".
    describe: Callable[[S, Sequence[str]], str] | None = None
    players: int = 2
    init_limit: float = 1.0  # seconds for the constructor and each setup call
    move_limit: float = 1.0  # seconds for each turn call
    human: HumanInterface[S, M] | None = None  # a person's prompts, if the game has its own
    # Bumped when the same settings and seed start a different game than before (e.g. a new deal
    # generator): a job's stored games of an older version are played again, not reused.
    setup_version: int = 0
    # A grading by fixed questions instead of games (Quoridor's SemBasic), if the game has one.
    battery: Battery | None = None
    # The course's rules for what a submission may be and contain.
    submission: SubmissionRules = field(default_factory=SubmissionRules)
    # How the course's manager talked to a bot: its class, methods, attributes and imports.
    interface: Interface = field(default_factory=Interface)
    conformance: Conformance = field(default_factory=lambda: Conformance())

    def setup_calls(self, state: S, seat: int, login: str, tournament: bool, move_limit: float) -> list[Call]:
        """The adapter's setup calls with the ``interface.after_init`` attributes set after the constructor."""
        calls = list(self.adapter.setup_calls(state, seat, login, tournament))
        values = {"tournament": tournament, "timeout": move_limit}
        extra = [Call("setattr", (name, values[name])) for name in self.interface.after_init]
        at = next((i + 1 for i, c in enumerate(calls) if c.method == "__init__"), 0)
        return calls[:at] + extra + calls[at:]

    @property
    def botapi_modules(self) -> tuple[str, ...]:
        """The module names of the bot API (``base``, ``obstacle`` ...): the harness supplies them."""
        if self.botapi_dir is None or not self.botapi_dir.is_dir():
            return ()
        return tuple(sorted(p.stem for p in self.botapi_dir.glob("*.py")))

    @property
    def reference_dir(self) -> Path:
        """``reference_players/<game>/``: the bots shipped with the harness (an installed package)."""
        import reference_players

        return Path(reference_players.__file__).resolve().parent / self.name

    @property
    def reference_players(self) -> dict[str, Path]:
        """The shipped reference players by name (``brute`` -> ``.../streky/brute.py``), sorted."""
        folder = self.reference_dir
        if not folder.is_dir():
            return {}
        return {p.stem: p for p in sorted(folder.glob("*.py")) if not p.name.startswith("_")}

    def reference_player(self, name: str) -> Path:
        """The shipped reference player ``name``; ``LookupError`` with a line naming the choices."""
        known = self.reference_players
        if name not in known:
            choices = ", ".join(known) or "none"
            raise LookupError(f"{name}: not a file, a folder, or a reference player of {self.name} "
                              f"(its reference players: {choices})")
        return known[name]


def is_bare_name(text: str) -> bool:
    """True for a word like ``brute`` or ``random_legal``: no folder, no suffix, so not meant as a path."""
    return bool(text) and Path(text).name == text and "." not in text and text not in ("..",)


def competition_places(values: Sequence[float]) -> tuple[int, ...]:
    """Places "1224" for ``values`` (higher is better): equal values share the best place."""
    order = sorted(range(len(values)), key=lambda i: -values[i])
    places = [0] * len(values)
    for pos, i in enumerate(order):
        places[i] = places[order[pos - 1]] if pos and values[i] == values[order[pos - 1]] else pos + 1
    return tuple(places)


def resolved_settings(rules: Rules[Any, Any], settings: Mapping[str, Any], state: Any) -> dict[str, Any]:
    """What a game with normalised ``settings`` and start position ``state`` actually played:
    the game's ``resolved_settings`` when it has one, else ``settings`` unchanged."""
    resolve = getattr(rules, "resolved_settings", None)
    return dict(settings) if resolve is None else dict(resolve(settings, state))


def places_of(rules: Rules[Any, Any], state: Any, charged: Sequence[bool]) -> tuple[int, ...]:
    """Each seat's finishing place (1 = first; ties share a place).

    A game cut short by verdicts ranks every seat without a verdict first (shared) and every
    seat with one after them; otherwise the game's own ``ranking`` says, else its ``scores``.
    """
    if any(charged):
        clean = sum(1 for c in charged if not c)
        return tuple(clean + 1 if c and clean else 1 for c in charged)
    ranking = getattr(rules, "ranking", None)
    if ranking is not None:
        return tuple(int(p) for p in ranking(state))
    return competition_places(list(rules.scores(state)))


_imported: dict[Path, ModuleType] = {}


def import_bot(path: str | Path, botapi_dir: Path | None) -> ModuleType:
    """A bot file imported into *this* process, its game's bot API importable (``import base``).

    For tests, benchmarks and strength measurements only: no sandbox, no limits. Each file is
    imported once (under a unique module name) and the same module is returned after that.
    """
    path = Path(path).resolve()
    if path not in _imported:
        if botapi_dir is not None and str(botapi_dir) not in sys.path:
            sys.path.insert(0, str(botapi_dir))
        name = f"_bot_{len(_imported)}_{path.stem}"
        spec = importlib.util.spec_from_file_location(name, path)
        if spec is None or spec.loader is None:
            raise ImportError(f"cannot load {path}")
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
        _imported[path] = module
    return _imported[path]
