"""PriemSpel (seed 001, Dutch): move one pawn 1..N squares forward onto a prime; stuck loses."""

from pathlib import Path

from harness.games.base import GameSpec, Interface
from harness.games.priemspel.adapter import ADAPTER
from harness.games.priemspel.render import svg
from harness.games.priemspel.rules import RULES, describe

GAME = GameSpec(
    name="priemspel",
    title="PriemSpel",
    rules=RULES,
    adapter=ADAPTER,
    botapi_dir=Path(__file__).parent / "botapi",
    wire_classes={"Spel": ("priemspel", "Spel")},
    render=svg,
    describe=describe,
    interface=Interface(required_methods=("zet",), adopters=(("priemspel", "SeedSeat"),)),
)
