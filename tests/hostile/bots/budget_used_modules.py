"""A legal player.py that imports 20 small modules of its own (the test adds mod00.py ...
mod19.py, each a chain of 400 string additions of 'a'*4096: 330 MB and a fraction of a second to
compile each). Each fits the door's caps, so the bot plays, ok: the compiling costs the door's
child, once per content, never the harness's process, and a second game starts no child. The
test appends the seed's basic strategy (reference_players/priemspel/basis.py)."""

import mod00, mod01, mod02, mod03, mod04, mod05, mod06, mod07, mod08, mod09  # noqa: E401
import mod10, mod11, mod12, mod13, mod14, mod15, mod16, mod17, mod18, mod19  # noqa: E401
