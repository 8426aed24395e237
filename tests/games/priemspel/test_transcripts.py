"""The seed's PriemSpel transcripts, reproduced exactly by real subprocess bots."""

from __future__ import annotations

import pytest

from harness.games import get_game
from harness.match import play_match
from harness.record import Verdict
from harness.sandbox.limits import Limits
from tests.conftest import REPO

GAME = get_game("priemspel")
SPELER = (REPO / "reference_players/priemspel/basis.py").read_bytes()
STRATEGIE = (REPO / "reference_players/priemspel/strategie.py").read_bytes()

SEED_GAMES = [
    # spel.speel() with two basic players (Tab 2): winner 1
    ((SPELER, SPELER), ("Emile", "Zoe"),
     ['[*Emile,Zoe,0]', '[Emile,*Zoe,2]', '[*Emile,Zoe,3]', '[Emile,*Zoe,5]', '[*Emile,Zoe,7]',
      '[Emile,*Zoe,11]', '[*Emile,Zoe,13]', '[Emile,*Zoe,17]', '[*Emile,Zoe,19]', '[+Emile,-Zoe,23]'], 0),
    # spel1_2.speel(): Speler vs SpelerStrategie, winner 2
    ((SPELER, STRATEGIE), ("Emile", "Zoe"),
     ['[*Emile,Zoe,0]', '[Emile,*Zoe,2]', '[*Emile,Zoe,5]', '[Emile,*Zoe,7]', '[*Emile,Zoe,11]',
      '[Emile,*Zoe,13]', '[*Emile,Zoe,17]', '[Emile,*Zoe,19]', '[-Emile,+Zoe,23]'], 1),
    # spel2_3.speel(): SpelerStrategie vs SpelerStrategie, winner 1
    ((STRATEGIE, STRATEGIE), ("Zoe", "Frank"),
     ['[*Zoe,Frank,0]', '[Zoe,*Frank,5]', '[*Zoe,Frank,7]', '[Zoe,*Frank,11]', '[*Zoe,Frank,13]',
      '[Zoe,*Frank,17]', '[*Zoe,Frank,19]', '[+Zoe,-Frank,23]'], 0),
]


@pytest.mark.parametrize(("sources", "names", "transcript", "winner"), SEED_GAMES)
def test_seed_transcript(sources: tuple[bytes, bytes], names: tuple[str, str], transcript: list[str],
                         winner: int, no_leftovers: None) -> None:
    record = play_match(GAME, list(sources), settings={"start": 0, "N": 5}, logins=list(names))
    assert [p.verdict for p in record.players] == [Verdict.OK, Verdict.OK]
    assert record.transcript == transcript
    assert record.winner == winner
    assert record.plies == len(transcript) - 1


def test_strategy_lists_match_the_seed() -> None:
    """alle_sequenties and winst_verlies from the seed's example, in-process."""
    import importlib.util
    import sys

    sys.path.insert(0, str(GAME.botapi_dir))
    try:
        from priemspel import Spel  # type: ignore[import-not-found]

        spec = importlib.util.spec_from_file_location("strategie", REPO / "reference_players/priemspel/strategie.py")
        module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
        spec.loader.exec_module(module)  # type: ignore[union-attr]
    finally:
        sys.path.remove(str(GAME.botapi_dir))
    zoe = module.Player("Zoe")
    spel = Spel(5, 0, 23)
    assert {tuple(s) for s in zoe.alle_sequenties(spel)} == {
        (0, 2, 3, 7, 11, 13, 17, 19, 23), (0, 2, 3, 5, 7, 11, 13, 17, 19, 23), (0, 3, 7, 11, 13, 17, 19, 23),
        (0, 2, 5, 7, 11, 13, 17, 19, 23), (0, 5, 7, 11, 13, 17, 19, 23), (0, 3, 5, 7, 11, 13, 17, 19, 23),
        (0, 2, 7, 11, 13, 17, 19, 23)}
    w, v, o = zoe.winst_verlies(spel)
    assert (set(w), set(v), set(o)) == ({5}, set(), {2, 3})
    assert zoe.zet(spel) == 5


# Files written exactly as the seed asks: Speler (and SpelerStrategie) whose zet takes the file's
# own PriemSpel, with no Player class. The harness keeps the student's PriemSpel in step with +=.
SEED_DIR = REPO / "tests/bots/priemspel/seed"
SEED_BASIC = (SEED_DIR / "speler.py").read_bytes()
SEED_STRATEGIE = (SEED_DIR / "speler_strategie.py").read_bytes()
SEED_STYLE_GAMES = [
    ((SEED_BASIC, SEED_BASIC), *SEED_GAMES[0][1:]),
    ((SPELER, SEED_STRATEGIE), *SEED_GAMES[1][1:]),  # the student's game built with the bot second
    ((SEED_BASIC, STRATEGIE), *SEED_GAMES[1][1:]),
    ((SEED_STRATEGIE, SEED_STRATEGIE), *SEED_GAMES[2][1:]),
]


@pytest.mark.parametrize(("sources", "names", "transcript", "winner"), SEED_STYLE_GAMES)
def test_seed_shaped_submission_plays_the_seed_transcript(sources: tuple[bytes, bytes], names: tuple[str, str],
                                                          transcript: list[str], winner: int,
                                                          no_leftovers: None) -> None:
    record = play_match(GAME, list(sources), settings={"start": 0, "N": 5}, logins=list(names))
    assert [p.verdict for p in record.players] == [Verdict.OK, Verdict.OK], [p.reason for p in record.players]
    assert record.transcript == transcript
    assert record.winner == winner


def test_seed_shaped_submission_from_another_start(no_leftovers: None) -> None:
    """Kept in step from any start: the student's own PriemSpel agrees with the referee all game."""
    basis = play_match(GAME, [STRATEGIE, SPELER], settings={"start": 8, "N": 7}, logins=["a", "b"])
    seed = play_match(GAME, [SEED_STRATEGIE, SEED_BASIC], settings={"start": 8, "N": 7}, logins=["a", "b"])
    assert [p.verdict for p in seed.players] == [Verdict.OK, Verdict.OK], [p.reason for p in seed.players]
    assert seed.transcript == basis.transcript and seed.winner == basis.winner


def test_seed_shaped_game_that_is_not_kept_in_step_is_the_bots_fault(no_leftovers: None) -> None:
    """The harness really plays the student's own PriemSpel: a += that ignores moves misleads its zet."""
    broken = SEED_BASIC.replace(b"        self.pion += stap\n", b"        pass\n")
    assert broken != SEED_BASIC
    record = play_match(GAME, [SPELER, broken], settings={"start": 0, "N": 5}, logins=["a", "b"])
    assert record.players[0].verdict is Verdict.OK
    assert record.players[1].verdict is Verdict.ILLEGAL_MOVE


def test_seed_shaped_worked_example_in_process() -> None:
    """The seed's worked example, through the class the harness constructs for such a file."""
    from harness.inprocess import load_class

    cls = load_class(GAME, SEED_DIR / "speler_strategie.py")
    assert cls.__name__ == "SpelerStrategie"
    seat = cls("Zoe")
    sys_path_spel = __import__("priemspel").Spel  # the bot API's view, as the harness sends it
    assert seat.zet(sys_path_spel(5, 0, 23, 0)) == 5  # the seed: speler2.zet(spel1_2) == 5
    assert str(seat._spel) == "[*Zoe,Tegenstander,0]"


@pytest.mark.parametrize("isolation", ["auto", "plain"])
def test_seed_shaped_submission_in_both_tiers(isolation: str, no_leftovers: None) -> None:
    """Under bubblewrap and in the container tier (plain mode, a uid of its own as root): same game."""
    record = play_match(GAME, [SEED_STRATEGIE, SEED_BASIC], settings={"start": 0, "N": 5}, logins=["Zoe", "Emile"],
                        limits=Limits(isolation=isolation).with_game(GAME))
    assert [p.verdict for p in record.players] == [Verdict.OK, Verdict.OK], [p.reason for p in record.players]
    assert record.transcript[-1] == "[+Zoe,-Emile,23]"


def test_adoption_runs_the_bots_code_as_the_bot(no_leftovers: None) -> None:
    """Looking for the seed's classes may run the bot's code (a module __getattr__): that is the bot's."""
    hostile = b"def __getattr__(name):\n    raise RuntimeError('no ' + name)\n"
    record = play_match(GAME, [hostile, SPELER], settings={"start": 0, "N": 5}, logins=["a", "b"])
    assert record.players[0].verdict is Verdict.EXCEPTION
    assert "RuntimeError" in record.players[0].reason
    assert record.players[1].verdict is Verdict.OK
