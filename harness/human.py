"""A person in a seat: ``harness play GAME human BOT`` plays at this terminal.

Works for every game: the position is drawn with the game's text renderer (or described in one
line), the person types a move and the referee judges it; input that cannot be read and moves
the rules refuse are explained and asked again, never a verdict. A game with its own
:class:`~harness.games.base.HumanInterface` (Blokovanie: "Choose row:", "Choose column:") asks in
its own words and tells the person what the other seats played in its own words; any other game
asks for the move in its record form (the JSON of ``harness play --json``'s moves).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any, TextIO

import yaml

from harness.games.base import GameSpec
from harness.sandbox.limits import CapturedOutput


class HumanLeft(Exception):
    """The person closed the input (end of file) instead of answering."""


class HumanSeat:
    """A seat taken by the person at ``stdin``/``stdout``; the match asks it for referee moves."""

    interactive = True

    def __init__(self, game: GameSpec, stdin: TextIO, stdout: TextIO) -> None:
        self.game, self.stdin, self.out = game, stdin, stdout
        self.stdout, self.stderr = CapturedOutput(), CapturedOutput()  # as a bot's, for the record

    # ---- the terminal ---------------------------------------------------------------------
    def say(self, text: str) -> None:
        self.out.write(text + "\n")
        self.out.flush()

    def read(self, prompt: str) -> str:
        self.out.write(prompt)
        self.out.flush()
        line = self.stdin.readline()
        if not line:
            raise HumanLeft("end of input")
        return line.rstrip("\r\n")

    def show(self, state: Any, names: Sequence[str]) -> None:
        """The position, as the game draws it for a terminal."""
        if self.game.render_text is not None:
            self.say("\n" + self.game.render_text(state, None) + "\n")
        elif self.game.describe is not None:
            self.say(self.game.describe(state, list(names)))

    # ---- what the match calls -------------------------------------------------------------
    def begin(self, state: Any, names: Sequence[str]) -> None:
        self.show(state, names)

    def ask(self, state: Any, seat: int, check: Callable[[Any], str | None]) -> Any:
        """A move the referee accepts, asked until the person gives one."""
        human = self.game.human
        while True:
            try:
                move = human.ask(state, seat, self.read) if human is not None else self._generic(state)
            except ValueError as exc:
                self.say(f"Invalid input: {exc}. Try again.")
                continue
            reason = check(move)
            if reason is None:
                return move
            self.say(f"Invalid move: {reason}. Try again.")

    def _generic(self, state: Any) -> Any:
        rules = self.game.rules
        legal = rules.legal_moves(state)
        example = json.dumps(rules.move_to_json(legal[0])) if len(legal) else "null"
        text = self.read(f"Your move (as in the game's record, e.g. {example}): ")
        try:
            value = yaml.safe_load(text)
        except yaml.YAMLError:
            raise ValueError(f"{text!r} is not a move (write it as JSON, e.g. {example})") from None
        try:
            return rules.move_from_json(value)
        except Exception as exc:  # noqa: BLE001 - any decoding problem is the person's typo
            raise ValueError(f"{text!r} is not a move: {exc}") from None

    def moved(self, before: Any, after: Any, move: Any, mover: str, by_human: bool, names: Sequence[str]) -> None:
        """After any seat's move: what another seat played, then the position."""
        if not by_human:
            human = self.game.human
            if human is not None and human.narrate is not None:
                self.say(human.narrate(before, move, mover))
            else:
                self.say(f"{mover} played {json.dumps(self.game.rules.move_to_json(move))}.")
        self.show(after, names)

    def finish(self, state: Any, names: Sequence[str], winner: int | None, verdicts: Sequence[str]) -> None:
        """The end: the game's own announcement, or who won."""
        for line in verdicts:
            self.say(line)
        human = self.game.human
        if not verdicts and human is not None and human.announce is not None:
            self.say(human.announce(state, list(names)))
        elif winner is None:
            self.say("The game ends without a winner.")
        else:
            self.say(f"{names[winner]} won.")

    # ---- the parts of a bot's process the match also touches -------------------------------
    def close(self) -> None:
        pass


__all__ = ["HumanLeft", "HumanSeat"]
