"""Running untrusted bots: one fresh child process per bot per game, limits from outside.

* :mod:`harness.sandbox.wire` - the tagged-JSON wire format and frames (shared with the child);
* :mod:`harness.sandbox.worker` - the child side, which imports and calls the bot;
* :mod:`harness.sandbox.process` - the parent side: spawn, call with a deadline, kill;
* :mod:`harness.sandbox.static` - checks of a submission's source before it runs.
"""

from harness.sandbox.process import BotProcess, CallResult, Limits

__all__ = ["BotProcess", "CallResult", "Limits"]
