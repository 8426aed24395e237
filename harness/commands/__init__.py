"""The ``harness`` subcommands, one module each (discovered by :mod:`harness.cli`)."""
