"""``import base`` for a Štreky player run outside the harness (installed by ``pip install``).

The course's players do ``import base`` / ``from base import BasePlayer``. In the sandbox the
harness puts its own ``base.py`` next to the bot; after ``pip install`` this module makes the
same import work anywhere, as the very same class. A ``base.py`` next to your ``player.py``
takes precedence (Python searches the script's folder first).
"""

from harness.games.streky.botapi.base import *  # noqa: F401,F403
from harness.games.streky.botapi.base import BasePlayer  # noqa: F401
