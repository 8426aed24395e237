"""Running untrusted bots: one fresh child process per bot per game, limits from outside.

* :mod:`harness.sandbox.bot.wire` - the tagged-JSON wire format and frames (shared with the child);
* :mod:`harness.sandbox.bot.worker` - the child side, which imports and calls the bot;
* :mod:`harness.sandbox.bot.guard` - the child side's policy (an audit hook): processes, files,
  network, imports, signals, threads;
* :mod:`harness.sandbox.process` - the parent side: spawn, call with a deadline, stop between
  turns, kill; :mod:`harness.sandbox.limits` its limits and results;
* :mod:`harness.sandbox.bubblewrap`, :mod:`harness.sandbox.cgroup` - the kernel's isolation
  (namespaces) and caps (tasks, memory, CPU accounting), where available;
  :mod:`harness.sandbox.isolation` says which are active (``harness doctor``);
* :mod:`harness.sandbox.bot.deadline` - the timing rule, stated once (pure; shared with the child):
  what a call may take, when it is over, and the reason's words;
* :mod:`harness.sandbox.timing` - the parent's CPU clocks of a bot and its wait for a CPU;
* :mod:`harness.sandbox.checks.calibrate` - the self-check before a grading run or tournament;
* :mod:`harness.sandbox.checks.static` - checks of a submission's source before it runs.
"""

from harness.sandbox.limits import CallResult, Limits
from harness.sandbox.process import BotProcess

__all__ = ["BotProcess", "CallResult", "Limits"]
