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


def failed_before_play(record: GameRecord, seat: int) -> bool:
    """True if the bot in ``seat`` failed while it was being imported or constructed: it was never
    given a position, so none is worth drawing. Told by the reason's call, which the harness
    itself writes (``import of player.py ...``, ``Player(...) ...``), never the bot."""
    player = record.players[seat]
    if not player.verdict.charged or any(m.player == seat for m in record.moves):
        return False
    cls = get_game(record.game).interface.student_class
    return player.reason.startswith(("import of player.py", f"{cls}(...)"))


def error_position(results: JobResults, key: str) -> str:
    """The position of game ``key`` just before its last (rejected, or failed) answer, as text;
    ``""`` when it cannot be drawn (the game did not start, or is not stored) or the bot that
    failed never saw one (its import or constructor failed)."""
    from harness.pregrade import position_text
    from harness.report.replay import replay_positions

    record = full_record(results, key)
    if record is None:
        return ""
    charged = [seat for seat, p in enumerate(record.players) if p.verdict.charged]
    if charged and all(failed_before_play(record, seat) for seat in charged):
        return ""
    game = get_game(record.game)
    replay = replay_positions(record, game)
    if not replay.positions:
        return ""
    last = replay.positions[-1]
    return position_text(game, last.state, last.highlight, [p.login for p in record.players])


__all__ = ["error_position", "failed_before_play", "full_record"]
