"""The static site without a browser: well-formed, self-contained pages; escaping; the tables' content."""

from __future__ import annotations

import re
import subprocess
import sys
from html import unescape
from pathlib import Path

import pytest

from harness.record import GameRecord
from harness.report import build_site
from harness.report.site import bot_files, leaderboard_table
from tests.conftest import REPO
from tests.report.conftest import BASIS, GAMES, HOSTILE
from tests.report.htmlcheck import check_page, parse_page


def rows_of(html: str, table_id: str) -> list[list[str]]:
    """The text of each body cell of one table, row by row (tags dropped, entities decoded)."""
    table = html.split(f'id="{table_id}"', 1)[1].split("</table>", 1)[0]
    body = table.split("<tbody>", 1)[1]
    return [[unescape(re.sub(r"<[^>]+>", "", cell)).strip() for cell in re.findall(r"<td[^>]*>(.*?)</td>", row, re.DOTALL)]
            for row in re.findall(r"<tr[^>]*>(.*?)</tr>", body, re.DOTALL)]


def test_the_site_has_every_page(site: Path) -> None:
    pages = sorted(str(p.relative_to(site)) for p in site.rglob("*.html"))
    assert pages == sorted(["index.html", "games.html"] + [f"games/{name}.html" for name in GAMES]
                           + [f"bots/{login}.html" for login in ("basis", "strategie", "wrong", "crashy",
                                                                  "mallory", "illegal")])


def test_every_page_is_well_formed_and_self_contained(site: Path) -> None:
    for path in site.rglob("*.html"):
        check_page(path)  # raises, listing every problem of the page


def test_the_checker_catches_what_it_is_for(tmp_path: Path) -> None:
    """The page checker itself must fail on broken pages, or the test above proves nothing."""
    cases = {
        "unbalanced": "<p><b>x</p></b>",
        "handler": '<img src="data:," onerror="x()">',
        "external": '<a href="https://example.com/">x</a>',
        "broken link": '<a href="nowhere.html">x</a>',
        "script without hash": "<script>alert(1)</script>",
    }
    for name, body in cases.items():
        page = tmp_path / f"{name}.html"
        page.write_text("<!DOCTYPE html><html><head><meta http-equiv=\"Content-Security-Policy\" content=\""
                        "default-src 'none'; img-src data:; style-src 'none'; script-src 'none'\">"
                        f"<title>t</title></head><body><main>{body}</main></body></html>")
        with pytest.raises(AssertionError):
            check_page(page)


def test_the_leaderboard_shows_the_rows_in_order(site: Path) -> None:
    html = (site / "index.html").read_text()
    rows = rows_of(html, "leaderboard")
    assert [r[1] for r in rows] == ["strategie reference", "basis", "mallory"]
    headers = re.findall(r"<th(?:\s[^>]*)?>(.*?)</th>", html.split('id="leaderboard"')[1].split("</thead>")[0])
    assert headers == ["#", "login", "bot", "points", "score", "games", "wins", "draws", "losses", "rating",
                       "verdicts against", "status"]
    assert rows[0][:4] == ["1", "strategie reference", "", "3"]
    assert rows[0][9] == "1650 [1500, 1801]"
    assert rows[2][0] == "" and rows[2][2] == "<i>evil</i>"
    assert rows[2][11] == "bad_answer: <script>window.pwned = 4</script> disqualified"
    assert '<tr class="disqualified">' in html and html.count('class="badge dq"') == 1
    assert re.search(r"<a href=\"bots/mallory.html\">mallory</a>", html)
    assert 'id="game-count">6<' in html and 'id="bot-count">3<' in html  # the rows shown, not every player


def test_columns_follow_what_the_rows_have() -> None:
    headers, body = leaderboard_table([{"login": "a", "score": 2.5}, {"login": "b", "score": 1}], lambda x: x)
    assert headers == [("login", False), ("score", True)]
    assert [[c.text for c in cells] for _, cells in body] == [["a", "2.5"], ["b", "1"]]


def test_hostile_output_is_escaped_everywhere(site: Path, games: dict[str, GameRecord]) -> None:
    hostile = games["hostile"].players[0]
    assert hostile.verdict.value == "bad_answer" and "<script>" in hostile.stdout
    for path in site.rglob("*.html"):
        html = path.read_text()
        page = parse_page(path)
        assert "<script>window" not in html and "<img src=x" not in html and "<b onclick" not in html, path
        # Only the report's own scripts: the inlined asset, and the replay data block.
        kinds = sorted(attrs.get("type") or "js" for attrs, _ in page.scripts)
        assert kinds == (["application/json", "js"] if path.parent.name == "games" else ["js"]), path
    replay = (site / "games/hostile.html").read_text()
    assert "&lt;script&gt;window.pwned = &#34;stdout&#34;&lt;/script&gt;" in replay  # shown, as text
    assert "\\u003c/script\\u003e\\u003cscript\\u003ewindow.pwned = 3" in replay  # in the viewer's JSON
    assert "\ud800" not in replay.encode("utf-8", "surrogatepass").decode("utf-8", "replace")


def test_a_bot_page_lists_its_games_and_verdicts(site: Path) -> None:
    html = (site / "bots/basis.html").read_text()
    rows = rows_of(html, "bot-games")
    played = [n for n, (a, b, _) in enumerate(GAMES.values(), start=1) if BASIS in (a, b)]
    # The bot's own game numbers (as check and the feedback files number them), each with its seed.
    assert [int(r[0]) for r in rows] == list(range(1, len(played) + 1))
    assert all(r[3].isdigit() for r in rows)
    assert {r[6] for r in rows} == {"ok"}
    mallory = rows_of((site / "bots/mallory.html").read_text(), "bot-games")
    assert len(mallory) == 1 and mallory[0][4] == "loss" and mallory[0][6] == "bad_answer"
    assert "zet() must return an int number of squares" in mallory[0][7]
    assert 'href="../games/hostile.html"' in (site / "bots/mallory.html").read_text()


def test_a_bot_page_shows_each_score_from_the_bots_side(site: Path, games: dict[str, GameRecord]) -> None:
    """Issue 34: "win 0 : 6" (seat order) read as a win by 0 to 6; the bot's own score comes first."""
    from harness.report.site import number

    checked = 0
    for name, record in games.items():
        for seat, player in enumerate(record.players):
            html = (site / f"bots/{player.login}.html").read_text()
            body = html.split('id="bot-games"', 1)[1].split("<tbody>", 1)[1]
            row = next(r for r in re.findall(r"<tr[^>]*>(.*?)</tr>", body, re.DOTALL) if f"games/{name}.html" in r)
            cells = [unescape(re.sub(r"<[^>]+>", "", c)).strip() for c in re.findall(r"<td[^>]*>(.*?)</td>", row, re.DOTALL)]
            own, other = record.scores[seat], record.scores[1 - seat]
            assert cells[5] == f"{number(own)} : {number(other)}", (name, player.login, cells)
            checked += own != other
    assert checked, "some game must have unequal scores, or the order is not tested"
    assert "score (own : other)" in (site / "bots/basis.html").read_text()


def test_replay_pages_carry_the_game(site: Path, games: dict[str, GameRecord]) -> None:
    html = (site / "games/clean.html").read_text()
    assert "strategie wins &mdash; final score 0 : 1" in html or "strategie wins — final score 0 : 1" in html
    assert len(rows_of(html, "moves")) == games["clean"].plies + 1
    assert '<a href="../bots/basis.html">basis</a>' in html


def test_game_ids_must_be_distinct(tmp_path: Path, games: dict[str, GameRecord]) -> None:
    records = [games["clean"], games["clean_swapped"]]
    with pytest.raises(ValueError, match="one distinct id per record"):
        build_site(tmp_path, title="t", records=records, leaderboard=[], game_ids=["x", "x"])
    with pytest.raises(ValueError, match="distinct when made safe"):
        build_site(tmp_path, title="t", records=records, leaderboard=[], game_ids=["a/b", "a_b"])
    build_site(tmp_path, title="t", records=records + [records[0]], leaderboard=[])  # default ids: distinct
    assert len(list((tmp_path / "games").glob("*.html"))) == 3


def test_a_rebuild_drops_the_pages_of_games_that_are_gone(tmp_path: Path, games: dict[str, GameRecord]) -> None:
    (tmp_path / "games").mkdir()
    (tmp_path / "games/notes.txt").write_text("mine")
    build_site(tmp_path, title="t", records=list(games.values()), leaderboard=[], game_ids=list(games))
    build_site(tmp_path, title="t", records=[games["clean"]], leaderboard=[], game_ids=["clean"])
    assert sorted(p.name for p in (tmp_path / "games").iterdir()) == ["clean.html", "notes.txt"]
    assert sorted(p.name for p in (tmp_path / "bots").iterdir()) == ["basis.html", "strategie.html"]
    assert check_page(tmp_path / "index.html")  # and no link points at a deleted page


def test_bot_page_names_are_safe_and_distinct() -> None:
    names = bot_files(["alice", "../etc/passwd", "Alice", "a b", "a_b", "", "con.", "alice"])
    assert len(names) == 7 and len({n.lower() for n in names.values()}) == 7
    assert names["alice"] == "alice" and names["a_b"] == "a_b"
    assert all(re.fullmatch(r"[A-Za-z0-9_][A-Za-z0-9_.-]*", n) for n in names.values()), names


def test_harness_play_writes_the_replay(tmp_path: Path) -> None:
    out = tmp_path / "sub/game.html"
    run = subprocess.run([sys.executable, "-m", "harness", "play", "priemspel", str(BASIS), str(HOSTILE),
                          "--seed", "2", "--replay", str(out)], capture_output=True, text=True, timeout=120, cwd=REPO)
    assert run.returncode == 0, run.stderr
    assert f"replay: {out}" in run.stdout
    page = check_page(out)
    assert page.tags["img"] == 1 and "hostile: bad_answer" in out.read_text()
    (tmp_path / "a-file").write_text("")
    bad = subprocess.run([sys.executable, "-m", "harness", "play", "priemspel", str(BASIS), str(BASIS),
                          "--replay", str(tmp_path / "a-file/x.html")],
                         capture_output=True, text=True, timeout=120, cwd=REPO)
    assert bad.returncode == 2 and "--replay" in bad.stderr and "cannot write" in bad.stderr
