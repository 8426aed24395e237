"""A legal player.py sent with 20 small modules it never imports (the test adds mod00.py ...
mod19.py, each a chain of 400 string additions of 'a'*4096: 330 MB and about half a second to
compile each). The harness used to compile all 20 in its own process (17 s of CPU); the door
compiles only what player.py imports and parses the rest, so the bot plays, ok. The test
appends the seed's basic strategy (reference_players/priemspel/basis.py)."""
