"""Človeče nehnevaj sa (seed 000): Ludo for four players with dice.

Parts: :mod:`.rules` (the pure referee; the dice are a function of the state), :mod:`.adapter`
(the seed's ``Player(color, board)`` / ``get_move(roll)`` interface with a read-only board view),
:mod:`.render` (SVG and text), ``botapi/clovece.py`` (the module students import:
``from clovece import BasePlayer``). The rule readings are in ``docs/rules.md (Človeče)``.
"""

from pathlib import Path

from harness.games.base import CodeRule, Conformance, GameSpec, Interface, SubmissionRules
from harness.games.clovece.adapter import ADAPTER
from harness.games.clovece.render import svg, text
from harness.games.clovece.rules import RULES, describe

# A whole game is a few hundred decisions; small ply caps add games that end by the cap.
CONFORMANCE = Conformance(
    settings=[{}, {}, {}, {"ply_cap": 60}, {"ply_cap": 1}],
    playouts=200,
    max_plies=4000,
)


GAME = GameSpec(
    name="clovece",
    title="Človeče nehnevaj sa",
    rules=RULES,
    adapter=ADAPTER,
    botapi_dir=Path(__file__).parent / "botapi",
    wire_classes={"Piece": ("clovece", "Piece"), "Board": ("clovece", "Board")},
    render=svg,
    render_text=text,
    describe=describe,
    players=4,
    submission=SubmissionRules(
        # Seed 000: "nepristupujte k členským premenným priamo mimo triedy ... stiahnutých 20 percent".
        code_rules=(CodeRule("encapsulation", deduct=0.2,
                             quote="do not access member variables directly outside the class; a breach of "
                                   "encapsulation costs 20 percent of the points (seed 000)",
                             accessors={"position": "get_position()", "color": "get_color()", "index": "get_index()",
                                        "active": "is_active()", "pieces": "get_pieces()"}),),
    ),
    interface=Interface(required_methods=("get_move",), student_imports=("clovece",)),
    conformance=CONFORMANCE,
)
