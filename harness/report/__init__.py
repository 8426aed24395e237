"""The static HTML report: a replay viewer per game and the tournament site around it.

* :mod:`harness.report.replay` - positions re-derived by the referee, drawn; one viewer page;
* :mod:`harness.report.site` - the leaderboard, a page per bot and a replay per game;
* :mod:`harness.report.html` - the Jinja environment, inlined assets and the pages' CSP.
"""

from harness.report.replay import replay_frames, replay_positions, write_replay
from harness.report.site import build_site

__all__ = ["build_site", "replay_frames", "replay_positions", "write_replay"]
