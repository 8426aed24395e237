"""Publishing: everything that turns stored results into something people read.

* :mod:`harness.report.outputs` - the registry of output formats (``leaderboard --format``,
  ``export --format``); :mod:`.export` (leaderboards, gradebook, Gradescope, feedback),
  :mod:`.lms` (Canvas, Moodle), :mod:`.autograder` (the Gradescope bundle), :mod:`.analysis`,
  :mod:`.history`;
* the static HTML report, a replay viewer per game and the tournament site around it (:mod:`.job`):
* :mod:`harness.report.replay` - positions re-derived by the referee, drawn; one viewer page;
* :mod:`harness.report.site` - the leaderboard, a page per bot and a replay per game;
* :mod:`harness.report.html` - the Jinja environment, inlined assets and the pages' CSP.
"""

from harness.report.replay import replay_frames, replay_positions, write_replay
from harness.report.site import build_site

__all__ = ["build_site", "replay_frames", "replay_positions", "write_replay"]
