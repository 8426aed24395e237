"""Blokovanie (seed 002, Slovak): pick a free cell, block it and its 8 neighbours; stuck loses.

Parts: :mod:`.rules` (the referee), :mod:`.adapter` (``Player(name)`` and
``move(board) -> (row, col)``), :mod:`.render` (SVG and the seed's text board) and
:mod:`.human` (the seed's terminal dialogue for a person in a seat). Bots get plain lists of
strings, so the game has no bot API modules and no wire classes.
"""

from harness.games.base import CodeRule, Conformance, GameSpec, Interface, SubmissionRules
from harness.games.blokovanie.adapter import ADAPTER, METHOD
from harness.games.blokovanie.human import HUMAN
from harness.games.blokovanie.render import svg, text
from harness.games.blokovanie.rules import RULES

# Boards from 1x1 to 12x20, rectangular both ways. A game lasts at most rows * cols plies (each
# move blocks at least its own cell); 3000 playouts take about half a second.
CONFORMANCE = Conformance(
    settings=[{}, {"rows": 1, "cols": 1}, {"rows": 1, "cols": 7}, {"rows": 4, "cols": 9},
                 {"rows": 8, "cols": 3}, {"rows": 10, "cols": 10}, {"rows": 12, "cols": 20}],
    playouts=3000,
    max_plies=240,
)


GAME = GameSpec(
    name="blokovanie",
    title="Blokovanie",
    rules=RULES,
    adapter=ADAPTER,
    botapi_dir=None,
    render=svg,
    render_text=text,
    human=HUMAN,
    submission=SubmissionRules(
        code_rules=(CodeRule("pep8", quote="Od tejto domácej úlohy bude od vás vyžadovaný programátorský štýl "
                                           "zhodný so zásadami PEP8 ... je možné stratiť nejaké body (seed 002)"),),
    ),
    interface=Interface(
        required_methods=(METHOD,),
        any_position=True,  # move(board): the board is all a bot is told, and all it needs
    ),
    conformance=CONFORMANCE,
)
