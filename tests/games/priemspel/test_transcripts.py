"""The seed's PriemSpel transcripts, reproduced exactly by real subprocess bots."""

from __future__ import annotations

import pytest

from harness.games import get_game
from harness.match import play_match
from harness.record import Verdict
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
