"""The generated pages in a real headless Chromium (Debian's ``chromium``, driven by Playwright).

Without Chromium or Playwright these tests skip locally, but fail when ``CI=true``: CI must
install both (``.ci/run`` does). Never ``playwright install``: it downloads another browser.
"""

from __future__ import annotations

import os
import shutil
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import pytest

from harness.record import GameRecord
from harness.report import replay_frames, write_replay
from harness.report.replay import replay_positions

DEADLINE_MS = 30_000  # the longest any wait for the page may take (a busy machine is slow, not broken)
LAPTOP = {"width": 1366, "height": 650}  # a small laptop's browser window
PHONE = {"width": 390, "height": 844}
CONTROLS = ("#first", "#prev", "#play", "#next", "#last", "#slider")
CHROMIUM = os.environ.get("HARNESS_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]


def _unavailable() -> str | None:
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "the Python package playwright is not installed (python3 -m pip install '.[test]')"
    if not Path(CHROMIUM).is_file():
        return f"no Chromium at {CHROMIUM} (apt-get install chromium, or set HARNESS_CHROMIUM)"
    return None


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    problem = _unavailable()
    if problem is not None:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"the browser tests must run in CI, but {problem}")
        pytest.skip(problem)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield chromium
        chromium.close()


@dataclass
class Tab:
    """A page plus everything it reported that a clean page must not: errors, dialogs, requests."""

    page: Any
    problems: list[str] = field(default_factory=list)

    def open(self, path: Path, fragment: str = "") -> None:
        self.page.goto(path.resolve().as_uri() + fragment)

    def text(self, selector: str) -> str:
        return str(self.page.locator(selector).inner_text())


@pytest.fixture
def tab(browser: Any) -> Iterator[Tab]:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    t = Tab(page)
    page.on("console", lambda m: t.problems.append(f"console {m.type}: {m.text}") if m.type == "error" else None)
    page.on("pageerror", lambda e: t.problems.append(f"page error: {e}"))
    page.on("dialog", lambda d: (t.problems.append(f"dialog: {d.message}"), d.dismiss()))
    page.on("request", lambda r: None if r.url.startswith(("file:", "data:")) else t.problems.append(f"request {r.url}"))
    yield t
    context.close()


def shown(page: Any) -> str:
    """The SVG text the board image shows (from its data: URL)."""
    src = str(page.locator("#board").get_attribute("src"))
    prefix = "data:image/svg+xml;charset=utf-8,"
    assert src.startswith(prefix), src[:60]
    return unquote(src[len(prefix):])


def test_the_problem_listener_hears_errors(tab: Tab, tmp_path: Path) -> None:
    """If the listener heard nothing, the 'no console errors' checks below would prove nothing."""
    page = tmp_path / "noisy.html"
    page.write_text("<!DOCTYPE html><title>x</title><script>console.error('boom'); alert('hi')</script>")
    tab.open(page)
    assert tab.problems == ["console error: boom", "dialog: hi"]


def test_the_leaderboard_renders_the_expected_rows(tab: Tab, site: Path) -> None:
    tab.open(site / "index.html")
    rows = tab.page.locator("#leaderboard tbody tr")
    assert rows.count() == 3
    assert [rows.nth(i).locator("td.login a").inner_text() for i in range(3)] == ["strategie", "basis", "mallory"]
    assert rows.nth(0).locator("td").nth(9).inner_text() == "1650 [1500, 1801]"
    assert rows.nth(2).get_attribute("class") == "disqualified"
    assert "bad_answer: <script>window.pwned = 4</script>" in rows.nth(2).inner_text()  # shown, not run
    tab.page.locator("#leaderboard th", has_text="score").click()  # sort by score, ascending
    assert [rows.nth(i).locator("td.login a").inner_text() for i in range(3)] == ["mallory", "strategie", "basis"]
    tab.page.locator("#leaderboard td.login a", has_text="basis").click()
    tab.page.wait_for_url("**/bots/basis.html")
    assert tab.page.locator("#bot-games tbody tr").count() == 5
    assert tab.page.evaluate("typeof window.pwned") == "undefined"
    assert tab.problems == []


def test_the_replay_viewer_steps_through_a_game_and_shows_the_final_score(
        tab: Tab, site: Path, games: dict[str, GameRecord]) -> None:
    record = games["clean"]
    tab.open(site / "games/clean.html")
    page = tab.page
    assert tab.text("#counter") == "0 / 8" and tab.text("#status") == "Start position"
    assert tab.text("#score") == "Score: basis 0, strategie 0"
    drawings = [f.svg for f in replay_frames(record)]
    assert shown(page) == drawings[0]
    for ply, move in enumerate(record.moves, start=1):
        page.click("#next")
        assert tab.text("#counter") == f"{ply} / 8"
        mover = record.players[move.player].login
        assert tab.text("#status").startswith(f"Ply {ply}: {mover} played {move.answer} (wall ")
        assert page.locator("#moves tbody tr.current").get_attribute("data-frame") == str(ply)
        assert shown(page) == drawings[ply]  # the script rebuilt the exact drawing from its edits
    assert page.evaluate("document.getElementById('board').naturalWidth") == 680  # the SVG really drew
    assert tab.text("#score") == "Score: basis 0, strategie 1"
    assert tab.text("#outcome") == "strategie wins \u2014 final score 0 : 1"
    assert page.locator("#error").is_hidden()
    page.click("#next")  # past the end: stays
    assert tab.text("#counter") == "8 / 8"
    page.click("#prev")
    assert tab.text("#counter") == "7 / 8"
    page.locator("#slider").fill("3")
    assert tab.text("#counter") == "3 / 8" and tab.text("#position-text") == record.transcript[3]
    page.keyboard.press("End")
    assert tab.text("#counter") == "8 / 8"
    page.keyboard.press("Home")
    assert tab.text("#counter") == "0 / 8"
    page.locator("#moves tbody tr").nth(5).click()
    assert tab.text("#counter") == "5 / 8"
    page.select_option("#speed", "200")
    page.click("#play")
    assert tab.text("#play") == "pause"
    from playwright.sync_api import expect  # (wait_for_function would eval, which the CSP forbids)

    expect(page.locator("#counter")).to_have_text("8 / 8", timeout=10_000)
    assert tab.text("#play") == "play"  # stops at the end
    assert tab.problems == []


def test_an_error_replay_opens_on_the_verdict(tab: Tab, site: Path) -> None:
    tab.open(site / "games/bad_answer.html")
    assert tab.text("#counter") == "1 / 1"
    assert tab.text("#status") == "Ply 1: wrong's answer was rejected: \"2\" (wall " + tab.text("#status").split("(wall ")[1]
    assert tab.page.locator("#error").is_visible()
    assert tab.text("#error") == "wrong: bad_answer: zet() must return an int number of squares, got '2' (str)"
    tab.open(site / "games/bad_answer.html", "#0")  # a fragment picks the first frame
    assert tab.text("#counter") == "0 / 1" and tab.page.locator("#error").is_hidden()
    assert tab.problems == []


def test_hostile_bot_output_runs_nothing(tab: Tab, site: Path) -> None:
    tab.open(site / "games/hostile.html", "#0")
    page = tab.page
    for summary in page.locator("details summary").all():
        summary.click()
    last = int(tab.text("#counter").split(" / ")[1])
    for _ in range(last):
        page.click("#next")
    assert "window.pwned = 3" in tab.text("#status")  # the hostile answer, shown as text
    assert '<script>window.pwned = "stdout"</script>' in page.locator("details pre").first.inner_text()
    assert page.evaluate("typeof window.pwned") == "undefined"
    assert page.locator("script").count() == 2 and page.locator("b[onclick], img[onerror]").count() == 0
    assert tab.problems == []


def test_a_single_replay_file_works_on_its_own(tab: Tab, tmp_path: Path, games: dict[str, GameRecord]) -> None:
    path = write_replay(games["exception"], tmp_path / "one.html")
    tab.open(path)
    frames = games["exception"].plies + 1
    assert tab.text("#counter") == f"{frames} / {frames}"  # opens on the verdict
    assert shown(tab.page) == replay_frames(games["exception"])[-1].svg  # a whole chain of edits, undone
    assert "crashy: exception: zet() raised IndexError" in tab.text("#error")
    tab.page.keyboard.press("ArrowLeft")
    assert tab.text("#counter") == f"{frames - 1} / {frames}" and tab.page.locator("#error").is_hidden()
    assert tab.problems == []


# ---- the viewer on small screens -------------------------------------------------------------
@pytest.fixture(scope="module")
def big_replays(big_games: dict[str, GameRecord], tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The replay page of each game of ``big_games`` (conftest.BIG_GAMES)."""
    folder = tmp_path_factory.mktemp("big-replays")
    return {name: write_replay(record, folder / f"{name}.html") for name, record in big_games.items()}


Opener = Callable[..., Tab]


@pytest.fixture
def window(browser: Any) -> Iterator[Opener]:
    """``window(path, viewport, fragment="")``: the replay page ``path`` in a window of that size,
    once the viewer has shown its first drawing."""
    contexts: list[Any] = []

    def open_page(path: Path, viewport: dict[str, int], fragment: str = "") -> Tab:
        context = browser.new_context(viewport=viewport)
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(DEADLINE_MS)
        t = Tab(page)
        page.on("console", lambda m: t.problems.append(f"console {m.type}: {m.text}") if m.type == "error" else None)
        page.on("pageerror", lambda e: t.problems.append(f"page error: {e}"))
        t.open(path, fragment)
        # The viewer marks itself ready once its first drawing has loaded (and been fitted).
        page.locator("#viewer.ready").wait_for(state="attached", timeout=DEADLINE_MS)
        return t

    yield open_page
    for context in contexts:
        context.close()


def inside(box: dict[str, float] | None, width: float, height: float) -> bool:
    """Whether a bounding box lies wholly inside the window (0, 0, width, height)."""
    return (box is not None and box["x"] >= 0 and box["y"] >= 0
            and box["x"] + box["width"] <= width + 0.5 and box["y"] + box["height"] <= height + 0.5)


LAID_OUT = ["streky-33x33", "streky-random", "quoridor-11x11", "clovece"]


@pytest.mark.parametrize("fragment", ["", "#end"], ids=["start", "end"])
@pytest.mark.parametrize("name", LAID_OUT)
def test_on_a_laptop_the_board_and_the_controls_fit_without_scrolling(
        window: Opener, big_replays: dict[str, Path], name: str, fragment: str) -> None:
    tab = window(big_replays[name], LAPTOP, fragment)
    page = tab.page
    assert page.evaluate("window.scrollY") == 0  # the script scrolled nothing but the move list
    for control in (*CONTROLS, "#board"):
        box = page.locator(control).bounding_box()
        assert inside(box, LAPTOP["width"], LAPTOP["height"]), f"{control} at {box}"
    assert page.evaluate("document.documentElement.scrollWidth") <= LAPTOP["width"]
    assert 'class="legend"' in shown(page)  # the drawing explains itself
    current = page.locator("#moves tbody tr.current")
    box, row = page.locator("#moves-box").bounding_box(), current.bounding_box()
    assert box is not None and row is not None
    assert box["y"] <= row["y"] and row["y"] + row["height"] <= box["y"] + box["height"] + 0.5  # shown in its box
    if fragment:  # the last move: the move list scrolled within itself to show it
        assert page.locator("#moves-box").evaluate("box => box.scrollTop") > 0
    page.click("#first")
    page.keyboard.press("End")
    assert tab.text("#counter").split(" / ")[0] == tab.text("#counter").split(" / ")[1]
    assert page.evaluate("window.scrollY") == 0
    assert tab.problems == []


@pytest.mark.parametrize("name", LAID_OUT)
def test_on_a_phone_nothing_scrolls_sideways_and_moves_wrap_between_values(
        window: Opener, big_replays: dict[str, Path], name: str) -> None:
    tab = window(big_replays[name], PHONE, "#end")
    page = tab.page
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert page.evaluate("window.scrollY") == 0
    for table in ("#moves", "table.players", "#board"):
        box = page.locator(table).bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"] + 0.5, table
    assert page.locator("#moves-box").evaluate("box => box.scrollWidth <= box.clientWidth")  # no sideways scroll
    # Where the browser broke each move's text into lines: only after a space (after a comma),
    # never inside a number or a word.
    breaks = page.locator("#moves td.move").evaluate_all("""cells => cells.slice(-40).flatMap(td => {
        const node = td.firstChild, found = [];
        if (!node || node.nodeType !== Node.TEXT_NODE) { return found; }
        const range = document.createRange(), text = node.data;
        let top = null;
        for (let i = 0; i < text.length; i++) {
          range.setStart(node, i); range.setEnd(node, i + 1);
          const rect = range.getClientRects()[0];
          if (!rect) { continue; }
          if (top !== null && rect.top > top + 1) {
            found.push(text.slice(Math.max(0, i - 6), i) + "|" + text.slice(i, i + 6));
          }
          top = rect.top;
        }
        return found;
      })""")
    assert breaks, "no move wrapped: the test would prove nothing"
    assert [b for b in breaks if not b.split("|")[0].endswith(" ")] == []
    assert tab.problems == []


def test_a_window_made_narrow_refits_the_board(window: Opener, big_replays: dict[str, Path]) -> None:
    tab = window(big_replays["streky-33x33"], LAPTOP)
    wide = tab.page.locator("#board").bounding_box()
    tab.page.set_viewport_size(PHONE)
    # The script refits on the window's resize event: wait for it, up to the deadline.
    until(lambda: tab.page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"])
    narrow = tab.page.locator("#board").bounding_box()
    assert wide is not None and narrow is not None and narrow["width"] < wide["width"]
    assert inside(narrow, PHONE["width"], PHONE["height"])
    assert tab.problems == []


def until(condition: Callable[[], bool], seconds: float = DEADLINE_MS / 1000) -> None:
    """Wait for ``condition`` to hold, asking every 50 ms; fail after ``seconds``."""
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "the condition did not come true in time"
        time.sleep(0.05)


def test_a_board_the_deal_drew_shows_its_real_size(window: Opener, big_replays: dict[str, Path],
                                                    big_games: dict[str, GameRecord]) -> None:
    record = big_games["streky-random"]
    assert record.requested["rows"] is None  # the job did not say it...
    start = replay_positions(record).positions[0].state
    tab = window(big_replays["streky-random"], LAPTOP)
    assert f"board {start.rows} \u00d7 {start.cols}, ply 0," in shown(tab.page)  # ...the page does
    assert tab.page.evaluate("document.getElementById('board').naturalHeight") > start.rows * 20
    assert tab.problems == []
