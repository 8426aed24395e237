"""``from clovece import BasePlayer`` for a Človeče player run outside the harness (installed by ``pip install``).

In the sandbox the harness supplies its own ``clovece.py``; after ``pip install`` this module makes
the same import work anywhere, as the very same classes.
"""

from harness.games.clovece.botapi.clovece import *  # noqa: F401,F403
from harness.games.clovece.botapi.clovece import BasePlayer, Board, Piece  # noqa: F401
