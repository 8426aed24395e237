"""A legal player.py of about 18 KB whose BANNER is a chain of string additions (the test writes
it out: 2000 times 'a'*4096). CPython's optimiser folds it and keeps every intermediate string:
compiling it needs about 8 GB. The harness used to compile it in its own process (2.9 GB for a
7.9 KB one); the door compiles it in its capped child, and the cap makes it the bot's forbidden. The test
appends the seed's basic strategy (reference_players/priemspel/basis.py)."""

BANNER = @CHAIN@
