"""Real games (played through the sandbox) and a site built from them, shared by the report tests:
PriemSpel games of every kind of ending, and games with big boards or four players."""

from __future__ import annotations

from pathlib import Path

import pytest

from harness.games import get_game
from harness.match import play_match
from harness.record import GameRecord
from harness.report import build_site
from harness.sandbox.limits import Limits
from tests.conftest import BOTS, REPO

GAME = get_game("priemspel")
HERE = Path(__file__).resolve().parent


def source(path: Path) -> bytes:
    return path.read_bytes()


BASIS = REPO / "reference_players/priemspel/basis.py"
STRATEGIE = REPO / "reference_players/priemspel/strategie.py"
WRONG = BOTS / "priemspel/wrong_type.py"
EXCEPTION = BOTS / "priemspel/exception_midgame.py"
HOSTILE = HERE / "bots/hostile.py"
ILLEGAL = REPO / "tests/check/bots/illegal_step.py"

# name -> (seat 0, seat 1, seed): the games every report test sees, in this order.
GAMES: dict[str, tuple[Path, Path, int]] = {
    "clean": (BASIS, STRATEGIE, 3),  # strategie wins after 8 plies (tests/test_cli.py pins it)
    "clean_swapped": (STRATEGIE, BASIS, 4),
    "bad_answer": (WRONG, STRATEGIE, 5),
    "exception": (EXCEPTION, BASIS, 6),
    "hostile": (HOSTILE, BASIS, 7),
    "illegal": (ILLEGAL, BASIS, 8),
}
LOGINS = {BASIS: "basis", STRATEGIE: "strategie", WRONG: "wrong", EXCEPTION: "crashy",
          HOSTILE: "mallory", ILLEGAL: "illegal"}


@pytest.fixture(scope="session")
def games() -> dict[str, GameRecord]:
    """The games of :data:`GAMES`, each played once for the whole session."""
    played = {}
    for name, (a, b, seed) in GAMES.items():
        played[name] = play_match(GAME, [source(a), source(b)], seed=seed, logins=[LOGINS[a], LOGINS[b]])
    return played


def leaderboard_rows() -> list[dict[str, object]]:
    """A leaderboard as the tournament code produces it (one hostile reason included)."""
    return [
        {"rank": 1, "login": "strategie", "bot_name": "", "games": 3, "wins": 3, "draws": 0, "losses": 0,
         "score": 3.0, "verdicts_against": 0, "disqualified": False, "reason": "", "points": 3.0,
         "rating": 1650.4, "rating_low": 1500.2, "rating_high": 1800.9, "reference": True},
        {"rank": 2, "login": "basis", "bot_name": "", "games": 5, "wins": 4, "draws": 0, "losses": 1,
         "score": 4.0, "verdicts_against": 0, "disqualified": False, "reason": "", "points": 2.0,
         "rating": 1520.0, "rating_low": 1400.0, "rating_high": 1640.0},
        {"rank": None, "login": "mallory", "bot_name": "<i>evil</i>", "games": 1, "wins": 0, "draws": 0,
         "losses": 1, "score": 0.0, "verdicts_against": 1, "disqualified": True,
         "reason": 'bad_answer: <script>window.pwned = 4</script>', "points": 0.0,
         "rating": 1300.0, "rating_low": 1100.0, "rating_high": 1500.0},
    ]


@pytest.fixture(scope="session")
def site(games: dict[str, GameRecord], tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site built from every game; returns its folder."""
    out = tmp_path_factory.mktemp("site")
    build_site(out, title="PriemSpel <demo>", records=list(games.values()), leaderboard=leaderboard_rows(),
               job={"name": "demo-priemspel", "game": "priemspel", "settings": [{"start": 0, "N": 5}]},
               game_ids=list(games))
    return out


# name -> (game, reference players in seat order, settings, seed): games whose replays must fit
# a screen (big boards, four players), played between reference players.
BIG_GAMES: dict[str, tuple[str, tuple[str, ...], dict[str, object], int]] = {
    "streky-33x33": ("streky", ("random", "random"), {"cards": "tournament"}, 3),
    "streky-random": ("streky", ("random", "random"), {"cards": "random"}, 5),  # the deal draws the board
    "quoridor-11x11": ("quoridor", ("runner", "waller"), {"sizex": 11, "sizey": 11}, 3),
    "clovece": ("clovece", ("eager", "mean", "random", "safe"), {}, 3),
}


@pytest.fixture(scope="session")
def big_games() -> dict[str, GameRecord]:
    """The games of :data:`BIG_GAMES`, each played once for the whole session. The limits are
    generous: a busy machine must not turn a game into a timeout (its page would still show)."""
    limits = Limits(init=30.0, move=30.0, load=60.0)
    played = {}
    for name, (game, players, settings, seed) in BIG_GAMES.items():
        sources = [source(REPO / "reference_players" / game / f"{p}.py") for p in players]
        played[name] = play_match(get_game(game), sources, settings=settings, seed=seed, logins=list(players),
                                  limits=limits)
    return played
