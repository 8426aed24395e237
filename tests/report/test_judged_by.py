"""The report names the judge's clock: each bot's interpreter and machine on its page and on
each game's page, and why a game was played again; a record from before says nothing of it."""

from __future__ import annotations

from html import unescape
from pathlib import Path

from harness.games import get_game
from harness.match import play_match
from harness.record import GameRecord, interpreter_text
from harness.report import build_site
from harness.sandbox import Limits
from tests.conftest import REPO
from tests.report.htmlcheck import check_page

GAME = get_game("priemspel")
BASIS = (REPO / "reference_players/priemspel/basis.py").read_bytes()


def text_of(html: str, element: str) -> str:
    return unescape(html.split(f'id="{element}">', 1)[1].split("</p>", 1)[0])


def test_the_pages_name_the_interpreter_the_machine_and_the_replays(tmp_path: Path, no_leftovers: None) -> None:
    record = play_match(GAME, [BASIS, BASIS], seed=1, logins=["ann", "bob"], limits=Limits())
    record.replays = [{"login": "ann", "cause": "host_oom", "reason": "killed"}]
    old = GameRecord.from_json({k: v for k, v in record.to_json().items() if k not in ("replays", "host")}
                               | {"players": [{k: v for k, v in p.items() if k != "interpreter"}
                                              for p in record.to_json()["players"]]})
    build_site(tmp_path, title="t", records=[record, old], leaderboard=[], game_ids=["new", "old"])
    for page in tmp_path.rglob("*.html"):
        check_page(page)
    clock = interpreter_text(record.players[0].interpreter)
    assert clock.startswith("/") and " tier" in clock
    new = (tmp_path / "games" / "new.html").read_text()
    assert text_of(new, "judged-by") == f"judged by {clock}, on {record.machine}"
    assert text_of(new, "replays") == "played again: in an earlier attempt the host killed ann's process (host_oom)"
    before = (tmp_path / "games" / "old.html").read_text()
    assert 'id="judged-by"' not in before and 'id="replays"' not in before
    bot = (tmp_path / "bots" / "ann.html").read_text()
    assert text_of(bot, "judged-by") == f"Judged by {clock}, on {record.machine} (1 game)"
