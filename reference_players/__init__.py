"""Bots shipped with the harness, one folder per game (``reference_players/<game>/``)."""
