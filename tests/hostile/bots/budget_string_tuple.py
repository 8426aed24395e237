"""A legal player.py of about 200 KB holding a tuple of 16,000 distinct strings written as
'00042'*819 (the test writes them out): each folds to 4,095 characters, so its bytecode is about
65 MB. The harness used to compile it in its own process, write the pyc into every game's folder
and, the pyc being larger than its cache, compile it again for every game; the door caps the
bytecode (8 MiB), and the bot is forbidden. The test
appends the seed's basic strategy (reference_players/priemspel/basis.py)."""

WORDS = (@TUPLE@)
