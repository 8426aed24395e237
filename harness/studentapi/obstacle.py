"""``from obstacle import *`` for a Quoridor player run outside the harness (installed by ``pip install``).

The seed's players import the ``Obstacle`` class from ``obstacle``. In the sandbox the harness
supplies its own ``obstacle.py``; after ``pip install`` this module makes the same import work
anywhere, and the class is the very one the harness accepts as an answer.
"""

from harness.games.quoridor.botapi.obstacle import *  # noqa: F401,F403
from harness.games.quoridor.botapi.obstacle import Obstacle  # noqa: F401
