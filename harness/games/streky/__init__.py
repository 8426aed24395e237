"""Štreky (seed 003): lay rotated colour cards edge to edge; extending colour regions scores."""

from pathlib import Path

from harness.games.base import Conformance, GameSpec, Interface, SubmissionRules
from harness.games.streky.adapter import ADAPTER
from harness.games.streky.render import svg, text
from harness.games.streky.rules import RULES

# The shared conformance suite's playouts: the default game, small tournament and random
# boards (seeded by the playout) and a stress deal (thin and tiny cards), kept small so thousands of
# playouts stay quick.
CONFORMANCE = Conformance(
    settings=[{}, {"cards": "tournament", "rows": 12, "cols": 12}, {"cards": "random", "rows": 10, "cols": 12},
                 {"cards": "random", "rows": 7, "cols": 7}, {"cards": "stress", "rows": 7, "cols": 7}],
    playouts=2000,
    max_plies=500,
)


GAME = GameSpec(
    name="streky",
    title="Štreky",
    rules=RULES,
    adapter=ADAPTER,
    botapi_dir=Path(__file__).parent / "botapi",
    wire_classes={},
    render=svg,
    render_text=text,
    # 1: cards: random deals like the course and cards: tournament is the manager's deal (issue 20)
    setup_version=1,
    submission=SubmissionRules(
        ascii_only=True,
        # The course's grader had Pillow: its base.py (and so every bot built on it) imports PIL.
        packages=("PIL",),
        # BRUTE took player.py alone: a second module of the student's own failed its import there.
        several_files=False,
        one_file_rule='§1.2 "Je možné odevzdat pouze jeden soubor (player.py)"',
        # The player.py of the course's package, which every student starts from (not evidence of copying).
        template_dir=Path(__file__).parent / "template",
    ),
    interface=Interface(
        required_methods=("play",),
        # The course's manager set both on each player after its constructor.
        after_init=("tournament", "timeout"),
        student_imports=("base",),
    ),
    conformance=CONFORMANCE,
)
