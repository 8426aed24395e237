"""The Quoridor variant (seed 004): two pawns race to the opposite row; walls of two Obstacles.

Parts: :mod:`.rules` (the referee, with :mod:`.board` bitboards, :mod:`.moves` and
:mod:`.settings`), :mod:`.adapter` (the seed's ``initialization`` / ``opponent_move`` /
``make_move`` interface), :mod:`.render` (SVG and text), :mod:`.sembasic` (the seed's SemBasic
grading of ``expand_player`` and ``expand_obstacles``), ``botapi/obstacle.py`` (the class
students import).
"""

from pathlib import Path

from harness.games.base import Conformance, GameSpec, Interface, SubmissionRules
from harness.games.quoridor.adapter import ADAPTER
from harness.games.quoridor.render import svg, text
from harness.games.quoridor.rules import RULES
from harness.games.quoridor.sembasic import SEMBASIC

# Small boards keep the conformance suite's thousands of random playouts fast; each still
# exercises walls, crossings, budgets, passes and the ply cap.
CONFORMANCE = Conformance(
    settings=[
        {"sizex": 5, "sizey": 5, "max_obstacles": 3},
        {"sizex": 3, "sizey": 4, "max_obstacles": 2, "initial_walls": {"random": 1}},
        {"sizex": 4, "sizey": 3, "max_obstacles": 1, "start_columns": "random"},
        {"sizex": 2, "sizey": 2, "max_obstacles": 1},
        {"sizex": 6, "sizey": 4, "max_obstacles": 4, "start_columns": "random",
         "initial_walls": {"random": 3}, "ply_cap": 40},
    ],
    playouts=2000,
    max_plies=200,
)


GAME = GameSpec(
    name="quoridor",
    title="Quoridor variant",
    rules=RULES,
    adapter=ADAPTER,
    botapi_dir=Path(__file__).parent / "botapi",
    wire_classes={"Obstacle": ("obstacle", "Obstacle")},
    render=svg,
    render_text=text,
    battery=SEMBASIC,
    submission=SubmissionRules(
        ascii_only=False,
        # The seed's note of 02.01: every import is allowed except these.
        forbidden_imports=frozenset({"numpy", "scipy", "matplotlib", "stat", "statistics", "pyclbr"}),
    ),
    interface=Interface(
        required_methods=("initialization", "make_move", "opponent_move", "expand_player", "expand_obstacles"),
        student_imports=("obstacle",),
    ),
    conformance=CONFORMANCE,
)
