"""A legal player.py that imports its own module helper.py, a chain of 2000 string additions of
'a'*4096 (the test adds it): the door compiles what player.py imports, and the cap names helper.py. The test
appends the seed's basic strategy (reference_players/priemspel/basis.py)."""

import helper
