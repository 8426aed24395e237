"""The position of a stored game where a bot's first error happened, drawn as text.

What a student reads about a graded job (feedback, Gradescope) reaches them without the job's
report, so a replay file would name something they cannot open. The position the rejected
answer was given is drawn inline instead, with the same text renderer ``harness check`` uses.
"""

from __future__ import annotations

from harness.games import get_game
from harness.record import GameRecord
from harness.tournament.results import JobResults, StoredGames
from harness.tournament.store import StoreError, open_readonly


def full_record(results: JobResults, key: str) -> GameRecord | None:
    """The stored game with ``key``, moves included (exports read their games without them)."""
    records = results.records
    if isinstance(records, StoredGames):
        try:
            with open_readonly(records.folder) as store:
                return next((r for _, r in store.records([key])), None)
        except StoreError:
            return None
    return next((r for k, r in zip(results.keys, records) if k == key), None)


def error_position(results: JobResults, key: str) -> str:
    """The position of game ``key`` just before its last (rejected, or failed) answer, as text;
    ``""`` when it cannot be drawn (the game did not start, or is not stored)."""
    from harness.pregrade import position_text
    from harness.report.replay import replay_positions

    record = full_record(results, key)
    if record is None:
        return ""
    game = get_game(record.game)
    replay = replay_positions(record, game)
    if not replay.positions:
        return ""
    last = replay.positions[-1]
    return position_text(game, last.state, last.highlight, [p.login for p in record.players])


__all__ = ["error_position", "full_record"]
