"""A game replayed for a bot's process is replayed once: the rule that bounds the host's kills.

A ``harness_error`` is charged to no one and the game is played again. Most are the harness's
own (a lost worker, a bot process that did not start); one kind is caused by a bot's process:
the kernel's OOM killer killed it while it was under its own memory cap (``cause`` =
``host_oom``, judged from that bot's own cgroup; see
:meth:`harness.sandbox.cgroup.BotCgroup.oom_evidence`). The OOM killer picks the process with
the most memory, so a bot whose process it picks again in a replay of the same game is the
reason the game cannot be played on this machine: that second kill is charged to it as
``memory`` and the game ends there (its opponents keep their place), instead of being replayed
again, and again in the next run (a replayed game that ends in ``harness_error`` for ever would
let that bot dodge its result for ever).

The count is kept per game key, across the attempts of a run and across runs (a game stored as a
fault keeps its causes; the next run reads them back), and every record says which earlier
attempts were replayed and why (:attr:`harness.record.GameRecord.replays`).
"""

from __future__ import annotations

from collections.abc import Callable

from harness.games.base import places_of
from harness.record import GameRecord, PlayerRecord, Verdict
from harness.text import block

Earlier = Callable[[str], "GameRecord | None"]  # a game key -> the fault stored for it by an earlier run


def causes(record: GameRecord) -> list[dict[str, str]]:
    """The harness errors of ``record`` caused by a bot's process, as :attr:`GameRecord.replays` holds them."""
    return [{"login": p.login, "cause": p.cause, "reason": p.reason[:300]}
            for p in record.players if p.verdict is Verdict.HARNESS_ERROR and p.cause]


class Replays:
    """The bots whose process already caused a replay, per game key (see the module's docstring)."""

    def __init__(self, earlier: Earlier | None = None) -> None:
        self.earlier = earlier
        self.seen: dict[str, list[dict[str, str]]] = {}

    def _before(self, key: str) -> list[dict[str, str]]:
        if key not in self.seen:
            stored = self.earlier(key) if self.earlier is not None else None
            self.seen[key] = [*stored.replays, *causes(stored)] if stored is not None and stored.harness_fault else []
        return self.seen[key]

    def judge(self, key: str, record: GameRecord) -> GameRecord:
        """``record`` as it stands under the rule: a repeat kill charged, the earlier ones named.

        Call once per finished attempt of the game ``key``, in order.
        """
        before = self._before(key)
        record.replays = list(before)
        if not record.harness_fault:
            return record
        again = {r["login"] for r in before}
        failed = [p for p in record.players if p.verdict is Verdict.HARNESS_ERROR]
        if all(p.cause and p.login in again for p in failed):
            for p in failed:
                _charge(p)
            _settle(record)
            return record
        self.seen[key] = [*before, *causes(record)]
        return record


def _charge(player: PlayerRecord) -> None:
    player.verdict = Verdict.MEMORY
    player.reason = block(f"{player.reason}; this game was already replayed once because the kernel's OOM killer "
                          f"killed this bot's process, so it is not replayed again: the bot's memory use is charged")


def _settle(record: GameRecord) -> None:
    """The outcome of a game a verdict ended (as :meth:`harness.match.Match._finish` makes it)."""
    charged = [p.verdict.charged for p in record.players]
    clean = [i for i, c in enumerate(charged) if not c]
    record.winner = clean[0] if len(clean) == 1 else None
    record.places = places_of(None, None, charged)  # type: ignore[arg-type]  # a verdict's places need no rules
    record.end = "verdict"


__all__ = ["Replays", "causes"]
